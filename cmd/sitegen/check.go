package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"

	"sitegen/pkg/build"
	"sitegen/pkg/check"
)

func newCheck(stdout, stderr io.Writer) *cobra.Command {
	var o build.Options
	var format, cacheFile string
	var external, strict bool
	var concurrency int
	var timeout time.Duration
	cmd := &cobra.Command{
		Use:   "check",
		Short: "Check links, anchors, translations, alt texts, titles and byte budgets (for CI)",
		Long: `Check builds the site in memory and reports, as file:line:col: severity: message
(or JSON with --format json): broken internal links and #anchors in every
locale, redirects that lead nowhere, hreflang pairs that are not reciprocal,
pages, strings and data sets missing in a locale, images without alt text,
pages without title or description, duplicate titles in a locale, and pages
over the HTML, CSS and JS budgets of site.yaml. --external also checks links
to other sites. Exit status 1 on errors, and with --strict on warnings too.`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := checkOpts(&o, args); err != nil {
				return err
			}
			if format != "text" && format != "json" {
				return usageError{fmt.Errorf("--format %q must be text or json", format)}
			}
			if concurrency < 1 || timeout <= 0 {
				return usageError{fmt.Errorf("--concurrency must be at least 1 and --timeout positive")}
			}
			opts := check.Options{Build: o}
			if external {
				if cacheFile == "" {
					if dir, err := os.UserCacheDir(); err == nil {
						cacheFile = filepath.Join(dir, "sitegen", "external-links.json")
					}
				}
				opts.External = &check.External{Concurrency: concurrency, Timeout: timeout, CacheFile: cacheFile}
			}
			rep, err := check.Run(cmd.Context(), opts)
			if err != nil {
				return err
			}
			if format == "json" {
				if err := rep.WriteJSON(stdout); err != nil {
					return err
				}
			} else {
				rep.WriteText(stdout)
			}
			if rep.Failed(strict) {
				return checkFailed{}
			}
			return nil
		},
	}
	buildFlags(cmd, &o)
	cmd.Flags().StringVar(&format, "format", "text", "output format: text (file:line:col: severity: message) or json")
	cmd.Flags().BoolVar(&external, "external", false, "also check links to other sites")
	cmd.Flags().BoolVar(&strict, "strict", false, "fail on warnings too")
	cmd.Flags().IntVar(&concurrency, "concurrency", 8, "external links checked at once")
	cmd.Flags().DurationVar(&timeout, "timeout", 10*time.Second, "time allowed for each external link")
	cmd.Flags().StringVar(&cacheFile, "cache-file", "", "where good external links are remembered for a day (default in the user cache folder)")
	cmd.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return usageError{err} })
	return cmd
}

// checkFailed is the exit of a check that found errors (already printed).
type checkFailed struct{}

func (checkFailed) Error() string { return "check failed" }
