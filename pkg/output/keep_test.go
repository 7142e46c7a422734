package output

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// reuseBuild writes files into dir as a build with the cache does, after
// keep has chosen what to keep; it returns what keep kept.
func reuseBuild(t *testing.T, dir string, files map[string]string, keep func(*Tree) []string) []string {
	t.Helper()
	tree, err := BeginWith(dir, "test", BeginOptions{Reuse: true})
	if err != nil {
		t.Fatal(err)
	}
	var kept []string
	if keep != nil {
		kept = keep(tree)
	}
	for rel, body := range files {
		if slices.Contains(kept, rel) {
			continue
		}
		if err := tree.WriteFile(rel, []byte(body)); err != nil {
			t.Fatal(err)
		}
	}
	if err := tree.Commit(); err != nil {
		t.Fatal(err)
	}
	return kept
}

// TestKeep: a file is kept without its bytes only when the spare the tree
// is staged in holds a file of that size and digest at that path; the
// output then equals a tree written whole, and its index knows the file.
func TestKeep(t *testing.T) {
	old := map[string]string{"a/index.html": "page a", "b/index.html": "page b", "c.json": "{}"}
	cases := []struct {
		name string
		rel  string
		body string // what the caller says the file holds
		size int    // -1: len(body)
		want bool
	}{
		{"same bytes", "a/index.html", "page a", -1, true},
		{"other bytes, same size", "b/index.html", "page B", -1, false},
		{"same digest, other size", "a/index.html", "page a", 7, false},
		{"not in the spare", "d/index.html", "page d", -1, false},
		{"a folder of the spare", "a", "page a", -1, false},
		{"the manifest", ManifestName, "", -1, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "public")
			reuseBuild(t, dir, old, nil)
			reuseBuild(t, dir, old, nil) // the first tree is now the spare
			size := c.size
			if size < 0 {
				size = len(c.body)
			}
			want := map[string]string{"a/index.html": "page a", "b/index.html": "page b", "c.json": "{}"}
			if c.rel == "b/index.html" || c.rel == "d/index.html" {
				want[c.rel] = c.body
			}
			kept := reuseBuild(t, dir, want, func(tree *Tree) []string {
				if got := tree.Keep(c.rel, size, Sum([]byte(c.body))); got != c.want {
					t.Errorf("Keep(%s) = %t, want %t", c.rel, got, c.want)
				} else if got {
					return []string{c.rel}
				}
				return nil
			})
			for rel, body := range want {
				b, err := os.ReadFile(filepath.Join(dir, rel))
				if err != nil || string(b) != body {
					t.Errorf("%s = %q (%v), want %q", rel, b, err, body)
				}
			}
			m, err := ReadManifest(dir)
			if err != nil {
				t.Fatal(err)
			}
			if len(m.Files) != len(want) {
				t.Errorf("manifest lists %v, want the %d files", m.Files, len(want))
			}
			last := ReadLast(dir)
			for _, rel := range kept {
				if r := last.x.recs[rel]; r.sum != Sum([]byte(want[rel])) || r.size != int64(len(want[rel])) {
					t.Errorf("the index of the new tree has %s as %+v", rel, r)
				}
			}
			if ch := last.x.verify(dir); len(ch) > 0 {
				t.Errorf("the new tree is not as its index says: %v", ch)
			}
		})
	}
}

// TestAbortKeepsUntouchedSpare: a build that stops before it writes (errors
// in the site) leaves the spare and its index for the next build; one that
// wrote into the spare removes it.
func TestAbortKeepsUntouchedSpare(t *testing.T) {
	files := map[string]string{"a/index.html": "page a", "b/index.html": "page b"}
	for _, write := range []bool{false, true} {
		dir := filepath.Join(t.TempDir(), "public")
		reuseBuild(t, dir, files, nil)
		reuseBuild(t, dir, files, nil)
		tree, err := BeginWith(dir, "test", BeginOptions{Reuse: true})
		if err != nil {
			t.Fatal(err)
		}
		if tree.reuse == nil {
			t.Fatal("the tree is not staged in the spare")
		}
		if write {
			if err := tree.WriteFile("c/index.html", []byte("page c")); err != nil {
				t.Fatal(err)
			}
		}
		tree.Abort()
		keep := keepDir(dir)
		_, spareErr := os.Lstat(filepath.Join(keep, spareName))
		x := readIndex(filepath.Join(keep, spareIndex))
		if write {
			if spareErr == nil || x != nil {
				t.Errorf("after a write: the spare (%v) or its index (%t) is left", spareErr, x != nil)
			}
			continue
		}
		if spareErr != nil || x == nil {
			t.Fatalf("untouched: spare %v, index %t; want both kept", spareErr, x != nil)
		}
		kept := reuseBuild(t, dir, files, func(tree *Tree) []string {
			if !tree.Keep("a/index.html", len("page a"), Sum([]byte("page a"))) {
				t.Error("the next build does not reuse the spare")
			}
			return []string{"a/index.html"}
		})
		if b, err := os.ReadFile(filepath.Join(dir, kept[0])); err != nil || string(b) != "page a" {
			t.Errorf("kept file = %q, %v", b, err)
		}
	}
}

