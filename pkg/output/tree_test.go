package output

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"sitegen/internal/waittest"
)

// The kill test re-runs this test binary as a child that builds a tree and
// exits at one step of the swap (SITEGEN_SWAP_KILL names it).
func TestMain(m *testing.M) {
	if step := os.Getenv("SITEGEN_SWAP_KILL"); step != "" {
		os.Exit(swapChild(os.Getenv("SITEGEN_SWAP_DIR"), step, os.Getenv("SITEGEN_SWAP_MODE")))
	}
	os.Exit(m.Run())
}

// killCode is the exit status of a child that reached its kill step.
const killCode = 77

var treeFiles = []string{"index.html", "pl/index.html", "en/index.html", "_assets/main.css"}

// writeTree writes a whole tree whose every file says version.
func writeTree(t *Tree, version string) error {
	for _, f := range treeFiles {
		if err := t.WriteFile(f, []byte(version+" "+f)); err != nil {
			return err
		}
	}
	return nil
}

func swapChild(dir, step, mode string) int {
	t, err := BeginWith(dir, "test", BeginOptions{Reuse: mode == "reuse"})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	written := 0
	t.hook = func(s string) {
		if s == StepWriting {
			written++
			if step == StepWriting && written == 2 {
				os.Exit(killCode) // half the tree is written
			}
			return
		}
		if s == step {
			os.Exit(killCode)
		}
	}
	if mode == "renames" {
		t.exchange = func(a, b string) error { return errExchange }
	}
	if err := writeTree(t, "new"); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	if err := t.Commit(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

// treeVersion returns "old" or "new" when dir holds a complete tree of one
// version (manifest and every file), or explains what is wrong.
func treeVersion(dir string) (string, error) {
	m, err := ReadManifest(dir)
	if err != nil {
		return "", err
	}
	got := append([]string{}, m.Files...)
	want := append([]string{}, treeFiles...)
	sort.Strings(want)
	if strings.Join(got, " ") != strings.Join(want, " ") {
		return "", fmt.Errorf("manifest lists %v", got)
	}
	version := ""
	for _, f := range treeFiles {
		b, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			return "", err
		}
		v, _, _ := strings.Cut(string(b), " ")
		if version != "" && v != version {
			return "", fmt.Errorf("mixed tree: %s is %s, another file %s", f, v, version)
		}
		version = v
	}
	return version, nil
}

func leftovers(t *testing.T, parent string) []string {
	t.Helper()
	ents, err := os.ReadDir(parent)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), ".sitegen-") && !strings.HasPrefix(e.Name(), lockPrefix) { // the lock stays
			out = append(out, e.Name())
		}
	}
	return out
}

