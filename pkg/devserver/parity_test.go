package devserver

import (
	"bytes"
	"cmp"
	"context"
	"maps"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"sitegen/internal/treetest"
	"sitegen/pkg/build"
	"sitegen/pkg/output"
)

// devMarks are what the dev server adds to HTML: its script and the
// fallback marker.
var devMarks = regexp.MustCompile(`<script type="module" src="/_sitegen/dev\.js" data-sitegen-dev data-file="[^"]*"></script>|<div data-sitegen-dev="fallback"[^>]*>.*?</div>`)

// TestServeMatchesBuild: every published file of a build, asked for
// through the dev server's HTTP handler (each page rendered on that
// request), comes back with the build's bytes (the dev script and the
// fallback marker taken out), on every fixture site and the website.
func TestServeMatchesBuild(t *testing.T) {
	sites := map[string]string{"website": "../.."}
	ents, _ := os.ReadDir("../../testdata/sites")
	for _, e := range ents {
		sites[e.Name()] = filepath.Join("../../testdata/sites", e.Name())
	}
	for name, src := range sites {
		t.Run(name, func(t *testing.T) {
			if name == "website" {
				if _, err := os.Stat(filepath.Join(src, "node_modules")); err != nil {
					t.Skip("the website needs node_modules (make setup)")
				}
			} else {
				dir := t.TempDir()
				copyTree(t, src, dir)
				root, _ := filepath.Abs("../..")
				if err := os.Symlink(filepath.Join(root, "node_modules"), filepath.Join(dir, "node_modules")); err != nil {
					t.Fatal(err)
				}
				src = dir
			}
			opts := build.Options{Source: src, Date: "2026-01-01", Minify: true, ImageCache: t.TempDir()}
			bo := opts
			bo.Out = filepath.Join(t.TempDir(), "public")
			if _, err := build.Run(context.Background(), bo); err != nil {
				t.Fatal(err)
			}
			want := treetest.Read(t, bo.Out)
			s, err := New(context.Background(), Options{Build: opts})
			if err != nil || s.failing.Load() {
				t.Fatalf("start: %v (failing %v)", err, s.failing.Load())
			}
			defer s.Close()
			redirects := s.snap.Load().redirects
			n := 0
			// The pages first: a picture variant is known once a page
			// naming it has rendered.
			files := slices.SortedFunc(maps.Keys(want), func(a, b string) int {
				pic := func(s string) int {
					if strings.HasPrefix(s, "_assets/img/") {
						return 1
					}
					return 0
				}
				return cmp.Or(cmp.Compare(pic(a), pic(b)), cmp.Compare(a, b))
			})
			for _, file := range files {
				b := want[file]
				url := "/" + strings.TrimSuffix(file, "index.html")
				if file == output.ManifestName || output.Private(url) || redirects[strings.TrimSuffix(url, "/")] != "" {
					continue
				}
				rec := httptest.NewRecorder()
				s.ServeHTTP(rec, httptest.NewRequest("GET", url, nil))
				got := rec.Body.Bytes()
				if strings.HasSuffix(file, ".html") {
					got = devMarks.ReplaceAll(got, nil)
				}
				if rec.Code != 200 || !bytes.Equal(got, b) {
					t.Errorf("%s: %d, %d bytes; want the build's %d bytes", url, rec.Code, len(got), len(b))
				}
				n++
			}
			if n < 3 {
				t.Fatalf("only %d files compared", n)
			}
		})
	}
}
