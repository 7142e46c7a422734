package build

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// warmOpts builds src into out with a cache folder: the previous output is
// reused (output.BeginOptions.Reuse).
func warmOpts(src, out, cache string) Options {
	return Options{Source: src, Out: out, Date: "2026-01-01", Minify: true, CacheDir: cache}
}

// coldTree builds src into a fresh folder without a cache and returns it.
func coldTree(t *testing.T, src string) map[string][]byte {
	t.Helper()
	out := filepath.Join(t.TempDir(), "cold")
	if _, err := Run(context.Background(), Options{Source: src, Out: out, Date: "2026-01-01", Minify: true}); err != nil {
		t.Fatalf("cold build: %v", err)
	}
	return readTree(t, out)
}

func writeFile(t *testing.T, p, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func replaceIn(t *testing.T, p, old, new string) {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), old) {
		t.Fatalf("%s does not hold %q", p, old)
	}
	writeFile(t, p, strings.Replace(string(b), old, new, 1))
}

const secondPost = `---
id: post-second
title: Drugi wpis
description: Drugi wpis na blogu.
layout: page
---
Treść drugiego wpisu.
`

// TestWarmEqualsCold builds a site again and again into one output folder
// with a cache, changing its sources between builds, and checks after each
// build that the output is byte for byte what a cold build of the same
// sources writes (no file more, none less), and that the warm build wrote
// only part of it. The steps run in order: each warm build stages its tree
// in the tree two builds old (the spare), so changes pile up in it.
//
// It runs twice: as a build sees files just written (every page file is
// read), and with a clock an hour ahead, as a build sees files written
// long before it (a page file whose lstat is unchanged is not read again:
// knownPages).
func TestWarmEqualsCold(t *testing.T) {
	t.Run("files read", func(t *testing.T) { warmEqualsCold(t, nil) })
	t.Run("files known", func(t *testing.T) {
		warmEqualsCold(t, func() time.Time { return time.Now().Add(time.Hour) })
	})
}

func warmEqualsCold(t *testing.T, now func() time.Time) {
	src := fixtureCopy(t)
	dir := t.TempDir()
	out, cache := filepath.Join(dir, "public"), filepath.Join(dir, "cache")
	steps := []struct {
		name   string
		change func(t *testing.T)
		// unchanged: nothing to do (no file written); else the build
		// writes some files and keeps others.
		unchanged bool
	}{
		{"first build", func(*testing.T) {}, false},
		{"nothing changed", func(*testing.T) {}, true},
		{"page edited", func(t *testing.T) {
			replaceIn(t, filepath.Join(src, "content/pl/kontakt.md"), "Pisz na", "Napisz na")
		}, false},
		{"nothing changed after an edit", func(*testing.T) {}, true},
		{"front matter edited", func(t *testing.T) {
			replaceIn(t, filepath.Join(src, "content/pl/kontakt.md"), "title: Kontakt", "title: Kontakt z nami")
		}, false},
		{"page added", func(t *testing.T) {
			writeFile(t, filepath.Join(src, "content/pl/blog/drugi.md"), secondPost)
		}, false},
		{"page renamed", func(t *testing.T) {
			if err := os.Rename(filepath.Join(src, "content/pl/blog/drugi.md"), filepath.Join(src, "content/pl/blog/drugi-wpis.md")); err != nil {
				t.Fatal(err)
			}
		}, false},
		{"page deleted", func(t *testing.T) {
			if err := os.Remove(filepath.Join(src, "content/pl/blog/drugi-wpis.md")); err != nil {
				t.Fatal(err)
			}
		}, false},
		{"data changed", func(t *testing.T) {
			replaceIn(t, filepath.Join(src, "content/pl/data/home.yaml"), `"82%"`, `"83%"`)
		}, false},
		{"template changed", func(t *testing.T) {
			replaceIn(t, filepath.Join(src, "templates/base.html"), `<main id="main">`, `<main id="main" class="m">`)
		}, false},
		{"page edited back", func(t *testing.T) {
			replaceIn(t, filepath.Join(src, "content/pl/kontakt.md"), "Napisz na", "Pisz na")
		}, false},
		{"nothing changed at the end", func(*testing.T) {}, true},
	}
	swaps := 0 // trees put in place so far: from the second on, a spare is kept
	for _, st := range steps {
		st.change(t)
		opts := warmOpts(src, out, cache)
		opts.now = now
		rep, err := Run(context.Background(), opts)
		if err != nil {
			t.Fatalf("%s: warm build: %v", st.name, err)
		}
		sameTree(t, st.name, readTree(t, out), coldTree(t, src))
		switch {
		case st.unchanged && (!rep.Unchanged || rep.FilesWritten != 0):
			t.Errorf("%s: nothing changed, yet the build wrote %d files (unchanged %t)", st.name, rep.FilesWritten, rep.Unchanged)
		case !st.unchanged && rep.Unchanged:
			t.Errorf("%s: the sources changed, yet the build did nothing", st.name)
		case !st.unchanged && swaps >= 2 && rep.FilesWritten >= rep.Files:
			t.Errorf("%s: the build wrote all %d files; it should reuse the unchanged ones", st.name, rep.Files)
		}
		if !rep.Unchanged {
			swaps++
		}
		if left := leftovers(t, dir); len(left) > 0 {
			t.Errorf("%s: left beside the output: %v", st.name, left)
		}
	}
}

// leftovers lists what a build left beside its output other than the
// output, the cache and the keep folder.
func leftovers(t *testing.T, dir string) []string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range ents {
		if n := e.Name(); n != "public" && n != "cache" && n != ".sitegen-keep-public" && n != ".sitegen-lock-public" {
			out = append(out, n)
		}
	}
	return out
}

