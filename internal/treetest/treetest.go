// Package treetest reads, copies and writes the trees of tests: the output
// trees of tests that compare builds, and the fixture sites they change.
package treetest

import (
	"bytes"
	"image"
	"image/color"
	"image/jpeg"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

// Read returns every file below dir by slash path.
func Read(t testing.TB, dir string) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		rel, _ := filepath.Rel(dir, p)
		out[filepath.ToSlash(rel)] = b
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// Copy copies the tree at src to dst (a fixture site a test may change).
func Copy(t testing.TB, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// Append appends text to the file.
func Append(t testing.TB, file, text string) {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, append(b, text...), 0o644); err != nil {
		t.Fatal(err)
	}
}

// JPEG is a w×h JPEG of a gradient.
func JPEG(t testing.TB, w, h int) []byte {
	t.Helper()
	m := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			m.Set(x, y, color.RGBA{uint8(x), uint8(y), 120, 255})
		}
	}
	var b bytes.Buffer
	if err := jpeg.Encode(&b, m, nil); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// Photo writes a w×h JPEG (JPEG) at file, making its folder.
func Photo(t testing.TB, file string, w, h int) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, JPEG(t, w, h), 0o644); err != nil {
		t.Fatal(err)
	}
}

// Root is the repository's root folder: the nearest folder above the
// test's own that holds go.mod.
func Root(t testing.TB) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		up := filepath.Dir(dir)
		if up == dir {
			t.Fatal("no go.mod above the test's folder")
		}
		dir = up
	}
}

// Fixture copies the fixture site testdata/sites/<name> below dir and
// returns the copy's folder (tests build a copy, never the checked-in
// tree); a site with islands gets the repository's node_modules linked in
// (the test is skipped when they are not installed).
func Fixture(t testing.TB, name, dir string) string {
	t.Helper()
	root := Root(t)
	src := filepath.Join(root, "testdata", "sites", name)
	site := filepath.Join(dir, name)
	Copy(t, src, site)
	if _, err := os.Stat(filepath.Join(src, "assets/islands")); err != nil {
		return site
	}
	nm := filepath.Join(root, "node_modules")
	if _, err := os.Stat(filepath.Join(nm, "preact")); err != nil {
		t.Skip("node_modules not installed (run make setup)")
	}
	if err := os.Symlink(nm, filepath.Join(site, "node_modules")); err != nil {
		t.Fatal(err)
	}
	return site
}
