package sitefs

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"unsafe"
)

// site makes a site folder with a regular file, links inside and outside
// the site, a folder link and a named pipe; outside is a folder beside it.
func site(t *testing.T) (root, outside string) {
	t.Helper()
	base := t.TempDir()
	root, outside = filepath.Join(base, "site"), filepath.Join(base, "outside")
	for _, d := range []string{filepath.Join(root, "content/pl/blog"), filepath.Join(root, "content/en"), outside} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write := func(p, s string) {
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(root, "content/pl/blog/a.md"), "a")
	write(filepath.Join(outside, "secret.md"), "secret")
	link := func(target, name string) {
		if err := os.Symlink(target, filepath.Join(root, name)); err != nil {
			t.Fatal(err)
		}
	}
	link("blog/a.md", "content/pl/inside.md")
	link(filepath.Join(outside, "secret.md"), "content/pl/out.md")
	link(outside, "content/en/away")
	link("../pl/blog", "content/en/blog")
	if err := syscall.Mkfifo(filepath.Join(root, "content/pl/pipe.md"), 0o644); err != nil {
		t.Fatal(err)
	}
	return root, outside
}

// TestReadFile: regular files are read without resolving links (the fast
// path) and every link on the way is still checked, whether the link is the
// file or one of its folders.
func TestReadFile(t *testing.T) {
	root, _ := site(t)
	f, err := New(root)
	if err != nil {
		t.Fatal(err)
	}
	// Sizes around the fast read's one extra byte: empty, one byte, large.
	large := strings.Repeat("ł0123456789\n", 20000)
	for name, text := range map[string]string{"empty.md": "", "one.md": "1", "large.md": large} {
		if err := os.WriteFile(filepath.Join(root, "content/pl/blog", name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		name, want, err string
	}{
		{name: "content/pl/blog/empty.md", want: ""},
		{name: "content/pl/blog/one.md", want: "1"},
		{name: "content/pl/blog/large.md", want: large},
		{name: "content/pl/blog/a.md", want: "a"},
		{name: "content/pl/blog", err: "is a directory"},
		{name: "content/pl/blog/a.md", want: "a"}, // again, its folders now known
		{name: "content/pl/inside.md", want: "a"},
		{name: "content/en/blog/a.md", want: "a"}, // through a folder link inside the site
		{name: "content/pl/out.md", err: "outside the site folder"},
		{name: "content/en/away/secret.md", err: "outside the site folder"},
		{name: "content/pl/pipe.md", err: "it is a named pipe (FIFO), not a regular file"},
		{name: "content/pl/missing.md", err: "file does not exist"},
		{name: "content/pl/../../x", err: "invalid argument"},
	} {
		b, err := f.ReadFile(tc.name)
		switch {
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("ReadFile(%s) = %q, %v; want an error with %q", tc.name, b, err, tc.err)
		case tc.err == "" && (err != nil || string(b) != tc.want):
			t.Errorf("ReadFile(%s) = %.40q (%d bytes), %v; want %.40q (%d bytes)", tc.name, b, len(b), err, tc.want, len(tc.want))
		}
	}
}

// TestReadFileBufMax: a file larger than the bound is not read, on the fast
// path, through a link and from another fs.FS alike: its error gives its size; a file at the
// bound, or one refused for another reason, reads as ReadFile does.
func TestReadFileBufMax(t *testing.T) {
	root, _ := site(t)
	f, err := New(root)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "content/pl/blog/five.md"), []byte("12345"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("blog/five.md", filepath.Join(root, "content/pl/link.md")); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name      string
		max       int64
		want, err string
		size      int64 // of a *TooLargeError
	}{
		{name: "content/pl/blog/five.md", max: 5, want: "12345"},
		{name: "content/pl/blog/five.md", max: -1, want: "12345"},
		{name: "content/pl/blog/five.md", max: 4, size: 5},
		{name: "content/pl/link.md", max: 5, want: "12345"},
		{name: "content/pl/link.md", max: 4, size: 5},
		{name: "content/pl/out.md", max: 4, err: "outside the site folder"},
		{name: "content/pl/pipe.md", max: 4, err: "not a regular file"},
	} {
		b, err := ReadFileBuf(f, nil, tc.name, tc.max)
		var tl *TooLargeError
		switch {
		case tc.size != 0 && (!errors.As(err, &tl) || tl.Size != tc.size || b != nil):
			t.Errorf("ReadFileBuf(%s, %d) = %q, %v; want a *TooLargeError of %d bytes", tc.name, tc.max, b, err, tc.size)
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("ReadFileBuf(%s, %d) = %q, %v; want an error with %q", tc.name, tc.max, b, err, tc.err)
		case tc.size == 0 && tc.err == "" && (err != nil || string(b) != tc.want):
			t.Errorf("ReadFileBuf(%s, %d) = %q, %v; want %q", tc.name, tc.max, b, err, tc.want)
		}
	}
	// Another fs.FS: the bound told by its Stat.
	dir := os.DirFS(root)
	var tl *TooLargeError
	if b, err := ReadFileBuf(dir, nil, "content/pl/blog/five.md", 4); !errors.As(err, &tl) || tl.Size != 5 || b != nil {
		t.Errorf("ReadFileBuf(os.DirFS, five.md, 4) = %q, %v; want a *TooLargeError of 5 bytes", b, err)
	}
	for _, max := range []int64{5, -1} {
		if b, err := ReadFileBuf(dir, nil, "content/pl/blog/five.md", max); err != nil || string(b) != "12345" {
			t.Errorf("ReadFileBuf(os.DirFS, five.md, %d) = %q, %v; want 12345", max, b, err)
		}
	}
}

// TestReadFileBuf: a file is read into the caller's buffer when it has
// room for it (one byte more than the file, for the read that sees the
// end), into a new one when not; either way the bytes are the file's.
func TestReadFileBuf(t *testing.T) {
	root, _ := site(t)
	f, err := New(root)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "content/pl/blog/five.md"), []byte("12345"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		room   int
		shared bool
	}{{room: 64, shared: true}, {room: 6, shared: true}, {room: 5}, {room: 0}} {
		buf := make([]byte, 0, tc.room)
		b, err := f.ReadFileBuf(buf, "content/pl/blog/five.md", -1)
		if err != nil || string(b) != "12345" {
			t.Fatalf("ReadFileBuf(room %d) = %q, %v", tc.room, b, err)
		}
		if shared := tc.room > 0 && unsafe.SliceData(b) == unsafe.SliceData(buf); shared != tc.shared {
			t.Errorf("ReadFileBuf(room %d): read into the buffer %t, want %t", tc.room, shared, tc.shared)
		}
	}
}