// TestLiveIndexOfLast: the index ReadLast read is taken again only while
// the index file is the one it read; once another build replaced the tree,
// the new index is read.
func TestLiveIndexOfLast(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "public")
	build := func(input string) {
		t.Helper()
		tree, err := BeginWith(dir, "test", BeginOptions{Reuse: true})
		if err != nil {
			t.Fatal(err)
		}
		if err := tree.WriteFile("index.html", []byte(input)); err != nil {
			t.Fatal(err)
		}
		tree.Record(input, nil, nil)
		if err := tree.Commit(); err != nil {
			t.Fatal(err)
		}
	}
	build("one")
	last := ReadLast(dir)
	if got := liveIndexOf(dir, last); got == nil || got.input != "one" || got == last.x {
		t.Fatalf("unchanged: got %+v, want a copy of the index last read", got)
	}
	build("two")
	if got := liveIndexOf(dir, last); got == nil || got.input != "two" {
		t.Fatalf("after another build: got input %q, want the new index", got.input)
	}
}

// TestIndexMatchesTree builds into one folder again and again, keeping
// what it can, with files edited, removed, added in new folders, and
// folders turned into files and back; after each build the index of the
// tree at the folder must say exactly what a walk of the tree finds: the
// same entries, each with its lstat and its bytes' digest. (A warm build
// changes the spare's index in place: an entry it forgot to state again
// would make the next build distrust or, worse, trust a changed file.)
func TestIndexMatchesTree(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "public")
	steps := []map[string]string{
		{"a/index.html": "a", "b/index.html": "b", "b/c/index.html": "bc", "d.json": "{}"},
		{"a/index.html": "a", "b/index.html": "b", "b/c/index.html": "bc", "d.json": "{}"},
		{"a/index.html": "a2", "b/index.html": "b", "d.json": "{}", "e/f/g/index.html": "efg"},
		{"a/index.html": "a2", "b/index.html": "b", "b/c/index.html": "bc", "e/f/g/index.html": "efg"},
		{"a": "a file where a folder was", "b/index.html": "b", "e/f/g/index.html": "efg", "d.json/index.html": "a folder where a file was"},
		{"a/index.html": "a3", "b/index.html": "b", "d.json": "[]"},
		{"a/index.html": "a3", "b/index.html": "b", "d.json": "[]"},
		{"a/index.html": "a3", "b/index.html": "b", "b/n/index.html": "a new folder in an old one", "d.json": "[]"},
		{"a/index.html": "a3", "b/index.html": "b", "b/n/index.html": "a new folder in an old one", "d.json": "[]"},
	}
	for i, files := range steps {
		reuseBuild(t, dir, files, func(tree *Tree) []string {
			var kept []string
			for rel, body := range files {
				if tree.Keep(rel, len(body), Sum([]byte(body))) {
					kept = append(kept, rel)
				}
			}
			return kept
		})
		x := ReadLast(dir).x
		seen := map[string]bool{}
		err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
			if err != nil {
				return err
			}
			rel, _ := filepath.Rel(dir, p)
			rel = filepath.ToSlash(rel)
			seen[rel] = true
			want, ok := x.recs[rel]
			got, err := statRecord(p)
			switch {
			case err != nil:
				return err
			case !ok:
				t.Errorf("step %d: %s is in the tree, not in its index", i, rel)
			case !got.same(want):
				t.Errorf("step %d: %s is %+v, its index says %+v", i, rel, got, want)
			case !d.IsDir():
				if b, _ := os.ReadFile(p); Sum(b) != want.sum {
					t.Errorf("step %d: %s: the index has another digest", i, rel)
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		for rel := range x.recs {
			if !seen[rel] {
				t.Errorf("step %d: the index lists %s, which the tree lacks", i, rel)
			}
		}
	}
}

// TestIndexEncoding: an index reads back as written, and one cut short or
// with bytes after it is not an index.
func TestIndexEncoding(t *testing.T) {
	x := &treeIndex{input: "in", report: []byte("rep"), sources: []byte("src"), recs: map[string]record{
		".":            {dir: true, ino: 1, mtime: 2, ctime: 3},
		"a/index.html": {size: 6, ino: 4, mtime: -5, ctime: 6, sum: Sum([]byte("page a"))},
	}}
	b := x.encode()
	y, err := decodeIndex(b)
	if err != nil || y.input != x.input || string(y.report) != "rep" || string(y.sources) != "src" || len(y.recs) != 2 {
		t.Fatalf("decodeIndex = %+v, %v", y, err)
	}
	for n, r := range x.recs {
		if y.recs[n] != r {
			t.Errorf("%s read back as %+v, want %+v", n, y.recs[n], r)
		}
	}
	for _, bad := range [][]byte{b[:len(b)-1], append(append([]byte{}, b...), 0), b[:len(indexMagic)+2]} {
		if _, err := decodeIndex(bad); err == nil {
			t.Errorf("a damaged index (%d of %d bytes) was read", len(bad), len(b))
		}
	}
}
