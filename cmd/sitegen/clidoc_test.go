package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/cobra/doc"
)

var updateCLIDoc = flag.Bool("update", false, "rewrite docs/cli.md from the commands")

const cliDocFile = "../../docs/cli.md"

// TestCLIDoc: docs/cli.md is what cobra's doc generator writes for every
// command and flag of sitegen, so the reference cannot drift from the
// commands (go test ./cmd/sitegen -run TestCLIDoc -update rewrites it).
func TestCLIDoc(t *testing.T) {
	var b bytes.Buffer
	if err := writeCLIDoc(&b, newRoot(io.Discard, io.Discard)); err != nil {
		t.Fatal(err)
	}
	if *updateCLIDoc {
		if err := os.WriteFile(cliDocFile, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(cliDocFile)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, b.Bytes()) {
		t.Errorf("docs/cli.md differs from the commands' help; run go test ./cmd/sitegen -run TestCLIDoc -update and commit it.\ngenerated:\n%s", b.String())
	}
}

// writeCLIDoc writes the reference of root and every command below it,
// one section each, linking to each other within the page.
func writeCLIDoc(w io.Writer, root *cobra.Command) error {
	fmt.Fprint(w, "# The sitegen command line\n\n"+
		"Generated from the commands' own help by `go test ./cmd/sitegen -run TestCLIDoc -update`;\n"+
		"`sitegen COMMAND --help` prints the same. Exit codes: `0` success, `1` errors in the site\n"+
		"(each printed as `file:line:col: message`), `2` a wrong command line, `130` stopped by\n"+
		"Ctrl+C or SIGTERM.\n\n")
	link := func(name string) string {
		return "#" + strings.ReplaceAll(strings.TrimSuffix(name, ".md"), "_", "-")
	}
	var visit func(c *cobra.Command) error
	visit = func(c *cobra.Command) error {
		if !c.IsAvailableCommand() && c != root {
			return nil
		}
		c.DisableAutoGenTag = true
		// The cache folder's default is the user's: show its rule.
		if f := c.Flags().Lookup("cache-dir"); f != nil {
			f.DefValue = "$XDG_CACHE_HOME/sitegen or ~/.cache/sitegen"
		}
		var sec bytes.Buffer
		if err := doc.GenMarkdownCustom(c, &sec, link); err != nil {
			return err
		}
		// One page holds every command: their headings go one level down.
		for _, line := range strings.SplitAfter(sec.String(), "\n") {
			if strings.HasPrefix(line, "#") {
				line = "#" + line
			}
			io.WriteString(w, line)
		}
		for _, sub := range c.Commands() {
			if err := visit(sub); err != nil {
				return err
			}
		}
		return nil
	}
	return visit(root)
}
