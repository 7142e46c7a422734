package devsession

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"sitegen/internal/treetest"
	"sitegen/pkg/build"
)

// TestDevReportsSpecialFiles: a named pipe or a link out of the site that
// appears while the dev server runs is an error naming it, as in a build
// (it was rendered over silently); removing it clears the error.
func TestDevReportsSpecialFiles(t *testing.T) {
	dir, d := devFixture(t)
	ctx := context.Background()
	pipe := filepath.Join(dir, "content/pl/pipe.md")
	if err := syscall.Mkfifo(pipe, 0o644); err != nil {
		t.Skip("no named pipes here:", err)
	}
	_, err := d.Update(ctx, []string{"content/pl/pipe.md"})
	if err == nil || !strings.Contains(err.Error(), "content/pl/pipe.md: a named pipe (FIFO), not a regular file") {
		t.Fatalf("after a named pipe appeared: %v", err)
	}
	os.Remove(pipe)
	if err := os.Symlink("/etc/hostname", filepath.Join(dir, "templates/partials/out.html")); err != nil {
		t.Fatal(err)
	}
	_, err = d.Update(ctx, []string{"content/pl/pipe.md", "templates/partials/out.html"})
	if err == nil || !strings.Contains(err.Error(), "templates/partials/out.html: symbolic link to /etc/hostname points outside the site folder") || strings.Contains(err.Error(), "pipe.md") {
		t.Fatalf("after a link out of the site appeared: %v", err)
	}
	os.Remove(filepath.Join(dir, "templates/partials/out.html"))
	if _, err := d.Update(ctx, []string{"templates/partials/out.html"}); err != nil {
		t.Fatalf("after both were removed: %v", err)
	}
}

// TestDevWritesNothingIntoSource: the dev server (sitegen serve) with its
// default image cache writes no file into the site (it wrote
// .cache/sitegen/images there); the cache goes under the user cache folder.
func TestDevWritesNothingIntoSource(t *testing.T) {
	dir := t.TempDir()
	copyTree(t, fixture, dir)
	writePhoto(t, dir, "photos/field.jpg", 120, 80)
	treetest.Append(t, filepath.Join(dir, "content/pl/kontakt.md"), "\n![Pole](/photos/field.jpg)\n")
	userCache := t.TempDir()
	t.Setenv("XDG_CACHE_HOME", userCache)
	before := readTree(t, dir)
	d, _, err := New(context.Background(), Options{Build: build.Options{Source: dir, Date: "2026-01-01"}})
	if err != nil {
		t.Fatal(err)
	}
	devOutput(t, d) // the page with the photo, and its variants
	d.Close()
	after := readTree(t, dir)
	for name := range after {
		if _, ok := before[name]; !ok {
			t.Errorf("serve wrote %s into the site", name)
		}
	}
	if ents, err := os.ReadDir(filepath.Join(userCache, "sitegen", "images")); err != nil || len(ents) == 0 {
		t.Errorf("no image variants in the user cache folder: %v", err)
	}
}