// TestForget: once a known folder is replaced by a link out of the site,
// a read after Forget (as the dev server does before each rebuild) is
// refused.
func TestForget(t *testing.T) {
	root, outside := site(t)
	f, err := New(root)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.ReadFile("content/pl/blog/a.md"); err != nil {
		t.Fatal(err)
	}
	blog := filepath.Join(root, "content/pl/blog")
	if err := os.RemoveAll(blog); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(outside, "a.md"), []byte("outside"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, blog); err != nil {
		t.Fatal(err)
	}
	f.Forget()
	if b, err := f.ReadFile("content/pl/blog/a.md"); err == nil || !strings.Contains(err.Error(), "outside the site folder") {
		t.Fatalf("after the folder became a link: %q, %v", b, err)
	}
}

func TestWriteNewNeverReplaces(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "content", "en", "page.md")
	if err := WriteNew(p, []byte("first")); err != nil {
		t.Fatal(err)
	}
	if err := WriteNew(p, []byte("second")); !errors.Is(err, fs.ErrExist) {
		t.Errorf("writing over an existing file: %v, want fs.ErrExist", err)
	}
	if b, _ := os.ReadFile(p); string(b) != "first" {
		t.Errorf("the existing file became %q", b)
	}
}

// TestBadName: a file whose name is not valid UTF-8 is refused saying so,
// its name quoted (it was "invalid argument", the name printed as raw
// bytes, issue 36).
func TestBadName(t *testing.T) {
	root, _ := site(t)
	if err := os.WriteFile(filepath.Join(root, "content/pl/\xff\xfe.md"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := New(root)
	if err != nil {
		t.Fatal(err)
	}
	_, err = f.ReadFile("content/pl/\xff\xfe.md")
	want := `read "content/pl/\xff\xfe.md": the file name is not valid UTF-8 (byte 0xff at byte 11 of the path); rename it`
	if err == nil || err.Error() != want {
		t.Errorf("ReadFile: %v\nwant %s", err, want)
	}
	if _, err := f.Open("content/pl/a\x1b[2J.md"); err == nil || !strings.Contains(err.Error(), `"content/pl/a\x1b[2J.md": the file name holds the control character U+001B`) {
		t.Errorf("Open: %v, want the name quoted and the control character named", err)
	}
}
