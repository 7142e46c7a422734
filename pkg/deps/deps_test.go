package deps

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestVerify: a record of a site's reads (a file read, a folder listed, a
// path stated, one looked up and absent, a file esbuild read outside the
// site, a program run) holds while the site is as read, and each change of
// what was read makes it fail; a change with the same bytes, or of what
// was not read, does not.
func TestVerify(t *testing.T) {
	tests := []struct {
		name   string
		change func(t *testing.T, root, outside string)
		holds  bool
		prog   string // the program's ID now ("" keeps "avifenc 1")
	}{
		{"nothing", func(*testing.T, string, string) {}, true, ""},
		{"a file read, new bytes", func(t *testing.T, root, _ string) { write(t, root, "templates/base.html", "<b>") }, false, ""},
		{"a file read, the same bytes again", func(t *testing.T, root, _ string) { write(t, root, "templates/base.html", "<i>") }, true, ""},
		{"a file added to a folder listed", func(t *testing.T, root, _ string) { write(t, root, "content/en/new.md", "x") }, false, ""},
		{"a file not read, in a folder not listed", func(t *testing.T, root, _ string) { write(t, root, "notes/todo.txt", "y") }, true, ""},
		{"a path stated, grown", func(t *testing.T, root, _ string) { write(t, root, "assets/logo.svg", "<svg></svg>") }, false, ""},
		{"a path absent appears", func(t *testing.T, root, _ string) { write(t, root, "templates/page.html", "p") }, false, ""},
		{"a file esbuild read, new bytes", func(t *testing.T, _, outside string) { write(t, outside, "lib/index.js", "2") }, false, ""},
		{"a file esbuild missed appears", func(t *testing.T, _, outside string) { write(t, outside, "lib/package.json", "{}") }, false, ""},
		{"a program's new version", func(*testing.T, string, string) {}, false, "avifenc 2"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root, outside := t.TempDir(), t.TempDir()
			write(t, root, "templates/base.html", "<i>")
			write(t, root, "content/en/a.md", "a")
			write(t, root, "assets/logo.svg", "<svg/>")
			write(t, outside, "lib/index.js", "1")
			old := time.Now().Add(-time.Hour)
			for _, p := range []string{"templates/base.html", "content/en/a.md"} {
				os.Chtimes(filepath.Join(root, p), old, old)
			}

			rec := New(root, time.Now())
			fsys := NewFS(os.DirFS(root), rec)
			if _, err := fs.ReadFile(fsys, "templates/base.html"); err != nil {
				t.Fatal(err)
			}
			if _, err := fs.ReadDir(fsys, "content/en"); err != nil {
				t.Fatal(err)
			}
			if _, err := fs.Stat(fsys, "assets/logo.svg"); err != nil {
				t.Fatal(err)
			}
			if _, err := fs.ReadFile(fsys, "templates/page.html"); err == nil {
				t.Fatal("templates/page.html: want absent")
			}
			esbuild := map[string]string{
				filepath.Join(outside, "lib/index.js"):     "6b86b273ff34fce19d6b804eff5a3f5747ada4eaa22f1d49c01e52ddb7875b4b", // SHA-256 of "1"
				filepath.Join(outside, "lib/package.json"): "missing",
			}
			rec.AddOS(esbuild, nil)
			rec.AddPrograms(map[string]string{"avifenc": "avifenc 1"})
			es, bad := rec.Entries()
			if bad != "" {
				t.Fatalf("record not trusted: %s", bad)
			}
			notes := EncodeNotes(rec.Began(), es)

			tt.change(t, root, outside)
			prog := tt.prog
			if prog == "" {
				prog = "avifenc 1"
			}
			got, abs := Verify(context.Background(), os.DirFS(root), root, notes, 2, func(string) string { return prog })
			if (got != nil) != tt.holds {
				t.Fatalf("Verify holds = %t, want %t", got != nil, tt.holds)
			}
			if tt.holds && (len(got) != len(es) || abs != rec.Root()) {
				t.Errorf("Verify gave %d entries in %q, want the %d noted in %q", len(got), abs, len(es), rec.Root())
			}
		})
	}
}

// TestRecordDistrust: the same file read twice with other bytes, or a
// read that fails for another reason than absence, makes the record
// untrustworthy; notes that are not notes decode to none.
func TestRecordDistrust(t *testing.T) {
	rec := New(t.TempDir(), time.Now())
	k := Key{Kind: File, Path: "a.md"}
	rec.Add(k, Dep{Sum: [32]byte{1}})
	rec.Add(k, Dep{Sum: [32]byte{2}})
	if _, bad := rec.Entries(); bad == "" {
		t.Error("a file read with two contents: record trusted")
	}
	rec = New(t.TempDir(), time.Now())
	NewFS(os.DirFS(rec.Root()), rec).missing("x", fs.ErrPermission)
	if _, bad := rec.Entries(); bad == "" {
		t.Error("a read refused: record trusted")
	}
	if es := DecodeNotes([]byte("not notes")); es != nil {
		t.Errorf("DecodeNotes of junk = %v, want none", es)
	}
}

func write(t *testing.T, root, p, s string) {
	t.Helper()
	full := filepath.Join(root, p)
	if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(full, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}
