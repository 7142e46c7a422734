package devserver

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"

	"sitegen/pkg/build"
	"sitegen/pkg/check"
	"sitegen/pkg/diag"
)

// TestEveryErrorEverywhere: each site of testdata/invalid (its files laid
// over testdata/sites/basic) gives the same diagnostics (file, line,
// column, message and hint), all of them, from sitegen build, from sitegen
// check, and from the dev server's overlay once every page has rendered,
// whether the server started on those files or was updated to them from
// the good site. every-path.txtar has a template error found while
// rendering, a broken link, a data file failing its schema and two pages
// on one path, all at once.
func TestEveryErrorEverywhere(t *testing.T) {
	cases, _ := filepath.Glob("../../testdata/invalid/*.txtar")
	if len(cases) == 0 {
		t.Fatal("no invalid fixtures")
	}
	ctx := context.Background()
	for _, c := range cases {
		t.Run(strings.TrimSuffix(filepath.Base(c), ".txtar"), func(t *testing.T) {
			ar, err := txtar.ParseFile(c)
			if err != nil {
				t.Fatal(err)
			}
			broken := t.TempDir()
			copyTree(t, fixture, broken)
			layOver(t, ar, broken)
			opts := build.Options{Source: broken, Date: "2026-01-01", ImageCache: t.TempDir()}
			bo := opts
			bo.Out = filepath.Join(t.TempDir(), "public")
			_, err = build.Run(ctx, bo)
			want := diagKeys(t, err)
			if len(want) == 0 {
				t.Fatal("the build passed")
			}
			rep, err := check.Run(ctx, check.Options{Build: opts})
			if err != nil {
				t.Fatal(err)
			}
			sameKeys(t, "check", checkKeys(rep), want)

			started, err := New(ctx, Options{Build: opts})
			if err != nil {
				t.Fatal(err)
			}
			defer started.Close()
			sameKeys(t, "serve started on the files", overlayKeys(ctx, started), want)

			good := t.TempDir()
			copyTree(t, fixture, good)
			updated, err := New(ctx, Options{Build: build.Options{Source: good, Date: "2026-01-01", ImageCache: opts.ImageCache}})
			if err != nil || updated.failing.Load() {
				t.Fatalf("the good site: %v (failing %v)", err, updated.failing.Load())
			}
			defer updated.Close()
			updated.Update(ctx, layOver(t, ar, good)) // its error, if any, shows over the pages
			sameKeys(t, "serve updated to the files", overlayKeys(ctx, updated), want)
		})
	}
}

// layOver writes the files of ar but its want into the site at dir (a file
// "(delete)" removes it) and returns their site paths.
func layOver(t *testing.T, ar *txtar.Archive, dir string) []string {
	t.Helper()
	var paths []string
	for _, f := range ar.Files {
		if f.Name == "want" {
			continue
		}
		paths = append(paths, f.Name)
		p := filepath.Join(dir, filepath.FromSlash(f.Name))
		if strings.TrimSpace(string(f.Data)) == "(delete)" {
			os.Remove(p)
			continue
		}
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, f.Data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return paths
}

// key is how the three report a diagnostic: check writes the hint into
// the message.
func key(file string, line, col int, message, hint string) string {
	if hint != "" {
		message += " (hint: " + hint + ")"
	}
	return fmt.Sprintf("%s:%d:%d: %s", file, line, col, message)
}

// diagKeys are the diagnostics of a build's error, sorted.
func diagKeys(t *testing.T, err error) []string {
	t.Helper()
	var list diag.List
	if err != nil && !errors.As(err, &list) {
		t.Fatalf("not a list of diagnostics: %v", err)
	}
	var out []string
	for _, d := range list {
		out = append(out, key(d.Pos.File, d.Pos.Line, d.Pos.Col, d.Message, d.Hint))
	}
	slices.Sort(out)
	return slices.Compact(out)
}

func checkKeys(rep *check.Report) []string {
	var out []string
	for _, d := range rep.Diagnostics {
		out = append(out, key(d.Pos.File, d.Pos.Line, d.Pos.Col, d.Message, d.Hint))
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// overlayKeys are the errors the dev server's overlay shows once the
// background check (checkAll) has rendered every page, sorted.
func overlayKeys(ctx context.Context, s *Server) []string {
	for {
		rendered, changed := s.dev.CheckNext(ctx)
		if changed {
			s.showProblems()
		}
		if !rendered {
			break
		}
	}
	s.events.mu.Lock()
	cur := s.events.current
	s.events.mu.Unlock()
	if cur == nil {
		return nil
	}
	var out []string
	for _, it := range cur.data.(problem).Errors {
		out = append(out, key(it.File, it.Line, it.Col, it.Message, it.Hint))
	}
	slices.Sort(out)
	return slices.Compact(out)
}

func sameKeys(t *testing.T, what string, got, want []string) {
	t.Helper()
	if !slices.Equal(got, want) {
		t.Errorf("%s reports\n\t%s\nthe build\n\t%s", what, strings.Join(got, "\n\t"), strings.Join(want, "\n\t"))
	}
}
