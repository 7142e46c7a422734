package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"

	"sitegen/pkg/build"
	"sitegen/pkg/diag"
)

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"sitegen": func() { os.Exit(mainCode()) },
	})
}

// TestCLI runs the scripts in testdata/script: each is a small site and the
// commands a user types, with their expected output and exit codes.
//
// A command expected to fail is written "exitcode N sitegen ...", never
// "! exec sitegen ...": "! exec" accepts any non-zero exit, so it cannot tell
// a content error (1) from a usage error (2). TestScriptsAssertExitCodes
// enforces this for every script, including new ones.
func TestCLI(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir: "testdata/script",
		// The build cache goes to the script's own folder, not to a
		// shared one (testscript's HOME is /no-home).
		// NODE_MODULES is the repository's node_modules, for a script
		// that builds islands in a site of its own (symlink it).
		Setup: func(env *testscript.Env) error {
			env.Setenv("XDG_CACHE_HOME", env.WorkDir+"/.cache")
			nm, err := filepath.Abs("../../node_modules")
			if err != nil {
				return err
			}
			env.Setenv("NODE_MODULES", nm)
			return nil
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			// exitcode N cmd args... runs cmd and fails unless it exits
			// with exactly N; its stdout and stderr are kept for the
			// stdout, stderr and cmp commands that follow.
			"exitcode": func(ts *testscript.TestScript, neg bool, args []string) {
				if neg {
					ts.Fatalf("unsupported: ! exitcode (give the code you expect)")
				}
				if len(args) < 2 {
					ts.Fatalf("usage: exitcode N command [args...]")
				}
				want, err := strconv.Atoi(args[0])
				if err != nil || want < 0 {
					ts.Fatalf("exitcode: %q is not an exit code", args[0])
				}
				got := 0
				if err := ts.Exec(args[1], args[2:]...); err != nil {
					var ee *exec.ExitError
					if !errors.As(err, &ee) {
						ts.Fatalf("exitcode: running %s: %v", args[1], err)
					}
					got = ee.ExitCode()
				}
				if got != want {
					ts.Fatalf("%s exited with %d, want %d", strings.Join(args[1:], " "), got, want)
				}
			},
			// waitout waits (at most 20 s) until the named background
			// command has printed a line matching the pattern.
			"waitout": func(ts *testscript.TestScript, neg bool, args []string) {
				if len(args) != 1 {
					ts.Fatalf("usage: waitout pattern")
				}
				re := regexp.MustCompile("(?m)" + args[0])
				for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
					if b, _ := os.ReadFile(ts.MkAbs("serve.log")); re.Match(b) {
						return
					}
				}
				ts.Fatalf("no output matching %q", args[0])
			},
		},
	})
}

// TestScriptsAssertExitCodes: no script checks a failing sitegen with
// "! exec", which would pass on any non-zero exit code.
func TestScriptsAssertExitCodes(t *testing.T) {
	scripts, _ := filepath.Glob("testdata/script/*.txtar")
	if len(scripts) == 0 {
		t.Fatal("no scripts")
	}
	bang := regexp.MustCompile(`(?m)^\s*!\s*exec\s+sitegen\b.*$`)
	for _, s := range scripts {
		b, err := os.ReadFile(s)
		if err != nil {
			t.Fatal(err)
		}
		script, _, _ := strings.Cut(string(b), "\n-- ") // the commands, not the archived files
		for _, line := range bang.FindAllString(script, -1) {
			t.Errorf("%s: %q accepts any non-zero exit; write \"exitcode N sitegen ...\" (1 content error, 2 usage error)", filepath.Base(s), strings.TrimSpace(line))
		}
	}
}

// TestExitCode: an internal error (a panic recovered during a build) exits 1
// like a site error, never 2, and prints one line without a stack trace.
func TestExitCode(t *testing.T) {
	internal := &build.InternalError{Doing: "rendering /pl/", Value: "boom"}
	for _, tt := range []struct {
		err  error
		want int
	}{
		{nil, 0},
		{usageError{errors.New("bad flag")}, 2},
		{internal, 1},
		{fmt.Errorf("wrapped: %w", internal), 1},
		{diag.New(diag.Pos{File: "x.md"}, "bad"), 1},
	} {
		if got := exitCode(context.Background(), tt.err); got != tt.want {
			t.Errorf("exitCode(%v) = %d, want %d", tt.err, got, tt.want)
		}
	}
	var b strings.Builder
	printErr(&b, internal)
	if want := "sitegen: internal error while rendering /pl/: boom (this is a bug in sitegen; please report it)\n"; b.String() != want {
		t.Errorf("printed %q, want %q", b.String(), want)
	}
}
