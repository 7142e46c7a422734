#!/usr/bin/python3
"""Metric overrides for the local fallback faces in assets/css/fonts.css.

While a web font loads, text is set in a local font (Arial, or Liberation Sans,
which has Arial's metrics); when the web font arrives the text is set again.
For the swap not to move anything, the fallback face is scaled (size-adjust)
so that the site's own text has the same width in both fonts, and its
ascent/descent/line gap are set to the web font's (ascent-override, ...), the
way Next.js's font optimisation and capsize do it.

Widths are the advance widths of the characters of the site's Markdown
content (content/pl and content/en), each weighted by how often it occurs,
read from the variable web fonts instanced at the weight the fallback face
stands in for (400 for the regular face, the stylesheet's most used bold
weight for the bold face). Vertical metrics are hhea's (what Chromium uses on
Linux and macOS).

Writes tools/fonts/fallback-metrics.json (with the sha256 of every file read,
so TestFontFallbackMetrics notices a font changed without this being run
again) and prints the @font-face rules that go into assets/css/fonts.css.
Needs Debian's python3-fonttools, python3-brotli and fonts-liberation.
Run: /usr/bin/python3 tools/fonts/fallback.py (the Debian python that has fontTools)
"""
import collections
import hashlib
import io
import json
import pathlib
import sys

from fontTools.ttLib import TTFont
from fontTools.varLib import instancer

ROOT = pathlib.Path(__file__).resolve().parents[2]
FONTS = ROOT / "assets" / "fonts"
LIBERATION = pathlib.Path("/usr/share/fonts/truetype/liberation")

# family -> (latin file, Polish letters file, bold weight)
FAMILIES = {
    "Inter": ("inter-latin-wght.woff2", "inter-pl-wght.woff2", 600),
    "Space Grotesk": ("space-grotesk-latin-wght.woff2", "space-grotesk-pl-wght.woff2", 650),
}
# face -> (weight the web font is instanced at (None: the family's bold), local fallback file,
# CSS weight range of the face, local() names)
FACES = {
    "regular": (400, "LiberationSans-Regular.ttf", "100 549", ["Arial", "ArialMT", "Liberation Sans", "LiberationSans"]),
    "bold": (None, "LiberationSans-Bold.ttf", "550 900", ["Arial Bold", "Arial-BoldMT", "Liberation Sans Bold", "LiberationSans-Bold"]),
}


def sha256(path):
    return hashlib.sha256(path.read_bytes()).hexdigest()


def text_frequencies():
    """Characters of the site's content, counted (whitespace as one space)."""
    counts = collections.Counter()
    for lang in ("pl", "en"):
        for md in sorted((ROOT / "content" / lang).rglob("*.md")):
            for ch in md.read_text(encoding="utf-8"):
                if ch.isspace():
                    ch = " "
                counts[ch] += 1
    return counts


def instance(path, wght):
    font = TTFont(str(path))
    if "fvar" in font:
        font = instancer.instantiateVariableFont(font, {"wght": wght})
    return font


def advances(fonts):
    """char -> advance in em, from the first font that maps it."""
    out = {}
    for font in fonts:
        upm = font["head"].unitsPerEm
        hmtx = font["hmtx"]
        for cp, glyph in font.getBestCmap().items():
            out.setdefault(chr(cp), hmtx[glyph][0] / upm)
    return out


def average_width(adv, counts):
    total = n = 0
    for ch, c in counts.items():
        if ch in adv:
            total += adv[ch] * c
            n += c
    return total / n


def common_chars(counts, *advs):
    return collections.Counter({ch: c for ch, c in counts.items() if all(ch in a for a in advs)})


def main():
    counts = text_frequencies()
    inputs = {}
    out = {"sample": "characters of content/pl and content/en, weighted by frequency", "families": {}}
    for family, (latin, pl, bold) in FAMILIES.items():
        faces = {}
        for face, (wght, fallback, weights, names) in FACES.items():
            wght = wght or bold
            web = [instance(FONTS / latin, wght), instance(FONTS / pl, wght)]
            fb = TTFont(str(LIBERATION / fallback))
            for p in (FONTS / latin, FONTS / pl, LIBERATION / fallback):
                inputs[str(p.relative_to(ROOT)) if p.is_relative_to(ROOT) else p.name] = sha256(p)
            web_adv, fb_adv = advances(web), advances([fb])
            sample = common_chars(counts, web_adv, fb_adv)
            size = average_width(web_adv, sample) / average_width(fb_adv, sample)
            hhea, upm = web[0]["hhea"], web[0]["head"].unitsPerEm
            faces[face] = {
                "weights": weights,
                "webWeight": wght,
                "local": names,
                "sizeAdjust": round(size * 100, 2),
                "ascentOverride": round(hhea.ascent / upm / size * 100, 2),
                "descentOverride": round(-hhea.descent / upm / size * 100, 2),
                "lineGapOverride": round(hhea.lineGap / upm / size * 100, 2),
            }
        out["families"][family] = faces
    out["inputs"] = dict(sorted(inputs.items()))
    (ROOT / "tools" / "fonts" / "fallback-metrics.json").write_text(json.dumps(out, indent=2, ensure_ascii=False) + "\n")
    for family, faces in out["families"].items():
        for face in faces.values():
            src = ", ".join(f'local("{n}")' for n in face["local"])
            print(f'@font-face {{\n  font-family: "{family} Fallback";\n  font-weight: {face["weights"]};\n  src: {src};\n'
                  f'  size-adjust: {face["sizeAdjust"]}%;\n  ascent-override: {face["ascentOverride"]}%;\n'
                  f'  descent-override: {face["descentOverride"]}%;\n  line-gap-override: {face["lineGapOverride"]}%;\n}}')


if __name__ == "__main__":
    sys.exit(main())
