package main

import (
	"io"
	"os"

	"github.com/spf13/cobra"

	"sitegen/pkg/diag"
	"sitegen/pkg/schema"
)

// newSchema prints the site's content types as JSON Schema, for editors: a
// YAML language server given it validates and completes data files.
func newSchema(stdout io.Writer) *cobra.Command {
	var source string
	var frontMatter bool
	cmd := &cobra.Command{
		Use:   "schema",
		Short: "Print the site's content types (" + schema.FileName + ") as JSON Schema for editors",
		Long: "Print the record types declared in " + schema.FileName + " as JSON Schema (draft-07) for the data\n" +
			"files under content/<locale>/data/. Save it (sitegen schema > .sitegen-data.schema.json) and\n" +
			"point your YAML language server at it, e.g. in VS Code settings:\n" +
			`  "yaml.schemas": {".sitegen-data.schema.json": "content/*/data/*.yaml"}` + "\n\n" +
			"With --front-matter it prints the schema of a page's front matter instead (the engine's keys,\n" +
			"params as declared by the page: and sections: blocks of " + schema.FileName + "), for a front matter\n" +
			"validator such as remark-lint-frontmatter-schema: see docs/content-model.md.",
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) > 0 {
				return usageError{errUnexpected(args[0])}
			}
			fsys := os.DirFS(source)
			s, err := schema.Load(fsys)
			if err != nil {
				return noBuild{what: schema.FileName, err: diag.AttachSource(fsys, err)}
			}
			b, err := s.JSONSchema()
			if frontMatter {
				b, err = s.FrontMatterJSONSchema()
			}
			if err != nil {
				return err
			}
			_, err = stdout.Write(b)
			return err
		},
	}
	cmd.Flags().BoolVar(&frontMatter, "front-matter", false, "print the schema of page front matter instead of data files")
	cmd.Flags().StringVarP(&source, "source", "s", ".", "site root (holds "+schema.FileName+")")
	cmd.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return usageError{err} })
	return cmd
}
