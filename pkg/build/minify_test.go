package build

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"sitegen/pkg/htmlmin"
)

// rawParts are the parts of a page minification must leave byte for byte:
// code blocks, inline scripts (island props, JSON-LD) and styles.
var rawParts = regexp.MustCompile(`(?s)<pre[ >].*?</pre>|<script[ >].*?</script>|<style[ >].*?</style>|<textarea[ >].*?</textarea>`)

// TestMinifiedHTML builds the fixture sites with and without --minify:
// minified, every page is as small as tdewolff/minify's full HTML minifier
// would make it (within 1%) and smaller than unminified; code blocks and
// inline scripts are the same bytes either way; and each page's page data
// carries exactly the <main> of the page (the runtime swaps it in).
func TestMinifiedHTML(t *testing.T) {
	full := htmlmin.New()
	for _, gs := range goldenSites {
		t.Run(gs.name, func(t *testing.T) {
			build := func(minify bool) map[string][]byte {
				src := fixtureSite(t, gs.name, t.TempDir())
				out := filepath.Join(t.TempDir(), "out")
				if _, err := Run(context.Background(), Options{Source: src, Out: out, Date: "2026-01-01", Minify: minify}); err != nil {
					t.Fatal(err)
				}
				return readTree(t, out)
			}
			min, plain := build(true), build(false)
			var minBytes, plainBytes, pages int
			for name, page := range min {
				if !strings.HasSuffix(name, ".html") {
					continue
				}
				pages++
				minBytes += len(page)
				plainBytes += len(plain[name])
				again, err := full.HTML(page)
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				if left := len(page) - len(again); left > len(page)/100 {
					t.Errorf("%s: the full minifier still saves %d of %d bytes", name, left, len(page))
				}
				if got, want := inlineParts(page), inlineParts(plain[name]); !slices.EqualFunc(got, want, bytes.Equal) {
					t.Errorf("%s: code blocks or inline scripts changed:\n got %q\nwant %q", name, got, want)
				}
			}
			if pages == 0 || minBytes >= plainBytes {
				t.Errorf("%d pages: %d bytes minified, %d without: not minified", pages, minBytes, plainBytes)
			}
			checked := 0
			for name, b := range min {
				if !strings.HasPrefix(name, "page-data/") || !strings.HasSuffix(name, "/page-data.json") {
					continue
				}
				var pd struct {
					Path   string `json:"path"`
					Result struct {
						Page struct {
							HTML string `json:"html"`
						} `json:"page"`
					} `json:"result"`
				}
				if err := json.Unmarshal(b, &pd); err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				page := min[strings.TrimPrefix(pd.Path, "/")+"index.html"]
				if main, ok := mainOf(page); !ok || main != pd.Result.Page.HTML {
					t.Errorf("%s: the page data's html is not the <main> of %s:\n data %q\n page %q", name, pd.Path, pd.Result.Page.HTML, main)
				}
				checked++
			}
			if checked == 0 {
				t.Error("no page data checked")
			}
		})
	}
}

// inlineParts returns the code blocks, inline scripts and styles of a page
// (scripts loaded from a URL are left out: their names hash their bytes,
// which --minify changes).
func inlineParts(page []byte) [][]byte {
	var out [][]byte
	for _, p := range rawParts.FindAll(page, -1) {
		open := p[:bytes.IndexByte(p, '>')]
		if bytes.HasPrefix(p, []byte("<script")) && bytes.Contains(open, []byte(" src=")) {
			continue
		}
		out = append(out, p)
	}
	return out
}

// mainOf returns the inner HTML of a page's <main>.
func mainOf(page []byte) (string, bool) {
	i := bytes.Index(page, []byte("<main"))
	j := bytes.LastIndex(page, []byte("</main>"))
	if i < 0 || j < i {
		return "", false
	}
	k := bytes.IndexByte(page[i:], '>')
	if k < 0 || i+k+1 > j {
		return "", false
	}
	return string(page[i+k+1 : j]), true
}
