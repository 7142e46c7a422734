package content

import (
	"context"
	"testing"
	"testing/fstest"

	"gopkg.in/yaml.v3"

	"sitegen/pkg/yamlx"
)

// fakePages is a PageFiles that knows the pages in known and records what
// it is asked to remember.
type fakePages struct {
	known      map[string]KnownPage
	remembered map[string]KnownPage
}

func (f *fakePages) Identity(path string) string { return "id " + path }
func (f *fakePages) Known(path, id string) (KnownPage, bool) {
	k, ok := f.known[path]
	return k, ok && id == "id "+path
}
func (f *fakePages) Remember(path, id string, k KnownPage) { f.remembered[path] = k }

// TestKnownPages: a page file PageFiles knows is not read (its front matter
// and sum come from what was kept, its body from the file when asked); a
// page file read is remembered with what finds its body again.
func TestKnownPages(t *testing.T) {
	const a = "---\nid: a\ntitle: A\ndescription: Page A.\n---\nBody of A.\n"
	const b = "---\nid: b\ntitle: B\ndescription: Page B.\n---\nBody of B.\n"
	fsys := fstest.MapFS{"content/pl/a.md": {Data: []byte(a)}, "content/pl/b.md": {Data: []byte(b)}}
	opts := Options{Langs: []string{"pl"}, LazyBodies: true}
	// A first read: both files read, both remembered.
	first := &fakePages{remembered: map[string]KnownPage{}}
	opts.Pages = first
	if _, errs, err := Read(context.Background(), fsys, opts); err != nil || len(errs) > 0 {
		t.Fatal(err, errs)
	}
	ka, ok := first.remembered["content/pl/a.md"]
	if !ok || string(ka.FrontMatter) != "id: a\ntitle: A\ndescription: Page A.\n" || ka.BodyLine != 6 || ka.BodyLen != len("Body of A.\n") {
		t.Fatalf("remembered %+v", ka)
	}
	if _, err := yamlx.DecodeNodes(ka.Nodes); err != nil {
		t.Fatalf("the remembered tree: %v", err)
	}
	// a.md known with another title (its tree as an earlier build kept
	// it): taken as known, not read.
	var doc yaml.Node
	ka.FrontMatter = []byte("id: a\ntitle: Known A\ndescription: Page A.\n")
	if err := yaml.Unmarshal(ka.FrontMatter, &doc); err != nil {
		t.Fatal(err)
	}
	ka.Nodes = yamlx.EncodeNodes(&doc)
	second := &fakePages{known: map[string]KnownPage{"content/pl/a.md": ka}, remembered: map[string]KnownPage{}}
	opts.Pages = second
	files, errs, err := Read(context.Background(), fsys, opts)
	if err != nil || len(errs) > 0 {
		t.Fatal(err, errs)
	}
	for _, f := range files {
		switch f.Path {
		case "content/pl/a.md":
			if f.Page.Title != "Known A" || f.Page.Sum != ka.Sum {
				t.Errorf("a.md: title %q: not taken as known", f.Page.Title)
			}
			if body, err := f.Page.LoadBody(fsys); err != nil || string(body) != "Body of A.\n" {
				t.Errorf("a.md body = %q, %v", body, err)
			}
		case "content/pl/b.md":
			if f.Page.Title != "B" {
				t.Errorf("b.md: title %q", f.Page.Title)
			}
		}
	}
	if _, ok := second.remembered["content/pl/a.md"]; ok || len(second.remembered) != 1 {
		t.Errorf("remembered %v: want b.md alone", second.remembered)
	}
	// The body changed behind the known entry: LoadBody says so.
	fsys["content/pl/a.md"] = &fstest.MapFile{Data: []byte("---\nid: a\ntitle: A\ndescription: Page A.\n---\nBody of A, edited.\n")}
	files, _, _ = Read(context.Background(), fsys, opts)
	for _, f := range files {
		if f.Path == "content/pl/a.md" {
			if _, err := f.Page.LoadBody(fsys); err == nil {
				t.Error("a body changed behind a known entry was loaded")
			}
		}
	}
}
