package markdown

import (
	"bytes"
	"testing"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/renderer/html"
)

// linkifySamples are texts where goldmark's linkify parser finds links, or
// nearly does: URLs, www. hosts, e-mail addresses, each after every
// trigger character, at a line's start, in link labels, with the trailing
// punctuation it trims.
var linkifySamples = []string{
	"see https://example.com/a?b=c, and http://x.io/(y) or ftp://files.example.org.",
	"www.example.com/path and (www.example.com) and *www.example.com* _www.a.bc_ ~www.a.bc~",
	"write to jan.kowalski@example.pl, or <a@b.co>; not a@b nor @x.com nor a@.com",
	"mail:ab@cd.ef.\nab@cd.ef-\nab@cd.ef_ ab@cd.ef. ab@cd",
	"[https://example.com](https://example.org) [a@b.co](/x) ![www.a.bc](/i.png)",
	"https://example.com/a&amp; https://example.com/b&x; https://e.com/c) (https://e.com/d)",
	"\thttps://tab.example.com\n  www.indented.example.com\n\nhttps:no httpsx://a.b wwwx.a.bc htt://a.b ftp:/a.b",
	"zażółć https://ąę.example.com/ścieżka żółw@example.pl 日本@example.jp",
	"**https://bold.example.com** __ab@cd.ef__ ~~www.strike.example.com~~",
	"| a | https://t.example.com |\n|---|---|\n| x@y.zz | www.t.example.com |",
	"- [ ] www.task.example.com\n- [x] https://done.example.com",
	"!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~ http://p.example.com! a_b@c.de a+b@c.de",
	"`https://code.example.com` ```\nhttps://fence.example.com\n```",
	"a@b.c@d.e.f https://x.y.z:8080/p#f www.a.b?c=d",
	// Addresses after lines and paragraphs without '@', several on a line,
	// after an '@' that starts none (quickLinkify looks ahead for the next '@').
	"no address here\nnor here\nbut x@y.com here, then a@b.co and c@d.ef\n\nnew paragraph\nz@w.io",
	"`a@b` then c@d.ef, @mention and then e@f.gh\n> quoted g@h.ij\n- item k@l.mn\n\n# heading m@n.op",
}

func TestQuickLinkifySameHTML(t *testing.T) {
	for _, src := range linkifySamples {
		want, got := linkifyBoth(t, []byte(src))
		if got != want {
			t.Errorf("%q:\n got %s\nwant %s", src, got, want)
		}
	}
}

func FuzzQuickLinkify(f *testing.F) {
	for _, s := range linkifySamples {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		if len(src) > 4096 {
			return
		}
		want, got := linkifyBoth(t, []byte(src))
		if got != want {
			t.Errorf("%q:\n got %s\nwant %s", src, got, want)
		}
	})
}

// linkifyBoth renders src with goldmark's GFM and with gfm.
func linkifyBoth(t *testing.T, src []byte) (stock, quick string) {
	render := func(ext goldmark.Extender) string {
		md := goldmark.New(goldmark.WithExtensions(ext), goldmark.WithParserOptions(parser.WithAutoHeadingID()), goldmark.WithRendererOptions(html.WithUnsafe()))
		var b bytes.Buffer
		if err := md.Convert(src, &b); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	return render(extension.GFM), render(gfm)
}