// TestSwapSurvivesKill kills a build at each step of writing and swapping
// the tree, with the atomic exchange and with the two-rename fallback: the
// output is a complete old or new tree every time (with the exchange, at
// once; with two renames, once the next build has recovered), and the next
// build removes every leftover.
func TestSwapSurvivesKill(t *testing.T) {
	steps := []string{StepWriting, StepManifest, StepAside, StepSwapped, StepOldRemove}
	// reuse: builds that keep the replaced tree and stage the next one in
	// it (BeginOptions.Reuse); two builds before the killed one, so that
	// it is staged in the kept tree.
	for _, mode := range []string{"exchange", "renames", "reuse"} {
		for i, step := range steps {
			t.Run(fmt.Sprintf("%s/step-%d-%s", mode, i+1, step), func(t *testing.T) {
				if mode != "renames" && runtime.GOOS != "linux" {
					t.Skip("the atomic exchange is Linux only; elsewhere builds use two renames")
				}
				parent := t.TempDir()
				out := filepath.Join(parent, "public")
				opts := BeginOptions{Reuse: mode == "reuse"}
				commit := func(version string) {
					t.Helper()
					tr, err := BeginWith(out, "test", opts)
					if err != nil {
						t.Fatal(err)
					}
					if err := writeTree(tr, version); err != nil {
						t.Fatal(err)
					}
					if err := tr.Commit(); err != nil {
						t.Fatal(err)
					}
					if v, err := treeVersion(out); err != nil || v != version {
						t.Fatalf("built %s, found %s, %v", version, v, err)
					}
				}
				if mode == "reuse" {
					commit("older")
				}
				commit("old")

				cmd := waittest.Command(t, os.Args[0], "-test.run=^$")
				cmd.Env = append(os.Environ(), "SITEGEN_SWAP_KILL="+step, "SITEGEN_SWAP_DIR="+out, "SITEGEN_SWAP_MODE="+mode)
				msg, err := cmd.CombinedOutput()
				if mode != "renames" && step == StepAside {
					// The exchange never has --out missing: the step is not reached.
					if err != nil {
						t.Fatalf("with the atomic exchange, --out was moved aside (or the build failed): %v\n%s", err, msg)
					}
					if v, err := treeVersion(out); err != nil || v != "new" {
						t.Fatalf("after the build: %s, %v", v, err)
					}
					return
				}
				var ee *exec.ExitError
				if !errors.As(err, &ee) || ee.ExitCode() != killCode {
					t.Fatalf("the child did not stop at %s: %v\n%s", step, err, msg)
				}
				if len(leftovers(t, parent)) == 0 && step != StepOldRemove {
					t.Errorf("killed at %s, yet nothing was left behind: the kill came too late to test anything", step)
				}

				v, err := treeVersion(out)
				if mode != "renames" || step != StepAside {
					if err != nil {
						t.Fatalf("killed at %s: --out is not a complete tree: %v", step, err)
					}
				} else if err == nil {
					t.Fatalf("killed at %s with two renames: --out should be missing until the next build, found %s", step, v)
				}

				// The next build recovers and leaves no leftovers.
				next, err := BeginWith(out, "test", opts)
				if err != nil {
					t.Fatal(err)
				}
				v, err = treeVersion(out)
				if err != nil {
					t.Fatalf("after recovery: --out is not a complete tree: %v", err)
				}
				if step == StepAside && v != "old" {
					t.Errorf("--out was gone: the old tree should be restored, got %s", v)
				}
				next.Abort()
				if l := leftovers(t, parent); len(l) > 0 && (mode != "reuse" || len(l) > 1 || l[0] != keepPrefix+"public") {
					t.Errorf("leftovers after the next build: %v", l)
				}
				// And the builds after write whole, unmixed trees.
				commit("newer")
				commit("newest")
			})
		}
	}
}

// TestCommitWritesManifest: the manifest names sitegen and every file
// written, sorted, with no time stamp.
func TestCommitWritesManifest(t *testing.T) {
	out := filepath.Join(t.TempDir(), "public")
	tr, err := Begin(out, "9.9.9")
	if err != nil {
		t.Fatal(err)
	}
	tr.WriteFile("z.html", []byte("z"))
	tr.WriteFile("a/b.html", []byte("b"))
	if err := tr.Commit(); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(out, ManifestName))
	if err != nil {
		t.Fatal(err)
	}
	want := "{\n  \"generator\": \"sitegen\",\n  \"version\": \"9.9.9\",\n  \"files\": [\n    \"a/b.html\",\n    \"z.html\"\n  ]\n}\n"
	if string(b) != want {
		t.Errorf("manifest =\n%s\nwant\n%s", b, want)
	}
	if err := tr.WriteFile(ManifestName, nil); err == nil {
		t.Errorf("a page may not overwrite the manifest")
	}
}

