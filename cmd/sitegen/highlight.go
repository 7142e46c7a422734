package main

import (
	"errors"
	"io"

	"github.com/spf13/cobra"

	"sitegen/pkg/markdown"
)

func newHighlightCSS(stdout io.Writer) *cobra.Command {
	return &cobra.Command{
		Use:   "highlight-css STYLE",
		Short: "Print the stylesheet of a chroma style for highlighted code blocks",
		Long: "Print the CSS of the chroma style STYLE (github, monokai, dracula, ...) for the classes that\n" +
			"highlighted code blocks carry; save it under assets/css and load it with asset or stylesheet:\n" +
			"  sitegen highlight-css github > assets/css/code.css",
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) != 1 {
				return usageError{errors.New("name one style: sitegen highlight-css STYLE (for example github)")}
			}
			if err := markdown.HighlightCSS(stdout, args[0]); err != nil {
				return usageError{err}
			}
			return nil
		},
	}
}
