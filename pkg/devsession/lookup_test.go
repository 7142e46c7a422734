package devsession

import (
	"context"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"sitegen/internal/treetest"
	"sitegen/pkg/route"
)

// TestFindsByName: a session finds the page that writes an output path
// from the path itself (build.Site.PageAt) and tells folders from files
// without listing the output (isDir); on every fixture site and the
// website, both agree with the listing of every page's names
// (build.Site.PageNames) and every output path's folders.
func TestFindsByName(t *testing.T) {
	sites := map[string]string{"website": "../.."}
	fixtures, _ := os.ReadDir("../../testdata/sites")
	for _, f := range fixtures {
		sites[f.Name()] = treetest.Fixture(t, f.Name(), t.TempDir())
	}
	for name, src := range sites {
		t.Run(name, func(t *testing.T) {
			if _, err := os.Stat(filepath.Join(src, "node_modules")); err != nil && name == "website" {
				t.Skip("the website needs node_modules (make setup)")
			}
			d, _, err := New(context.Background(), devOpts(src))
			if err != nil {
				t.Fatal(err)
			}
			defer d.Close()
			st := d.good
			writer := map[string]*route.Entry{}
			for _, e := range st.entries {
				names, _ := st.site.PageNames(e)
				for _, n := range names {
					writer[n] = e
				}
			}
			all, err := d.names(st)
			if err != nil {
				t.Fatal(err)
			}
			dirs := map[string]bool{".": true}
			for _, n := range all {
				for dir := path.Dir(n); dir != "."; dir = path.Dir(dir) {
					dirs[dir] = true
				}
			}
			probes := append([]string{"nothing-here", "pl/nothing/index.html", "page-data/nothing/page-data.json"}, all...)
			for dir := range dirs {
				probes = append(probes, dir, dir+"/index.html", dir+"/404.html")
			}
			for _, n := range probes {
				e, ok := st.site.PageAt(n)
				if want := writer[n]; e != want || ok != (want != nil) {
					t.Errorf("PageAt(%q) = %v, %v; the pages' names say %v", n, urlOf(e), ok, urlOf(want))
				}
				fresh := newState(st.site) // isDir's fast answers, before it lists the folders
				if got := d.isDir(fresh, n); got != dirs[n] {
					t.Errorf("isDir(%q) = %v, want %v", n, got, dirs[n])
				}
			}
		})
	}
}

func urlOf(e *route.Entry) string {
	if e == nil {
		return "none"
	}
	return strings.TrimSpace(e.URL)
}

// TestLaterFilesAfterEdits: the redirect pages and the sitemap, made only
// when asked for, follow edits: an update names them changed when their
// bytes changed (an open tab reloads) and not when they did not, and they
// then give the new bytes.
func TestLaterFilesAfterEdits(t *testing.T) {
	dir := treetest.Fixture(t, "shop", t.TempDir())
	ctx := context.Background()
	d, _, err := New(ctx, devOpts(dir))
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	const redirect, sitemap = "faq/index.html", "sitemap.xml"
	for _, name := range []string{redirect, sitemap} {
		if _, err := d.File(ctx, name); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
	}
	write := func(rel, text string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, rel), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	steps := []struct {
		name, file, text string
		changed          []string // of redirect, sitemap
		sitemapHas       string
	}{
		{"a new page changes the sitemap only", "content/en/tea.md", "---\nid: tea\ntitle: Tea\ndescription: Leaves.\n---\nGreen.\n", []string{sitemap}, "/en/tea/"},
		{"a body edit changes neither", "content/en/tea.md", "---\nid: tea\ntitle: Tea\ndescription: Leaves.\n---\nBlack.\n", nil, "/en/tea/"},
		{"a moved page changes both", "content/en/faq.md", "---\nid: faq\nslug: questions\ntitle: Questions\ndescription: What buyers ask.\nsections:\n  - {type: faq, data: shop.faq}\n---\n## Shipping\n",
			[]string{redirect, sitemap}, "/en/questions/"},
	}
	for _, s := range steps {
		write(s.file, s.text)
		res, err := d.Update(ctx, []string{s.file})
		if err != nil {
			t.Fatalf("%s: %v", s.name, err)
		}
		var changed []string
		for _, name := range []string{redirect, sitemap} {
			if slices.Contains(res.Changed, name) {
				changed = append(changed, name)
			}
		}
		if !slices.Equal(changed, s.changed) {
			t.Errorf("%s: changed %v, want %v", s.name, changed, s.changed)
		}
		if b, err := d.File(ctx, sitemap); err != nil || !strings.Contains(string(b), s.sitemapHas) {
			t.Errorf("%s: the sitemap lacks %s (%v)", s.name, s.sitemapHas, err)
		}
	}
}
