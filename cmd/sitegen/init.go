package main

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"

	"github.com/spf13/cobra"

	"sitegen/pkg/starter"
)

func newInit(stdout io.Writer) *cobra.Command {
	var o starter.Options
	cmd := &cobra.Command{
		Use:   "init [DIR]",
		Short: "Write a starter site (two locales, a data set, an island) into an empty or new folder",
		Long: "Write a small starter site into DIR (default: the current folder), which must be empty or\n" +
			"not exist: site.yaml, schema.yaml, English and Polish pages (home, about, 404, 500), a data set,\n" +
			"templates, a stylesheet (inline, allowed by its hash in the CSP), a favicon, one island\n" +
			"(assets/islands/Counter.jsx, bundled with Preact from node_modules: package.json and\n" +
			"package-lock.json pin it, run npm install once; --no-islands leaves them out), a .gitignore\n" +
			"for what sitegen and npm write, and VS Code settings for the data files' JSON Schema.",
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) > 1 {
				return usageError{errUnexpected(args[1])}
			}
			dir := "."
			if len(args) == 1 {
				dir = args[0]
			}
			files, err := starter.Write(dir, o)
			if errors.Is(err, starter.ErrNotEmpty) {
				return usageError{err}
			}
			if err != nil {
				return err
			}
			for _, f := range files {
				fmt.Fprintf(stdout, "created %s\n", filepath.ToSlash(filepath.Join(dir, f)))
			}
			cd := ""
			if dir != "." {
				cd = fmt.Sprintf("  cd %s\n", dir)
			}
			npm := "  npm install                 # Preact, for the island (once)\n"
			if o.NoIslands {
				npm = ""
			}
			fmt.Fprintf(stdout, "\nA new site is in %s. Next:\n%s%s"+
				"  sitegen serve               # preview at http://127.0.0.1:1313/, reloads on save\n"+
				"  sitegen build && sitegen check   # write public/ and check its links\n"+
				"  sitegen schema > .sitegen-data.schema.json   # completion for content/*/data/*.yaml\n"+
				"Then deploy public/ to any static host: see docs/getting-started.md (in sitegen's release archive).\n", dir, cd, npm)
			return nil
		},
	}
	cmd.Flags().BoolVar(&o.NoIslands, "no-islands", false, "leave the island out (no package.json or package-lock.json, no npm install)")
	cmd.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return usageError{err} })
	return cmd
}
