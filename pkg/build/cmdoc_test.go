package build

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
)

// TestContentModelExamples builds every example site of
// docs/content-model.md (a ```txtar example block: files laid over
// testdata/sites/minimal) and compares the <main> of each page an
// ```html PATH block under it names with the block. -update writes what
// the pages render into the doc: review the diff.
func TestContentModelExamples(t *testing.T) {
	const doc = "../../docs/content-model.md"
	md, err := os.ReadFile(doc)
	if err != nil {
		t.Fatal(err)
	}
	exampleRE := regexp.MustCompile("(?s)```txtar example\n(.*?)```\n((?:\\s*```html [^\n]+\n.*?```\n)+)")
	outRE := regexp.MustCompile("(?s)```html ([^\n]+)\n(.*?)```\n")
	mainRE := regexp.MustCompile(`(?s)<main>(.*?)</main>`)
	examples := exampleRE.FindAllSubmatchIndex(md, -1)
	if len(examples) < 2 {
		t.Fatalf("%s has %d example sites, want those of Pagination and Taxonomies", doc, len(examples))
	}
	updated := append([]byte(nil), md...)
	for i := len(examples) - 1; i >= 0; i-- { // from the end: updates keep earlier offsets
		m := examples[i]
		line := bytes.Count(md[:m[0]], []byte("\n")) + 1
		site := t.TempDir()
		if err := os.CopyFS(site, os.DirFS("../../testdata/sites/minimal")); err != nil {
			t.Fatal(err)
		}
		for _, f := range txtar.Parse(md[m[2]:m[3]]).Files {
			p := filepath.Join(site, filepath.FromSlash(f.Name))
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, f.Data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		out := filepath.Join(t.TempDir(), "public")
		if _, err := Run(context.Background(), Options{Source: site, Out: out, Date: "2026-03-01", ImageCache: t.TempDir()}); err != nil {
			t.Errorf("%s:%d: the example does not build: %v", doc, line, err)
			continue
		}
		block := md[m[4]:m[5]]
		outs := outRE.FindAllSubmatchIndex(block, -1)
		for j := len(outs) - 1; j >= 0; j-- {
			o := outs[j]
			page := string(block[o[2]:o[3]])
			html, err := os.ReadFile(filepath.Join(out, filepath.FromSlash(page)))
			var got string
			if err == nil {
				if mm := mainRE.FindSubmatch(html); mm != nil {
					got = strings.TrimSpace(string(mm[1])) + "\n"
				}
			}
			if *update {
				at := m[4] + o[4]
				updated = append(updated[:at:at], append([]byte(got), updated[m[4]+o[5]:]...)...)
				continue
			}
			if err != nil {
				t.Errorf("%s:%d: the example writes no %s: %v", doc, line, page, err)
			} else if want := string(block[o[4]:o[5]]); got != want {
				t.Errorf("%s:%d: %s's <main> is\n%s\nthe doc says\n%s\n(-update writes it in)", doc, line, page, got, want)
			}
		}
	}
	if *update && !bytes.Equal(updated, md) {
		if err := os.WriteFile(doc, updated, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
