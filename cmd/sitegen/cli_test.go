package main

import (
	"context"
	"os"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"sitegen": func() { os.Exit(run(context.Background(), os.Args[1:], os.Stdout, os.Stderr)) },
	})
}

// TestCLI runs the scripts in testdata/script: each is a small site and the
// commands a user types, with their expected output and exit codes.
func TestCLI(t *testing.T) {
	testscript.Run(t, testscript.Params{Dir: "testdata/script"})
}
