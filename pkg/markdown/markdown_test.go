package markdown

import (
	"errors"
	"strings"
	"testing"

	"sitegen/pkg/diag"
)

func TestBlock(t *testing.T) {
	c := New(Options{Highlight: true})
	resolve := func(dest string) (string, error) {
		if dest == "ref:ok" {
			return "/pl/ok/", nil
		}
		if strings.HasPrefix(dest, "https:") {
			return dest, nil
		}
		return "", errors.New("nope")
	}
	tests := []struct {
		name, src, want string
		errs            []string
	}{
		{"polish heading id", "## Zażółć gęślą jaźń", `<h2 id="zazolc-gesla-jazn">Zażółć gęślą jaźń</h2>`, nil},
		{"unique ids", "## A\n\n## A", `<h2 id="a">A</h2>` + "\n" + `<h2 id="a-1">A</h2>`, nil},
		{"resolved link", "[x](ref:ok)", `<p><a href="/pl/ok/">x</a></p>`, nil},
		{"external link", "[x](https://example.org)", `<p><a href="https://example.org">x</a></p>`, nil},
		{"broken link position", "Line one.\n\nSee [this](bad) and [that](worse).", "", []string{"f.md:12:5: link \"bad\": nope", "f.md:12:21: link \"worse\": nope"}},
		{"code highlighted with classes", "```go\nfunc main() {}\n```", `<pre tabindex="0" class="chroma"><code><span class="line"><span class="cl"><span class="kd">func</span>`, nil},
		{"table", "| a |\n|---|\n| 1 |", "<table>", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, errs := c.Block(Source{Text: []byte(tt.src), Pos: diag.Pos{File: "f.md", Line: 10, Col: 1}}, resolve)
			var got []string
			for _, e := range errs {
				got = append(got, e.Error())
			}
			if strings.Join(got, "|") != strings.Join(tt.errs, "|") {
				t.Errorf("errors = %q, want %q", got, tt.errs)
			}
			if tt.errs == nil && !strings.Contains(out, tt.want) {
				t.Errorf("output %q lacks %q", out, tt.want)
			}
		})
	}
	inline, _ := c.Inline(Source{Text: []byte("**82%** pytań")}, resolve)
	if inline != "<strong>82%</strong> pytań" {
		t.Errorf("Inline = %q", inline)
	}
}

func TestNoHighlight(t *testing.T) {
	out, _ := New(Options{}).Block(Source{Text: []byte("```go\nfunc main() {}\n```")}, nil)
	if want := `<pre><code class="language-go">func main() {}`; !strings.Contains(out, want) {
		t.Errorf("got %q, want %q", out, want)
	}
}

// TestCheckLinks: links are checked on the syntax tree with the resolver
// rendering uses, reference-style ones too, each at its own position; text
// that merely looks like a link (code) is not a link.
func TestCheckLinks(t *testing.T) {
	c := New(Options{})
	src := Source{Text: []byte("see [a](ref:bad) and `[x](ref:code)`\nthen [b][r] and ![i](/missing.png)\n\n[r]: ref:bad2\n"), Pos: diag.Pos{File: "f.yaml", Line: 3, Col: 11}}
	errs := c.CheckLinks(src, func(dest string) (string, error) {
		if strings.HasPrefix(dest, "ref:bad") || dest == "/missing.png" {
			return "", errors.New("unknown")
		}
		return dest, nil
	})
	var got []string
	for _, d := range errs.Sort() {
		got = append(got, d.Pos.String()+" "+d.Message)
	}
	want := []string{
		`f.yaml:3:15 link "ref:bad": unknown`,
		`f.yaml:4:6 link "ref:bad2": unknown`,
		`f.yaml:4:17 link "/missing.png": unknown`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestLinkErrorsBounded: a text with thousands of broken links reports the
// first maxLinkErrors and counts the rest in one diagnostic, rendering and
// checking alike; every one was reported, with its position counted from
// the text's start (2 MB of them took 1.2 GB and two minutes, issue 36).
func TestLinkErrorsBounded(t *testing.T) {
	c := New(Options{})
	src := Source{Text: []byte(strings.Repeat("[a](/x) [b](/y)\n\n", 1500)), Pos: diag.Pos{File: "content/pl/a.md", Line: 6, Col: 1}}
	bad := func(string) (string, error) { return "", errors.New("no such page") }
	_, fromBlock := c.Block(src, bad)
	for name, errs := range map[string]diag.List{"Block": fromBlock, "CheckLinks": c.CheckLinks(src, bad)} {
		if len(errs) != maxLinkErrors+1 {
			t.Fatalf("%s: %d diagnostics, want %d", name, len(errs), maxLinkErrors+1)
		}
		if got := errs[0].Error(); got != `content/pl/a.md:6:1: link "/x": no such page` {
			t.Errorf("%s: first %q", name, got)
		}
		if got, want := errs[maxLinkErrors].Error(), "content/pl/a.md:6:1: and 2900 more link errors in this text (only the first 100 are shown)"; got != want {
			t.Errorf("%s: last %q, want %q", name, got, want)
		}
	}
}
