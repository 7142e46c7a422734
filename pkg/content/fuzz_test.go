package content

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"

	"sitegen/pkg/sitepath"

	"sitegen/pkg/schema"
)

// addPageSeeds adds the Markdown pages of testdata/ (fixture sites and the
// pages inside the invalid-site archives) and of the site's content/.
func addPageSeeds(f *testing.F) {
	for _, root := range []string{"../../testdata", "../../content"} {
		filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return nil
			}
			switch {
			case strings.HasSuffix(p, ".md"):
				if b, err := os.ReadFile(p); err == nil {
					f.Add(b)
				}
			case strings.HasSuffix(p, ".txtar"):
				if ar, err := txtar.ParseFile(p); err == nil {
					for _, af := range ar.Files {
						if strings.HasSuffix(af.Name, ".md") {
							f.Add(af.Data)
						}
					}
				}
			}
			return nil
		})
	}
	f.Add([]byte("---\r\nid: x\r\n---\r\n"))
	f.Add([]byte("\xef\xbb\xbf---\n---\n"))
	f.Add([]byte("---\nid: a\n---"))
}

// FuzzParsePage: splitting front matter from the body and decoding it never
// panics; every diagnostic names the file with a line; a page accepted
// without errors has a clean path and clean aliases, and its body is a
// suffix of the input.
func FuzzParsePage(f *testing.F) {
	addPageSeeds(f)
	f.Fuzz(func(t *testing.T, src []byte) {
		p, errs := ParsePage("content/pl/x.md", "pl", "x.md", src)
		for _, d := range errs {
			if d.Pos.File != "content/pl/x.md" || d.Pos.Line < 1 {
				t.Fatalf("diagnostic without a position: %#v", d)
			}
		}
		if len(errs) > 0 || p == nil {
			return
		}
		if s := p.Path(); s != "" {
			if err := sitepath.Check("/" + s); err != nil {
				t.Fatalf("accepted slug %q: %v", s, err)
			}
		}
		for _, a := range p.Aliases {
			if err := sitepath.Check(a.Path); err != nil {
				t.Fatalf("accepted alias %q: %v", a.Path, err)
			}
		}
		norm := strings.ReplaceAll(string(src), "\r\n", "\n")
		if !strings.HasSuffix(norm, string(p.Body)) {
			t.Fatalf("body %q is not the end of the file", p.Body)
		}
		if p.BodyLine < 2 {
			t.Fatalf("body line %d", p.BodyLine)
		}
	})
}

// FuzzParseData: data files never panic the decoder; diagnostics have
// positions.
func FuzzParseData(f *testing.F) {
	filepath.WalkDir("../../testdata", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".yaml") && strings.Contains(p, "/data/") {
			if b, err := os.ReadFile(p); err == nil {
				f.Add(b)
			}
		}
		return nil
	})
	sb, err := os.ReadFile("../../testdata/sites/basic/schema.yaml")
	if err != nil {
		f.Fatal(err)
	}
	sch, err := schema.Parse("schema.yaml", sb)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		_, errs := ParseData(sch, "content/pl/data/x.yaml", "x", src)
		for _, d := range errs {
			if d.Pos.File != "content/pl/data/x.yaml" {
				t.Fatalf("diagnostic without the file: %#v", d)
			}
		}
	})
}
