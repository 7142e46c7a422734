package output

import (
	"slices"
	"strings"
	"testing"
)

// TestInlineHashes: the CSP lists a hash for each <style> and each inline
// script the browser runs, and none for external scripts or data blocks.
func TestInlineHashes(t *testing.T) {
	h := StyleHash
	for _, c := range []struct {
		name, page string
		want       []string
	}{
		{"style", `<head><style>a{b:c}</style></head>`, []string{"style-src " + h("a{b:c}")}},
		{"classic script", `<script>x()</script>`, []string{"script-src " + h("x()")}},
		{"module script", `<script type="module">y()</script>`, []string{"script-src " + h("y()")}},
		{"javascript type", `<script type=text/javascript>z()</script>`, []string{"script-src " + h("z()")}},
		{"external", `<script src="/a.js"></script><script type="module" src="/b.js"></script>`, nil},
		{"data blocks", `<script type="application/ld+json">{}</script><script type="application/json" data-sg-props>{"a":1}</script>`, nil},
		{"not the element", `<scripts>q</scripts><styles>r</styles>`, nil},
		// A script's and a style's text are not markup: a tag in them is no element.
		{"tags in raw text", `<script>document.write("<style>q{}</style>")</script><style>a::after{content:"<script>x</script>"}</style>`,
			[]string{"style-src " + h(`a::after{content:"<script>x</script>"}`), "script-src " + h(`document.write("<style>q{}</style>")`)}},
		{"unclosed", `<style>a{}<script>1</script>`, []string{"script-src " + h("1")}},
		{"both", `<script>1</script><style>s</style><script src=x.js></script><script>2</script>`,
			[]string{"style-src " + h("s"), "script-src " + h("1"), "script-src " + h("2")}},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := InlineHashes([]byte(c.page)); !slices.Equal(got, c.want) {
				t.Errorf("InlineHashes(%q) = %v, want %v", c.page, got, c.want)
			}
		})
	}
	p := CSP{Script: []string{"https://tags.example"}}.WithInline([]string{"script-src 'sha256-b'", "style-src 'sha256-s'", "script-src 'sha256-a'", "script-src 'sha256-a'"}).String()
	for _, want := range []string{"script-src 'self' https://tags.example 'sha256-a' 'sha256-b';", "style-src 'self' 'sha256-s';"} {
		if !strings.Contains(p, want) {
			t.Errorf("policy %q lacks %q", p, want)
		}
	}
}
