package build

import (
	"crypto/sha256"
	"fmt"
	"io/fs"
	"maps"
	"slices"
	"strings"

	"sitegen/pkg/assets"
	"sitegen/pkg/config"
	"sitegen/pkg/images"
	"sitegen/pkg/islands"
	"sitegen/pkg/route"
)

// cacheSalt names everything a cached page, Markdown render or island SSR
// depends on besides its own inputs and its trace: sitegen's version and
// the build hash (what the load read: config, templates, data, strings,
// static files and images; see deps.Record.LoadHash), the options and the build date, the islands bundle,
// the bundled assets' URLs, the image encoders, and the route plan that
// links resolve through (every page's id, locale and URL, the items of
// every page of a paged list, every term's spelling, and every redirect).
func cacheSalt(opts Options, date string, cfg *config.Config, hash string, plan *route.Plan, bundle *islands.Bundle,
	bundled *assets.Result, scripts []string, imgs *images.Processor) []byte {
	h := sha256.New()
	fmt.Fprintf(h, "sitegen %s\nbuild %s\nbase %s\ndrafts %t\ndate %s\nminify %t\nhighlight %t\n",
		Version, hash, cfg.BaseURL, opts.Drafts, date, opts.Minify, cfg.Markdown.HighlightCode())
	if bundle != nil {
		fmt.Fprintf(h, "islands %s\n", bundle.Hash())
	}
	for _, name := range slices.Sorted(maps.Keys(bundled.URLs)) {
		fmt.Fprintf(h, "asset %q %q\n", name, bundled.URLs[name])
	}
	fmt.Fprintf(h, "scripts %q\nimages %q\n", scripts, imgs.EncoderIDs())
	for _, e := range plan.Entries {
		fmt.Fprintf(h, "entry %q %q %q %t %t\n", e.ID, e.Lang, e.URL, e.Fallback, e.Root)
		if e.Pager != nil { // which pages a list shows on this page, and how many it has
			fmt.Fprintf(h, "pager %s of %d\n", e.Pager, e.Pager.All)
		}
		if e.Term != nil { // its spelling, shown wherever a page's terms are
			fmt.Fprintf(h, "term %q\n", e.Term.Name)
		}
	}
	for _, r := range plan.Redirects {
		fmt.Fprintf(h, "redirect %q %q\n", r.From, r.To)
	}
	return h.Sum(nil)
}

// staticFiles lists the site paths of files under assets/static.
func staticFiles(fsys fs.FS) (map[string]bool, error) {
	out := map[string]bool{}
	if _, err := fs.Stat(fsys, StaticDir); err != nil {
		return out, nil
	}
	err := fs.WalkDir(fsys, StaticDir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			out[strings.TrimPrefix(p, StaticDir)] = true
		}
		return nil
	})
	return out, err
}
