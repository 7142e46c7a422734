package main

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// TestMeasureStatic: the CSS and JS a page loads at startup are found in
// minified markup (unquoted attributes), in every way a page may name them,
// each file once; what does not load at startup is left out.
func TestMeasureStatic(t *testing.T) {
	out := t.TempDir()
	files := map[string]string{
		"pl/x/index.html": `<!doctype html><html><head>` +
			`<link rel=stylesheet href=/a.css>` +
			`<link rel="preload" as="style" href="/b.css" onload="this.rel='stylesheet'">` +
			`<noscript><link rel=stylesheet href=/b.css></noscript>` +
			`<link rel="alternate stylesheet" href=/alt.css>` +
			`<link rel=modulepreload href=/m.js>` +
			`<link rel=preload as=image href=/p.avif>` +
			`<style>body{color:red}</style>` +
			`<script type=module src=/m.js></script>` +
			`<script src=rel.js></script>` +
			`<script nomodule src=/old.js></script>` +
			`<script type=application/ld+json>{}</script>` +
			`<script>inline()</script>` +
			`</head><body><p>x</body></html>`,
		"a.css":       "a{}",
		"b.css":       "b{color:blue}",
		"alt.css":     "unused",
		"m.js":        "export{}",
		"pl/x/rel.js": "rel()",
		"old.js":      "unused",
	}
	for name, body := range files {
		p := filepath.Join(out, filepath.FromSlash(name))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	sb, err := measureStatic(out, "/pl/x/", 6)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"/a.css", "/b.css", "/m.js", "/pl/x/rel.js"}; !reflect.DeepEqual(sb.files, want) {
		t.Errorf("files %v, want %v", sb.files, want)
	}
	if want := len("a{}") + len("b{color:blue}") + len("body{color:red}"); sb.css.raw != want {
		t.Errorf("CSS %d bytes, want %d", sb.css.raw, want)
	}
	if want := len("export{}") + len("rel()"); sb.js.raw != want {
		t.Errorf("JS %d bytes, want %d", sb.js.raw, want)
	}
	if sb.html.raw != len(files["pl/x/index.html"]) || sb.html.gz <= 0 || sb.css.gz <= 0 || sb.js.gz <= 0 {
		t.Errorf("sizes %+v", sb)
	}
	os.Remove(filepath.Join(out, "a.css"))
	if _, err := measureStatic(out, "/pl/x/", 6); err == nil {
		t.Error("a stylesheet missing from the output was not reported")
	}
}

func TestParseViewports(t *testing.T) {
	v, err := parseViewports("390x844@3, 1280x800")
	if err != nil || len(v) != 2 || v[0] != (viewport{390, 844, 3}) || v[1] != (viewport{1280, 800, 1}) {
		t.Errorf("parseViewports = %v, %v", v, err)
	}
	for _, bad := range []string{"390", "390x", "0x10", "390x844@0", "axb"} {
		if _, err := parseViewports(bad); err == nil {
			t.Errorf("parseViewports(%q) gave no error", bad)
		}
	}
}
