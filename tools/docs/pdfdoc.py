"""Minimal writers for the downloadable investor documents.

write_pdf  - a valid PDF 1.4 file with text in Helvetica (Polish letters are
             mapped through a /Differences encoding), A4, wrapped, multi-page.
write_docx - a minimal valid Office Open XML document
             ([Content_Types].xml, _rels/.rels, word/document.xml).
write_xml  - a UTF-8 XML document from a nested (tag, attrs, children) tree.

Only the standard library is used; run tools/docs/generate.py.
"""

import os
import textwrap
import zipfile
from xml.sax.saxutils import escape

# Polish letters outside WinAnsi, placed on codes 0x80-0x8F via /Differences.
_PL = "ĄĆĘŁŃŚŹŻąćęłńśźż"
_PL_GLYPHS = ("Aogonek Cacute Eogonek Lslash Nacute Sacute Zacute Zdotaccent "
              "aogonek cacute eogonek lslash nacute sacute zacute zdotaccent").split()
# WinAnsi codes for the other characters used in the texts.
_WIN = {"–": 0x96, "—": 0x97, "’": 0x92, "“": 0x93, "”": 0x94, "•": 0x95,
        "ó": 0xF3, "Ó": 0xD3, "§": 0xA7, "°": 0xB0, "×": 0xD7, "ü": 0xFC,
        "é": 0xE9, "ö": 0xF6, "ä": 0xE4, "\u00a0": 0x20}
# Characters replaced before encoding (their WinAnsi codes are taken above).
_SUBST = {"„": "\"", "…": "...", "€": "EUR", "‰": "o/oo"}


def _encode(text):
    out = bytearray()
    for ch in text:
        ch = _SUBST.get(ch, ch)
        for c in ch:
            if c in _PL:
                out.append(0x80 + _PL.index(c))
            elif c in _WIN:
                out.append(_WIN[c])
            elif ord(c) < 128:
                if c in "()\\":
                    out += b"\\"
                out.append(ord(c))
            else:
                raise ValueError("character %r not encodable in PDF text" % c)
    return bytes(out)


def _utf16(text):
    return b"<FEFF" + text.encode("utf-16-be").hex().upper().encode() + b">"


def _layout(title, blocks):
    """Returns lines as (font size, bold, text) tuples."""
    lines = [(16, True, title), (10, False, "")]
    for b in blocks:
        if b.startswith("## "):
            lines.append((10, False, ""))
            lines.append((12, True, b[3:]))
            continue
        width = 92
        indent = ""
        if b.startswith("- "):
            b = "• " + b[2:]
            indent = "  "
        for i, w in enumerate(textwrap.wrap(b, width, subsequent_indent=indent) or [""]):
            lines.append((10, False, w))
        lines.append((10, False, ""))
    return lines


