//go:build unix

package build

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"sitegen/internal/waittest"
	"sitegen/pkg/content"
)

// builtCopy copies the fixture site to a temporary folder and builds it
// once into out, so a failing build can be checked to leave it alone.
func builtCopy(t *testing.T) (src, out string, before map[string][]byte) {
	t.Helper()
	dir := t.TempDir()
	src = filepath.Join(dir, "site")
	copyTree(t, fixture, src)
	out = filepath.Join(dir, "public")
	buildFixture(t, src, out)
	return src, out, readTree(t, out)
}

// failsWith builds src into out and wants exactly the error lines want,
// with out as it was and no leftovers beside it.
func failsWith(t *testing.T, src, out string, before map[string][]byte, want string) {
	t.Helper()
	_, err := Run(context.Background(), Options{Source: src, Out: out, Date: "2026-01-01"})
	if err == nil {
		t.Fatalf("the build succeeded; want %s", want)
	}
	want += "\nnote: the site was not checked further: remove or replace the files above first"
	if got := err.Error(); got != want {
		t.Errorf("error:\n got: %s\nwant: %s", got, want)
	}
	after := readTree(t, out)
	if len(after) != len(before) {
		t.Errorf("the output changed: %d files, was %d", len(after), len(before))
	}
	for name, b := range before {
		if string(after[name]) != string(b) {
			t.Errorf("the output changed: %s", name)
		}
	}
	ents, _ := os.ReadDir(filepath.Dir(out))
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), ".sitegen-") && !strings.HasPrefix(e.Name(), ".sitegen-lock-") { // the lock stays
			t.Errorf("leftover %s", e.Name())
		}
	}
}

// TestFIFOIsAnError: a named pipe under content/, templates/ or assets/ is
// an error naming it; the build does not open it (it would block for ever).
func TestFIFOIsAnError(t *testing.T) {
	for _, p := range []string{"content/pl/pipe.md", "templates/partials/pipe.html", "assets/static/pipe.txt", "assets/css/pipe.css"} {
		t.Run(p, func(t *testing.T) {
			src, out, before := builtCopy(t)
			os.MkdirAll(filepath.Dir(filepath.Join(src, p)), 0o755)
			if err := syscall.Mkfifo(filepath.Join(src, p), 0o644); err != nil {
				t.Fatal(err)
			}
			failsWith(t, src, out, before, p+": a named pipe (FIFO), not a regular file; only regular files are read (hint: remove it from the site folder)")
		})
	}
}

// TestPageTooLargeOnDisk: a page file over content.MaxPageBytes in a site
// folder is refused at its path with its size, whether it is read through
// the input recorder with a cache (content.PageReader, the size from the
// read's own fstat) or without one, and through a link inside the site.
func TestPageTooLargeOnDisk(t *testing.T) {
	big := "---\nid: big\ntitle: Big\ndescription: Big.\n---\n"
	big += strings.Repeat("a", content.MaxPageBytes+1-len(big))
	for _, tc := range []struct {
		name, file string
		link       bool // file is a link to content/pl/blog/big.md (refused too)
		cache      bool
	}{
		{name: "with a cache", file: "content/pl/big.md", cache: true},
		{name: "without a cache", file: "content/pl/big.md"},
		{name: "through a link", file: "content/pl/link.md", link: true, cache: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := fixtureCopy(t)
			if tc.link {
				writeFile(t, filepath.Join(src, "content/pl/blog/big.md"), big)
				if err := os.Symlink("blog/big.md", filepath.Join(src, tc.file)); err != nil {
					t.Fatal(err)
				}
			} else {
				writeFile(t, filepath.Join(src, tc.file), big)
			}
			dir := t.TempDir()
			opts := Options{Source: src, Out: filepath.Join(dir, "public"), Date: "2026-01-01"}
			if tc.cache {
				opts.CacheDir = filepath.Join(dir, "cache")
			}
			_, err := Run(context.Background(), opts)
			want := fmt.Sprintf("%s: the page has %d bytes, more than the %d (2 MB) a page may have", tc.file, content.MaxPageBytes+1, content.MaxPageBytes)
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Fatalf("build: %v; want an error with %q", err, want)
			}
		})
	}
}

