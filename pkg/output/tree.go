// Package output writes the static output tree: into a temporary directory
// beside the target, then swapped into place, so a failed build leaves the
// previous output exactly as it was.
package output

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// Tree is an output tree being written.
type Tree struct {
	final string
	tmp   string
	dirs  map[string]bool
	files int
	bytes int64
}

// Begin starts a tree that will replace dir on Commit.
func Begin(dir string) (*Tree, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	parent := filepath.Dir(abs)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return nil, fmt.Errorf("create %s: %w", parent, err)
	}
	tmp, err := os.MkdirTemp(parent, ".sitegen-tmp-"+filepath.Base(abs)+"-")
	if err != nil {
		return nil, fmt.Errorf("create temporary output directory: %w", err)
	}
	if err := os.Chmod(tmp, 0o755); err != nil {
		return nil, err
	}
	return &Tree{final: abs, tmp: tmp, dirs: map[string]bool{}}, nil
}

// Dir is the final directory.
func (t *Tree) Dir() string { return t.final }

// Files and Bytes count what was written.
func (t *Tree) Files() int   { return t.files }
func (t *Tree) Bytes() int64 { return t.bytes }

// WriteFile writes one file; rel is a slash-separated path below the root.
func (t *Tree) WriteFile(rel string, data []byte) error {
	rel = strings.TrimPrefix(path.Clean("/"+rel), "/")
	if rel == "" || strings.HasPrefix(rel, "..") {
		return fmt.Errorf("invalid output path %q", rel)
	}
	dir := path.Dir(rel)
	if !t.dirs[dir] {
		if err := os.MkdirAll(filepath.Join(t.tmp, filepath.FromSlash(dir)), 0o755); err != nil {
			return err
		}
		t.dirs[dir] = true
	}
	if err := os.WriteFile(filepath.Join(t.tmp, filepath.FromSlash(rel)), data, 0o644); err != nil {
		return err
	}
	t.files++
	t.bytes += int64(len(data))
	return nil
}

// Abort removes the temporary tree; the previous output stays untouched.
func (t *Tree) Abort() { os.RemoveAll(t.tmp) }

// Commit swaps the new tree into place and removes the old one.
func (t *Tree) Commit() error {
	old := ""
	if _, err := os.Lstat(t.final); err == nil {
		o, err := os.MkdirTemp(filepath.Dir(t.final), ".sitegen-old-"+filepath.Base(t.final)+"-")
		if err != nil {
			t.Abort()
			return err
		}
		os.Remove(o)
		if err := os.Rename(t.final, o); err != nil {
			t.Abort()
			return fmt.Errorf("move old output aside: %w", err)
		}
		old = o
	}
	if err := os.Rename(t.tmp, t.final); err != nil {
		if old != "" {
			os.Rename(old, t.final)
		}
		t.Abort()
		return fmt.Errorf("move new output into place: %w", err)
	}
	if old != "" {
		return os.RemoveAll(old)
	}
	return nil
}
