package build

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"sitegen/pkg/internal/tmpldoc"
)

// TestTemplateDocExamples renders every example of docs/templates.md through
// the real pipeline: the examples become the layout of the page "about" of
// testdata/sites/templates-doc, built with the date 2026-01-15 and without
// minifying, and each one's output must equal the html block under it.
func TestTemplateDocExamples(t *testing.T) {
	md, err := os.ReadFile("../../docs/templates.md")
	if err != nil {
		t.Fatal(err)
	}
	funcs, err := tmpldoc.Parse(md)
	if err != nil {
		t.Fatalf("docs/templates.md: %v", err)
	}
	type run struct {
		name string
		ex   tmpldoc.Example
	}
	var runs []run
	var layout strings.Builder
	layout.WriteString(`{{ define "main" }}`)
	for _, f := range funcs {
		for _, ex := range f.Examples {
			fmt.Fprintf(&layout, "<doc-example-%d>%s</doc-example-%d>\n", len(runs), strings.TrimSuffix(ex.Input, "\n"), len(runs))
			runs = append(runs, run{f.Name, ex})
		}
	}
	layout.WriteString(`{{ end }}`)
	if len(runs) == 0 {
		t.Fatal("docs/templates.md has no examples")
	}

	site := fixtureSite(t, "templates-doc", t.TempDir())
	if err := os.WriteFile(filepath.Join(site, "templates/layouts/examples.html"), []byte(layout.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "out")
	if _, err := Run(context.Background(), Options{Source: site, Out: out, Date: "2026-01-15", ImageCache: t.TempDir()}); err != nil {
		t.Fatalf("building the examples: %v", err)
	}
	page, err := os.ReadFile(filepath.Join(out, "en/about/index.html"))
	if err != nil {
		t.Fatal(err)
	}
	updated, at := string(md), 0
	for i, r := range runs {
		m := regexp.MustCompile(fmt.Sprintf(`(?s)<doc-example-%d>(.*?)</doc-example-%d>`, i, i)).FindSubmatch(page)
		if m == nil {
			t.Errorf("docs/templates.md:%d (%s): no output found in the page", r.ex.Line, r.name)
			continue
		}
		got, want := strings.TrimSpace(string(m[1])), strings.TrimSpace(r.ex.Want)
		if *update {
			// -update writes what each example renders under it (an asset's
			// hash changes with esbuild or the loader): review the diff.
			old := "```go-html-template\n" + r.ex.Input + "```\n```html\n" + r.ex.Want + "```\n"
			j := strings.Index(updated[at:], old)
			if j < 0 {
				t.Fatalf("docs/templates.md:%d: cannot find the example to update", r.ex.Line)
			}
			repl := "```go-html-template\n" + r.ex.Input + "```\n```html\n" + got + "\n```\n"
			updated = updated[:at+j] + repl + updated[at+j+len(old):]
			at += j + len(repl)
			continue
		}
		if got != want {
			t.Errorf("docs/templates.md:%d (%s): the example renders\n%s\nthe doc says\n%s\n(go test ./pkg/build -run TestTemplateDocExamples -update writes the outputs into the doc)", r.ex.Line, r.name, got, want)
		}
	}
	if *update {
		if err := os.WriteFile("../../docs/templates.md", []byte(updated), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