// TestFIFOHiddenNeverOpened: a hidden pipe the checker skips is still never
// opened where the build would read it (templates/ reads every .html).
func TestFIFOHiddenNeverOpened(t *testing.T) {
	src, out, _ := builtCopy(t)
	if err := syscall.Mkfifo(filepath.Join(src, "templates", ".pipe.html"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := Run(context.Background(), Options{Source: src, Out: out, Date: "2026-01-01"})
	if err == nil || !strings.Contains(err.Error(), "templates/.pipe.html: it is a named pipe (FIFO), not a regular file") {
		t.Fatalf("err = %v", err)
	}
}

// TestLinkToDeviceOrPipe: links to a device (outside the site) or to a pipe
// (inside it) are errors naming them.
func TestLinkToDeviceOrPipe(t *testing.T) {
	src, out, before := builtCopy(t)
	if err := syscall.Mkfifo(filepath.Join(src, "pipe"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := errors.Join(os.Symlink("../../pipe", filepath.Join(src, "content/pl/pipe.md")),
		os.Symlink("/dev/zero", filepath.Join(src, "assets/static/zero"))); err != nil {
		t.Fatal(err)
	}
	failsWith(t, src, out, before,
		"assets/static/zero: symbolic link to /dev/zero points outside the site folder; it is not read or published (hint: copy the file into the site if it belongs there)\n"+
			"content/pl/pipe.md: symbolic link to "+filepath.Join(src, "pipe")+", which is a named pipe (FIFO), not a regular file")
}

// TestSymlinkOutsideRefused: a link to a file outside the site is refused
// and never published; a link inside the site is fine.
func TestSymlinkOutsideRefused(t *testing.T) {
	src, out, before := builtCopy(t)
	if err := os.Symlink("/etc/passwd", filepath.Join(src, "assets/static/passwd")); err != nil {
		t.Fatal(err)
	}
	failsWith(t, src, out, before, "assets/static/passwd: symbolic link to /etc/passwd points outside the site folder; it is not read or published (hint: copy the file into the site if it belongs there)")
	if _, err := os.Stat(filepath.Join(out, "passwd")); err == nil {
		t.Fatal("/etc/passwd was published")
	}

	os.Remove(filepath.Join(src, "assets/static/passwd"))
	os.WriteFile(filepath.Join(src, "shared.txt"), []byte("inside"), 0o644)
	if err := os.Symlink("../../shared.txt", filepath.Join(src, "assets/static/shared.txt")); err != nil {
		t.Fatal(err)
	}
	buildFixture(t, src, out)
	if b, err := os.ReadFile(filepath.Join(out, "shared.txt")); err != nil || string(b) != "inside" {
		t.Errorf("a link inside the site: %q, %v", b, err)
	}
}

// TestSymlinkLoopIsAnError: a link loop is an error naming the path.
func TestSymlinkLoopIsAnError(t *testing.T) {
	src, out, before := builtCopy(t)
	a, b := filepath.Join(src, "content/pl/a.md"), filepath.Join(src, "content/pl/b.md")
	if err := errors.Join(os.Symlink("b.md", a), os.Symlink("a.md", b)); err != nil {
		t.Fatal(err)
	}
	failsWith(t, src, out, before,
		"content/pl/a.md: symbolic link loop\ncontent/pl/b.md: symbolic link loop")
}

// TestSourceLinkIsTheSite: --source may be a link to the site; the links
// check compares against the resolved folder.
func TestSourceLinkIsTheSite(t *testing.T) {
	src, _, _ := builtCopy(t)
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(src, link); err != nil {
		t.Fatal(err)
	}
	buildFixture(t, link, filepath.Join(t.TempDir(), "out"))
}

// TestInterruptKeepsOutput: cancelling a build (Ctrl+C, SIGTERM) while an
// island renders for ever stops it, leaves the previous output untouched
// and removes the temporary tree.
func TestInterruptKeepsOutput(t *testing.T) {
	src := islandSite(t, `{{ define "main" }}{{ island "Hello" (dict "name" "Ala") "load" }}{{ end }}`, helloJSX)
	out := filepath.Join(filepath.Dir(src), "public")
	if _, err := Run(context.Background(), Options{Source: src, Out: out}); err != nil {
		t.Fatal(err)
	}
	before := readTree(t, out)
	loop := "export default function Hello() { for (;;) {} }\n"
	if err := os.WriteFile(filepath.Join(src, "assets/islands/Hello.jsx"), []byte(loop), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() {
		_, err := Run(ctx, Options{Source: src, Out: out})
		done <- err
	}()
	// Cancel once the build is writing its temporary tree (it is then
	// rendering the looping island).
	deadline := time.Now().Add(waittest.Bound) // for a build that never starts its tree
	for started := false; !started; {
		select {
		case err := <-done:
			t.Fatalf("the build ended before it was interrupted: %v", err)
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("the build did not start its temporary tree within %v", waittest.Bound)
		}
		ents, _ := os.ReadDir(filepath.Dir(out))
		for _, e := range ents {
			started = started || strings.HasPrefix(e.Name(), ".sitegen-tmp-public-")
		}
		time.Sleep(5 * time.Millisecond)
	}
	cancel()
	err := waittest.Within(t, done, "the stopped build")
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	after := readTree(t, out)
	if len(after) != len(before) {
		t.Errorf("the output changed")
	}
	for name, b := range before {
		if string(after[name]) != string(b) {
			t.Errorf("%s changed", name)
		}
	}
	ents, _ := os.ReadDir(filepath.Dir(out))
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), ".sitegen-") && !strings.HasPrefix(e.Name(), ".sitegen-lock-") { // the lock stays
			t.Errorf("leftover %s", e.Name())
		}
	}
}