def write_pdf(path, title, blocks, author="BotForge S.A.", footer=None):
    lines = _layout(title, blocks)
    if footer:
        lines.append((8, False, footer))
    pages, cur, y = [], [], 790
    for size, bold, text in lines:
        step = size + 5
        if y - step < 60:
            pages.append(cur)
            cur, y = [], 790
        y -= step
        cur.append((size, bold, text, y))
    pages.append(cur)

    objs = {}
    enc = b"<< /Type /Encoding /BaseEncoding /WinAnsiEncoding /Differences [128 " + \
        " ".join("/" + g for g in _PL_GLYPHS).encode() + b"] >>"
    objs[3] = enc
    objs[4] = b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding 3 0 R >>"
    objs[5] = b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding 3 0 R >>"
    kids = []
    n = 7
    for pi, page in enumerate(pages):
        ops = [b"BT"]
        for size, bold, text, y in page:
            if not text:
                continue
            ops.append(b"/%s %d Tf 1 0 0 1 56 %d Tm (%s) Tj" % (
                b"F2" if bold else b"F1", size, y, _encode(text)))
        ops.append(b"/F1 8 Tf 1 0 0 1 56 36 Tm (%s) Tj" % _encode(
            "BotForge S.A. – %s – %d/%d" % (title, pi + 1, len(pages))))
        ops.append(b"ET")
        stream = b"\n".join(ops)
        objs[n] = b"<< /Length %d >>\nstream\n%s\nendstream" % (len(stream), stream)
        objs[n + 1] = (b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] "
                       b"/Resources << /Font << /F1 4 0 R /F2 5 0 R >> >> /Contents %d 0 R >>" % n)
        kids.append(n + 1)
        n += 2
    objs[1] = b"<< /Type /Catalog /Pages 2 0 R >>"
    objs[2] = b"<< /Type /Pages /Kids [%s] /Count %d >>" % (
        b" ".join(b"%d 0 R" % k for k in kids), len(kids))
    objs[6] = b"<< /Title %s /Author %s /Producer (sitegen tools/docs) >>" % (
        _utf16(title), _utf16(author))

    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = {}
    for num in sorted(objs):
        offsets[num] = len(out)
        out += b"%d 0 obj\n%s\nendobj\n" % (num, objs[num])
    xref = len(out)
    size = max(objs) + 1
    out += b"xref\n0 %d\n0000000000 65535 f \n" % size
    for num in range(1, size):
        out += b"%010d 00000 n \n" % offsets[num]
    out += b"trailer\n<< /Size %d /Root 1 0 R /Info 6 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (size, xref)
    _write(path, bytes(out))


_CT = ('<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
       '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
       '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
       '<Default Extension="xml" ContentType="application/xml"/>'
       '<Override PartName="/word/document.xml" '
       'ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/>'
       '</Types>')
_RELS = ('<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
         '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
         '<Relationship Id="rId1" '
         'Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" '
         'Target="word/document.xml"/></Relationships>')


def _para(text, bold=False, size=None):
    rpr = ""
    if bold or size:
        rpr = "<w:rPr>%s%s</w:rPr>" % ("<w:b/>" if bold else "",
                                        '<w:sz w:val="%d"/>' % size if size else "")
    return ('<w:p><w:r>%s<w:t xml:space="preserve">%s</w:t></w:r></w:p>'
            % (rpr, escape(text)))


def write_docx(path, title, blocks):
    body = [_para(title, True, 32)]
    for b in blocks:
        if b.startswith("## "):
            body.append(_para(b[3:], True, 24))
        else:
            body.append(_para(b))
    doc = ('<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
           '<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main">'
           '<w:body>%s<w:sectPr><w:pgSz w:w="11906" w:h="16838"/>'
           '<w:pgMar w:top="1134" w:right="1134" w:bottom="1134" w:left="1134" '
           'w:header="709" w:footer="709" w:gutter="0"/></w:sectPr></w:body></w:document>'
           % "".join(body))
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in (("[Content_Types].xml", _CT), ("_rels/.rels", _RELS),
                           ("word/document.xml", doc)):
            info = zipfile.ZipInfo(name, date_time=(2025, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(info, data)


def _xml(node, depth):
    tag, attrs, children = node
    pad = "  " * depth
    a = "".join(' %s="%s"' % (k, escape(str(v), {'"': "&quot;"})) for k, v in attrs.items())
    if isinstance(children, (str, int, float)):
        return "%s<%s%s>%s</%s>\n" % (pad, tag, a, escape(str(children)), tag)
    if not children:
        return "%s<%s%s/>\n" % (pad, tag, a)
    return "%s<%s%s>\n%s%s</%s>\n" % (pad, tag, a, "".join(_xml(c, depth + 1) for c in children), pad, tag)


def write_xml(path, root, comment=None):
    s = '<?xml version="1.0" encoding="UTF-8"?>\n'
    if comment:
        s += "<!-- %s -->\n" % comment
    s += _xml(root, 0)
    _write(path, s.encode("utf-8"))


def _write(path, data):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(data)