// TestWarmDistrustsEditedOutput edits files of the output in place between
// builds, where a user or a tool might: in the tree at --out, which the
// next build takes out of place and keeps as the tree it stages the one
// after in, and in that kept tree itself. No build may take the edited
// bytes for its own: every output stays equal to a cold build's.
func TestWarmDistrustsEditedOutput(t *testing.T) {
	src := fixtureCopy(t)
	dir := t.TempDir()
	out, cache := filepath.Join(dir, "public"), filepath.Join(dir, "cache")
	build := func(step string) *Report {
		t.Helper()
		rep, err := Run(context.Background(), warmOpts(src, out, cache))
		if err != nil {
			t.Fatalf("%s: %v", step, err)
		}
		sameTree(t, step, readTree(t, out), coldTree(t, src))
		return rep
	}
	appendTo := func(p string) {
		t.Helper()
		f, err := os.OpenFile(p, os.O_WRONLY|os.O_APPEND, 0)
		if err != nil {
			t.Fatal(err)
		}
		f.WriteString("<!-- edited -->")
		f.Close()
	}
	page := "pl/index.html"
	build("first")
	replaceIn(t, filepath.Join(src, "content/pl/kontakt.md"), "Pisz na", "Napisz na")
	build("second") // the first tree is kept as the spare
	// In place, in the live tree: the next build must not call it current,
	// and the build after (staged in this tree) must not keep the edit.
	appendTo(filepath.Join(out, page))
	if rep := build("live file edited, sources unchanged"); rep.Unchanged {
		t.Error("a build called an output whose file was edited up to date")
	}
	replaceIn(t, filepath.Join(src, "content/pl/kontakt.md"), "Napisz na", "Pisz do nas na")
	build("staged in the tree with the edited file")
	// In the kept tree itself.
	appendTo(filepath.Join(dir, ".sitegen-keep-public", "spare", page))
	replaceIn(t, filepath.Join(src, "content/pl/kontakt.md"), "Pisz do nas na", "Pisz na")
	build("staged in the kept tree after its file was edited")
	// A file added to the kept tree is never published.
	writeFile(t, filepath.Join(dir, ".sitegen-keep-public", "spare", "pl", "extra.html"), "not sitegen's")
	replaceIn(t, filepath.Join(src, "content/pl/kontakt.md"), "Pisz na", "Napisz na")
	build("staged in the kept tree after a file was added to it")
}

// TestWarmNeverWritesInPlace holds a page of the output open, as a server
// sending it would, while two builds change that page: the second stages
// its tree in the tree the open file belongs to. The open file still reads
// its old bytes whole: a reused tree's files are replaced (unlinked and
// written new), never written over.
func TestWarmNeverWritesInPlace(t *testing.T) {
	src := fixtureCopy(t)
	dir := t.TempDir()
	out, cache := filepath.Join(dir, "public"), filepath.Join(dir, "cache")
	run := func() {
		t.Helper()
		if _, err := Run(context.Background(), warmOpts(src, out, cache)); err != nil {
			t.Fatal(err)
		}
	}
	run()
	f, err := os.Open(filepath.Join(out, "pl/o-nas/kontakt/index.html"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	before, err := io.ReadAll(f)
	if err != nil {
		t.Fatal(err)
	}
	for _, text := range []string{"Napisz na", "Pisz do nas na"} {
		b, _ := os.ReadFile(filepath.Join(src, "content/pl/kontakt.md"))
		old := "Pisz na"
		if !bytes.Contains(b, []byte(old)) {
			old = "Napisz na"
		}
		replaceIn(t, filepath.Join(src, "content/pl/kontakt.md"), old, text)
		run()
	}
	now, err := io.ReadAll(io.NewSectionReader(f, 0, 1<<20))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(now, before) {
		t.Errorf("a page held open changed under its reader:\nbefore %q\nnow    %q", before, now)
	}
	if !bytes.Contains(readTree(t, out)["pl/o-nas/kontakt/index.html"], []byte("Pisz do nas na")) {
		t.Error("the output does not hold the last edit")
	}
}

// TestWarmAfterFailedBuild: a build that stops at an error in the site
// leaves the previous output and the kept tree as they were, so the build
// after the fix still writes only what changed.
func TestWarmAfterFailedBuild(t *testing.T) {
	src := fixtureCopy(t)
	dir := t.TempDir()
	out, cache := filepath.Join(dir, "public"), filepath.Join(dir, "cache")
	page := filepath.Join(src, "content/pl/kontakt.md")
	for _, text := range []string{"Napisz na", "Pisz do nas na"} { // a cold build, then one with a spare kept
		b, _ := os.ReadFile(page)
		old := "Pisz na"
		if !bytes.Contains(b, []byte(old)) {
			old = "Napisz na"
		}
		replaceIn(t, page, old, text)
		if _, err := Run(context.Background(), warmOpts(src, out, cache)); err != nil {
			t.Fatal(err)
		}
	}
	before := readTree(t, out)
	good, _ := os.ReadFile(page)
	writeFile(t, page, strings.Replace(string(good), "id:", "id: [", 1))
	if _, err := Run(context.Background(), warmOpts(src, out, cache)); err == nil {
		t.Fatal("a page with broken front matter built")
	}
	sameTree(t, "after the failed build", readTree(t, out), before)
	replaceIn(t, page, "id: [", "id:")
	replaceIn(t, page, "Pisz do nas na", "Napisz do nas na")
	rep, err := Run(context.Background(), warmOpts(src, out, cache))
	if err != nil {
		t.Fatal(err)
	}
	sameTree(t, "after the fix", readTree(t, out), coldTree(t, src))
	if rep.FilesWritten*4 > rep.Files {
		t.Errorf("the build after a failed one wrote %d of %d files: the kept tree was not reused", rep.FilesWritten, rep.Files)
	}
}