// TestRecoverLeavesOthersAlone: only this output's leftovers are touched.
func TestRecoverLeavesOthersAlone(t *testing.T) {
	parent := t.TempDir()
	keep := []string{".sitegen-tmp-dist-123", ".sitegen-tmp-public-x1", "notes"}
	for _, d := range append(keep, ".sitegen-tmp-public-42", ".sitegen-old-public-7") {
		if err := os.Mkdir(filepath.Join(parent, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(parent, "public"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := Recover(filepath.Join(parent, "public")); err != nil {
		t.Fatal(err)
	}
	got := leftovers(t, parent)
	if strings.Join(got, " ") != ".sitegen-tmp-dist-123 .sitegen-tmp-public-x1" {
		t.Errorf("after recovery: %v", got)
	}
}

// TestSecondBuildWaits: a build cannot start while another one writes
// beside the same output (it would take the other's tree for a leftover).
func TestSecondBuildRefused(t *testing.T) {
	out := filepath.Join(t.TempDir(), "public")
	first, err := Begin(out, "test")
	if err != nil {
		t.Fatal(err)
	}
	defer first.Abort()
	if _, err := Begin(out, "test"); err == nil || !strings.Contains(err.Error(), "another sitegen build is writing") {
		t.Fatalf("second Begin: %v", err)
	}
}

// TestSiblingBuildsRunTogether: builds into two folders of one parent run
// at the same time (the lock is per output folder, also when a link names
// it), and leave nothing beside them but their lock files.
func TestSiblingBuildsRunTogether(t *testing.T) {
	parent := t.TempDir()
	a, err := Begin(filepath.Join(parent, "a"), "test")
	if err != nil {
		t.Fatal(err)
	}
	defer a.Abort()
	b, err := Begin(filepath.Join(parent, "b"), "test")
	if err != nil {
		t.Fatalf("a build into a sibling folder: %v", err)
	}
	if err := b.Commit(); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(t.TempDir(), "parent")
	if err := os.Symlink(parent, link); err != nil {
		t.Fatal(err)
	}
	if _, err := Begin(filepath.Join(link, "a"), "test"); err == nil || !strings.Contains(err.Error(), "another sitegen build is writing") {
		t.Fatalf("Begin through a link to the same folder: %v", err)
	}
	if err := a.Commit(); err != nil {
		t.Fatal(err)
	}
	ents, _ := os.ReadDir(parent)
	if len(ents) != 4 || ents[0].Name() != lockPrefix+"a" || ents[1].Name() != lockPrefix+"b" {
		t.Errorf("beside the outputs: %v, want only a, b and their locks", ents)
	}
}

func TestCleanRel(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"a/b.html", "a/b.html"},
		{"/a/b.html", "a/b.html"},
		{"a//b.html", "a/b.html"},
		{"a/./b.html", "a/b.html"},
		{"a/../../b.html", "b.html"},
		{"..x/y", ""},
		{"../x", "x"}, // rooted: never above the output
		{".", ""},
		{"", ""},
		{"/", ""},
		{ManifestName, ""},
	} {
		got, err := cleanRel(tc.in)
		if (err != nil) != (tc.want == "") || got != tc.want {
			t.Errorf("cleanRel(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
}

// TestTreeRemembersSharedFolders: a folder that holds one file (a page's)
// is made and forgotten; one that turns out to hold more is remembered, so
// that its next files cost no mkdir. Files in forgotten and remembered
// folders alike are written and listed.
func TestTreeRemembersSharedFolders(t *testing.T) {
	out := filepath.Join(t.TempDir(), "public")
	tr, err := Begin(out, "1")
	if err != nil {
		t.Fatal(err)
	}
	if err := tr.Prepare([]string{"pl/a/index.html", "pl/b/index.html"}); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"pl/a/index.html", "pl/b/index.html", "_assets/x.js", "_assets/y.js", "_assets/z.js", "deep/er/f.txt"} {
		if err := tr.WriteFile(f, []byte(f)); err != nil {
			t.Fatal(err)
		}
	}
	var dirs []string
	for d := range tr.dirs {
		dirs = append(dirs, d)
	}
	sort.Strings(dirs)
	if want := []string{"_assets", "pl"}; !slices.Equal(dirs, want) {
		t.Errorf("remembered folders %v, want %v", dirs, want)
	}
	if tr.Files() != 6 {
		t.Errorf("%d files", tr.Files())
	}
	if err := tr.Commit(); err != nil {
		t.Fatal(err)
	}
	m, err := ReadManifest(out)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"_assets/x.js", "_assets/y.js", "_assets/z.js", "deep/er/f.txt", "pl/a/index.html", "pl/b/index.html"}; !slices.Equal(m.Files, want) {
		t.Errorf("manifest lists %v, want %v", m.Files, want)
	}
}

// TestAbortOnCancel: cancelling the build's context removes the temporary
// tree at once, while the build may still be busy (Ctrl+C once left it
// behind in 6 of 8 runs); writes and the commit are refused after it and
// the previous output stays.
func TestAbortOnCancel(t *testing.T) {
	out := filepath.Join(t.TempDir(), "public")
	first, err := Begin(out, "test")
	if err != nil {
		t.Fatal(err)
	}
	first.WriteFile("index.html", []byte("old"))
	if err := first.Commit(); err != nil {
		t.Fatal(err)
	}
	tr, err := Begin(out, "test")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	tr.AbortOn(ctx)
	if err := tr.WriteFile("index.html", []byte("new")); err != nil {
		t.Fatal(err)
	}
	cancel()
	gone := false
	for i := 0; i < 200 && !gone; i++ { // the removal runs in its own goroutine
		_, err := os.Stat(tr.stage)
		gone = os.IsNotExist(err)
		time.Sleep(5 * time.Millisecond)
	}
	if !gone {
		t.Fatal("the temporary tree is still there after the cancel")
	}
	if err := tr.WriteFile("other.html", []byte("x")); err == nil {
		t.Error("a write after the cancel succeeded")
	}
	if err := tr.Commit(); err == nil {
		t.Error("the commit after the cancel succeeded")
	}
	if b, _ := os.ReadFile(filepath.Join(out, "index.html")); string(b) != "old" {
		t.Errorf("the output holds %q, want the previous one", b)
	}
	// The lock is released: the next build starts.
	next, err := Begin(out, "test")
	if err != nil {
		t.Fatal(err)
	}
	next.Abort()
}

// TestAbortDuringWrites: Abort while many goroutines write files into new
// folders leaves no temporary tree (a write racing the removal made its
// folder, and the tree's, again).
func TestAbortDuringWrites(t *testing.T) {
	dir := t.TempDir()
	for run := range 40 {
		tr, err := Begin(filepath.Join(dir, "public"), "test")
		if err != nil {
			t.Fatal(err)
		}
		started := make(chan struct{}, 8)
		done := make(chan struct{})
		for w := range 8 {
			go func() {
				defer func() { done <- struct{}{} }()
				for i := 0; i < 25; i++ {
					if i == 0 {
						started <- struct{}{}
					}
					if tr.WriteFile(fmt.Sprintf("w%d/p%d/deep/index.html", w, i), []byte("x")) != nil {
						return
					}
				}
			}()
		}
		for range 8 {
			<-started
		}
		tr.Abort()
		for range 8 {
			<-done
		}
		if l := leftovers(t, dir); len(l) != 0 {
			t.Fatalf("run %d: left %s after Abort", run, l)
		}
	}
}

// TestLongOutName: an output folder whose name is as long as a name may
// be is built, twice (the second replaces the first, reusing or not), and
// a leftover of a killed build beside it is found: the temporary folders
// beside it used to add 25 bytes to its name and could not be made
// ("file name too long", issue 36).
func TestLongOutName(t *testing.T) {
	for _, base := range []string{strings.Repeat("o", 250), strings.Repeat("ż", 127)} {
		for _, reuse := range []bool{false, true} {
			parent := t.TempDir()
			out := filepath.Join(parent, base)
			for i := range 2 {
				tr, err := BeginWith(out, "1", BeginOptions{Reuse: reuse})
				if err != nil {
					t.Fatalf("%d bytes, build %d: %v", len(base), i, err)
				}
				if err := tr.WriteFile("index.html", []byte{byte('a' + i)}); err != nil {
					t.Fatal(err)
				}
				if err := tr.Commit(); err != nil {
					t.Fatalf("%d bytes, build %d: %v", len(base), i, err)
				}
			}
			if b, err := os.ReadFile(filepath.Join(out, "index.html")); err != nil || string(b) != "b" {
				t.Errorf("%d bytes: index.html %q, %v", len(base), b, err)
			}
			left, err := os.MkdirTemp(parent, tmpPrefix+besideName(base)+"-")
			if err != nil {
				t.Fatal(err)
			}
			if err := Recover(out); err != nil {
				t.Fatal(err)
			}
			if _, err := os.Stat(left); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("%d bytes: the leftover %s was not removed", len(base), filepath.Base(left))
			}
		}
	}
}
