package scaffold

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"

	"sitegen/pkg/config"
	"sitegen/pkg/content"
	"sitegen/pkg/schema"
)

// TestNewPageOnEverySite writes a page on the website (the repository root)
// and on every fixture site, each with its schema.yaml and data sets: the
// page is written in every locale and the site, read again as a build reads
// it, has the new page.
func TestNewPageOnEverySite(t *testing.T) {
	sites := map[string]string{"website": filepath.Join("..", "..")}
	fixtures, _ := filepath.Glob(filepath.Join("..", "..", "testdata", "sites", "*"))
	if len(fixtures) == 0 {
		t.Fatal("no fixture sites")
	}
	for _, f := range fixtures {
		sites[filepath.Base(f)] = f
	}
	for name, root := range sites {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			for _, p := range []string{config.FileName, schema.FileName} {
				b, err := os.ReadFile(filepath.Join(root, p))
				if p == schema.FileName && errors.Is(err, fs.ErrNotExist) {
					continue // a site without a schema (the minimal one)
				}
				if err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(dir, p), b, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			for _, p := range []string{content.Dir, "templates"} {
				if err := os.CopyFS(filepath.Join(dir, p), os.DirFS(filepath.Join(root, p))); err != nil {
					t.Fatal(err)
				}
			}
			cfg, err := config.Load(os.DirFS(dir))
			if err != nil {
				t.Fatal(err)
			}
			slugs := map[string]string{}
			var langs []string
			for _, l := range cfg.Locales {
				slugs[l.Code] = "newcomer-" + l.Code
				langs = append(langs, l.Code)
			}
			files, err := NewPage(context.Background(), PageOptions{Source: dir, ID: "newcomer", Layout: "page", Slugs: slugs})
			if err != nil {
				t.Fatalf("new page: %v", err)
			}
			if len(files) != len(langs) {
				t.Fatalf("wrote %v, want one page per locale %v", files, langs)
			}
			for _, lang := range langs {
				want := path.Join(content.Dir, lang, "newcomer-"+lang+".md")
				if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(want))); err != nil {
					t.Errorf("%s not written: %v", want, err)
				}
			}
			sch, err := schema.Load(os.DirFS(dir))
			if err != nil {
				t.Fatal(err)
			}
			src, err := content.Load(context.Background(), os.DirFS(dir), content.Options{Langs: langs, Drafts: true, Schema: sch})
			if err != nil {
				t.Fatalf("the site with the new page does not read: %v", err)
			}
			for _, lang := range langs {
				found := false
				for _, p := range src.Locales[lang].Pages {
					if p.ID == "newcomer" && p.Draft && p.Path() == "newcomer-"+lang {
						found = true
					}
				}
				if !found {
					t.Errorf("%s: no draft page newcomer at newcomer-%s", lang, lang)
				}
			}
			// Again: the id is now taken, and nothing more is written.
			if _, err := NewPage(context.Background(), PageOptions{Source: dir, ID: "newcomer", Layout: "page", Slugs: slugs}); err == nil {
				t.Error("a second page with the same id was written")
			}
		})
	}
}

// TestNewPageConflicts: a new page's URL is the one route.Build gives it
// with the site's pages: a path another page has, an alias or a generated
// file is refused at the place that holds it, and nothing is written; a
// conflict the site already had is not the new page's.
func TestNewPageConflicts(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) {
		p := filepath.Join(dir, filepath.FromSlash(name))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("site.yaml", "baseURL: https://example.test\ntitle: T\nlocales:\n  - {code: de, name: D, prefix: /de, default: true}\n  - {code: fr, name: F, prefix: /fr}\n")
	write("templates/base.html", `{{ block "main" . }}{{ end }}`)
	write("templates/layouts/page.html", `{{ define "main" }}{{ .Page.Content }}{{ end }}`)
	write("content/de/start.md", "---\nid: start\nslug: \"\"\ntitle: a\ndescription: b\n---\n")
	write("content/de/kontakt.md", "---\nid: kontakt\nslug: ueber/kontakt\ntitle: a\ndescription: b\naliases: [/de/alt]\n---\n")
	for _, c := range []struct{ id, de, fr, want string }{
		{"a", "ueber/kontakt", "a", `content/de/ueber/kontakt.md:2:5: page "a" and page "kontakt" are both at /de/ueber/kontakt/`},
		{"b", "alt", "b", `content/de/kontakt.md:6:11: alias /de/alt is the path of page "b"`},
		{"c", "c", "c", ""},
		{"d", "d", "ueber/kontakt", ""}, // fr has no kontakt of its own: its fallback gives way
	} {
		slugs := map[string]string{"de": c.de, "fr": c.fr}
		files, err := NewPage(context.Background(), PageOptions{Source: dir, ID: c.id, Layout: "page", Slugs: slugs})
		if c.want == "" {
			if err != nil {
				t.Errorf("%v: %v", slugs, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), c.want) || len(files) != 0 {
			t.Errorf("%v: wrote %v, error %v; want %q", slugs, files, err, c.want)
		}
		if _, err := os.Stat(filepath.Join(dir, "content", "de", filepath.FromSlash(c.de)+".md")); err == nil && c.de != "ueber/kontakt" {
			t.Errorf("%v: written despite the conflict", slugs)
		}
	}
}
