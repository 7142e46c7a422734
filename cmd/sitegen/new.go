package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"sitegen/pkg/diag"
	"sitegen/pkg/scaffold"
)

func newNew(stdout, stderr io.Writer) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "new",
		Short: "Create source files (new page)",
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) > 0 {
				return usageError{fmt.Errorf("unknown kind %q (sitegen new page ...)", args[0])}
			}
			return usageError{errors.New("say what to create: sitegen new page --id ID --layout LAYOUT --slug pl=... --slug en=...")}
		},
		RunE: func(cmd *cobra.Command, args []string) error { return nil },
	}
	var o scaffold.PageOptions
	var slugs, titles []string
	page := &cobra.Command{
		Use:   "page",
		Short: "Write a new page in every locale (as a draft), refusing an id or path the site has",
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) > 0 {
				return usageError{fmt.Errorf("unexpected argument %q", args[0])}
			}
			if o.ID == "" || o.Layout == "" {
				return usageError{errors.New("--id and --layout are required")}
			}
			var err error
			if o.Slugs, err = pairs("--slug", slugs); err != nil {
				return err
			}
			if o.Titles, err = pairs("--title", titles); err != nil {
				return err
			}
			files, err := scaffold.NewPage(cmd.Context(), o)
			if errors.Is(err, scaffold.ErrUsage) {
				return usageError{errors.New(strings.TrimPrefix(err.Error(), "usage: "))}
			}
			var site *scaffold.SiteError
			if errors.As(err, &site) {
				return noBuild{what: site.What, err: diag.AttachSource(os.DirFS(o.Source), site.Err), note: "fix them before adding a page; nothing was written"}
			}
			if err != nil {
				return noBuild{what: "the new page", err: diag.AttachSource(os.DirFS(o.Source), err), note: "nothing was written"}
			}
			for _, f := range files {
				fmt.Fprintf(stdout, "created %s\n", f)
			}
			fmt.Fprintln(stdout, "the page is a draft: see it with sitegen serve --drafts; remove draft: true to publish it")
			return nil
		},
	}
	page.Flags().StringVarP(&o.Source, "source", "s", ".", "site root (holds site.yaml)")
	page.Flags().StringVar(&o.ID, "id", "", "page id, the same in every locale")
	page.Flags().StringVar(&o.Layout, "layout", "", "layout (templates/layouts/LAYOUT.html)")
	page.Flags().StringArrayVar(&slugs, "slug", nil, "LOCALE=slug, once per locale")
	page.Flags().StringArrayVar(&titles, "title", nil, "LOCALE=title (default: from the slug)")
	page.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return usageError{err} })
	cmd.AddCommand(page)
	return cmd
}

// pairs parses repeated LOCALE=value flags.
func pairs(flag string, list []string) (map[string]string, error) {
	m := map[string]string{}
	for _, s := range list {
		k, v, ok := strings.Cut(s, "=")
		if !ok || k == "" {
			return nil, usageError{fmt.Errorf("%s %q must be LOCALE=value", flag, s)}
		}
		if _, dup := m[k]; dup {
			return nil, usageError{fmt.Errorf("%s given twice for %s", flag, k)}
		}
		m[k] = v
	}
	return m, nil
}
