package check

import (
	"bytes"
	"context"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"

	"sitegen/pkg/build"
)

var update = flag.Bool("update", false, "rewrite the want sections of testdata/check")

const fixtures = "../../testdata/check"

// site writes the base site with the fixture's files over it and returns
// its folder and the fixture's archive.
func site(t *testing.T, name string, subst ...string) (string, *txtar.Archive) {
	t.Helper()
	dir := t.TempDir()
	base, err := txtar.ParseFile(filepath.Join(fixtures, "base.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	ar, err := txtar.ParseFile(filepath.Join(fixtures, name))
	if err != nil {
		t.Fatal(err)
	}
	r := strings.NewReplacer(append([]string{"\x00", "\x00"}, subst...)...)
	for _, a := range []*txtar.Archive{base, ar} {
		for _, f := range a.Files {
			if f.Name == "want" {
				continue
			}
			if f.Name == "remove" { // base files the fixture does without
				for _, name := range strings.Fields(string(f.Data)) {
					if err := os.Remove(filepath.Join(dir, filepath.FromSlash(name))); err != nil {
						t.Fatal(err)
					}
				}
				continue
			}
			p := filepath.Join(dir, filepath.FromSlash(f.Name))
			os.MkdirAll(filepath.Dir(p), 0o755)
			if err := os.WriteFile(p, []byte(r.Replace(string(f.Data))), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	return dir, ar
}

func diagsText(rep *Report) string {
	var b strings.Builder
	for _, f := range rep.Diagnostics {
		b.WriteString(textLine(f) + "\n")
	}
	return b.String()
}

func run(t *testing.T, dir string, ext *External) *Report {
	t.Helper()
	rep, err := Run(context.Background(), Options{Build: build.Options{Source: dir, Date: "2026-01-01", Minify: true}, External: ext})
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

func TestBaseIsClean(t *testing.T) {
	dir := t.TempDir()
	base, _ := txtar.ParseFile(filepath.Join(fixtures, "base.txtar"))
	for _, f := range base.Files {
		p := filepath.Join(dir, filepath.FromSlash(f.Name))
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, f.Data, 0o644)
	}
	if rep := run(t, dir, nil); len(rep.Diagnostics) != 0 || rep.Failed(true) {
		t.Fatalf("the base site has findings:\n%s", diagsText(rep))
	}
}

// TestFixtures: each fixture under testdata/check has one kind of finding;
// the check reports exactly its want section (-update rewrites them).
func TestFixtures(t *testing.T) {
	names, _ := filepath.Glob(filepath.Join(fixtures, "*.txtar"))
	for _, p := range names {
		name := filepath.Base(p)
		if name == "base.txtar" || name == "external.txtar" {
			continue
		}
		t.Run(strings.TrimSuffix(name, ".txtar"), func(t *testing.T) {
			dir, ar := site(t, name)
			rep := run(t, dir, nil)
			got := diagsText(rep)
			var want []byte
			for i, f := range ar.Files {
				if f.Name == "want" {
					want = f.Data
					if *update {
						ar.Files[i].Data = []byte(got)
						os.WriteFile(p, txtar.Format(ar), 0o644)
					}
				}
			}
			if got != string(want) {
				t.Errorf("findings:\n%s\nwant:\n%s", got, want)
			}
			if len(rep.Diagnostics) == 0 {
				t.Errorf("the fixture has no finding")
			}
			kinds := map[string]bool{}
			for _, f := range rep.Diagnostics {
				kinds[f.Kind] = true
			}
			if len(kinds) != 1 {
				t.Errorf("findings of %d kinds, want one kind per fixture", len(kinds))
			}
			var js bytes.Buffer
			if err := rep.WriteJSON(&js); err != nil || !strings.Contains(js.String(), `"kind"`) {
				t.Errorf("JSON report: %v\n%s", err, js.String())
			}
		})
	}
}

// TestAnotherSiteIsClean: testdata/sites/atelier names nothing the way
// this repository's website does (home page "start", no offline page, no
// body section type, a counter script for analytics, the engine's form
// texts and trap input) and checks clean.
func TestAnotherSiteIsClean(t *testing.T) {
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS("../../testdata/sites/atelier")); err != nil {
		t.Fatal(err)
	}
	rep := run(t, dir, nil)
	if len(rep.Diagnostics) != 0 || rep.Failed(true) || rep.Pages != 8 {
		t.Fatalf("atelier: %d page(s), findings:\n%s", rep.Pages, diagsText(rep))
	}
}
