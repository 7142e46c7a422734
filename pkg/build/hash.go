package build

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"maps"
	"path"
	"slices"
	"sort"
	"strings"

	"sitegen/pkg/assets"
	"sitegen/pkg/config"
	"sitegen/pkg/content"
	"sitegen/pkg/images"
	"sitegen/pkg/islands"
	"sitegen/pkg/route"
	"sitegen/pkg/schema"
)

// cacheSalt names everything a cached page, Markdown render or island SSR
// depends on besides its own inputs and its trace: sitegen's version and
// the build hash (config, templates, assets, data, strings,
// package-lock.json), the options and the build date, the islands bundle,
// the bundled assets' URLs, the image encoders, and the route plan that
// links resolve through (every page's id, locale and URL, and every
// redirect).
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

// buildHash hashes what the client runtime and the page chrome depend on:
// config, templates, assets, data sets and UI strings, and sitegen's version.
// Page bodies are left out on purpose: editing one page's text changes that
// page only, and every other page stays byte-identical.
func buildHash(fsys fs.FS) (string, error) {
	h := sha256.New()
	fmt.Fprintf(h, "sitegen %s\n", Version)
	var files []string
	for _, root := range []string{config.FileName, schema.FileName, "templates", "assets", content.Dir, "package-lock.json"} {
		if _, err := fs.Stat(fsys, root); err != nil {
			continue
		}
		err := fs.WalkDir(fsys, root, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() {
				return nil
			}
			if strings.HasPrefix(p, content.Dir+"/") && path.Ext(p) == ".md" {
				return nil
			}
			files = append(files, p)
			return nil
		})
		if err != nil {
			return "", err
		}
	}
	sort.Strings(files)
	for _, f := range files {
		b, err := fs.ReadFile(fsys, f)
		if err != nil {
			return "", err
		}
		fmt.Fprintf(h, "%s %d\n", f, len(b))
		h.Write(b)
	}
	return hex.EncodeToString(h.Sum(nil))[:20], nil
}
