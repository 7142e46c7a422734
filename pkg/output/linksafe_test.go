package output

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestKeepLinkRefused is the hostile-input probe of issue 32: a symbolic
// link planted at .sitegen-keep-<out> (or at the spare or an index inside
// it) is never followed. The build is refused with a message naming the
// link, and the folder it points at is left exactly as it was.
func TestKeepLinkRefused(t *testing.T) {
	cases := []struct {
		name  string
		plant func(t *testing.T, keep, victim string)
	}{
		{"keep folder", func(t *testing.T, keep, victim string) {
			must(t, os.Symlink(victim, keep))
		}},
		{"spare", func(t *testing.T, keep, victim string) {
			must(t, os.Mkdir(keep, 0o755))
			must(t, os.Symlink(filepath.Join(victim, "spare"), filepath.Join(keep, spareName)))
		}},
		{"live index", func(t *testing.T, keep, victim string) {
			must(t, os.Mkdir(keep, 0o755))
			must(t, os.Symlink(filepath.Join(victim, "spare.idx"), filepath.Join(keep, liveIndex)))
		}},
		{"index being written", func(t *testing.T, keep, victim string) {
			must(t, os.Mkdir(keep, 0o755))
			must(t, os.Symlink(filepath.Join(victim, "spare.idx"), filepath.Join(keep, liveIndex+".new")))
		}},
	}
	for _, c := range cases {
		for _, reuse := range []bool{true, false} {
			t.Run(c.name+map[bool]string{true: " reuse", false: " no cache"}[reuse], func(t *testing.T) {
				dir := t.TempDir()
				victim := filepath.Join(dir, "victim")
				must(t, os.MkdirAll(filepath.Join(victim, "spare"), 0o755))
				must(t, os.WriteFile(filepath.Join(victim, "spare", "notes.txt"), []byte("p\n"), 0o644))
				must(t, os.WriteFile(filepath.Join(victim, "spare.idx"), []byte("p\n"), 0o644))
				out := filepath.Join(dir, "out")
				reuseBuild(t, out, map[string]string{"index.html": "one"}, nil) // a tree and a keep folder...
				must(t, os.RemoveAll(keepDir(out)))                             // ...replaced by the plant
				c.plant(t, keepDir(out), victim)

				if last := ReadLast(out); last != nil {
					t.Errorf("ReadLast read an index through the link")
				}
				tree, err := BeginWith(out, "test", BeginOptions{Reuse: reuse})
				if err == nil {
					tree.WriteFile("index.html", []byte("two"))
					err = tree.Commit()
				}
				if err == nil || !strings.Contains(err.Error(), "sitegen did not make") && !strings.Contains(err.Error(), "not the folder sitegen keeps") {
					t.Errorf("build through the link: err = %v, want a refusal naming it", err)
				}
				assertFiles(t, victim, map[string]string{"spare/notes.txt": "p\n", "spare.idx": "p\n"})
			})
		}
	}
}

// TestLockBesideOut: two builds into one folder meet at its lock whatever
// their temporary folders; the second is refused.
func TestLockBesideOut(t *testing.T) {
	out := filepath.Join(t.TempDir(), "public")
	t.Setenv("TMPDIR", t.TempDir())
	first, err := BeginWith(out, "test", BeginOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer first.Abort()
	t.Setenv("TMPDIR", t.TempDir())
	second, err := BeginWith(out, "test", BeginOptions{})
	if err == nil {
		second.Abort()
		t.Fatal("a second build into the same folder, with another TMPDIR, was not refused")
	}
	if !strings.Contains(err.Error(), "another sitegen build is writing into it") {
		t.Errorf("err = %v, want the refusal README gives", err)
	}
	first.Abort()
	third, err := BeginWith(out, "test", BeginOptions{})
	if err != nil {
		t.Fatalf("after the first build ended: %v", err)
	}
	third.Abort()
	// A link at the lock's name is not followed.
	victim := filepath.Join(t.TempDir(), "victim")
	must(t, os.WriteFile(victim, []byte("v"), 0o644))
	must(t, os.Remove(lockName(out)))
	must(t, os.Symlink(victim, lockName(out)))
	if tree, err := BeginWith(out, "test", BeginOptions{}); err == nil {
		tree.Abort()
		t.Error("a link at the lock file was followed")
	}
	assertFiles(t, filepath.Dir(victim), map[string]string{"victim": "v"})
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// assertFiles checks that dir holds exactly files (path → content).
func assertFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	got := map[string]string{}
	filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
		if err == nil && !info.IsDir() {
			b, _ := os.ReadFile(p)
			rel, _ := filepath.Rel(dir, p)
			got[filepath.ToSlash(rel)] = string(b)
		}
		return nil
	})
	if len(got) != len(files) {
		t.Errorf("%s holds %v, want %v", dir, got, files)
		return
	}
	for k, v := range files {
		if got[k] != v {
			t.Errorf("%s/%s = %q, want %q", dir, k, got[k], v)
		}
	}
}
