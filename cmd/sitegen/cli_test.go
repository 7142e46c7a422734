package main

import (
	"os"
	"regexp"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
)

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"sitegen": func() { os.Exit(mainCode()) },
	})
}

// TestCLI runs the scripts in testdata/script: each is a small site and the
// commands a user types, with their expected output and exit codes.
func TestCLI(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir: "testdata/script",
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
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
