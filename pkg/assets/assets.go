// Package assets bundles the site's stylesheet and scripts through esbuild's
// Go API into fingerprinted files under /_assets/, cacheable forever.
package assets

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/evanw/esbuild/pkg/api"

	"sitegen/pkg/diag"
	"sitegen/pkg/esbuildcache"
	"sitegen/pkg/esbuildmsg"
	"sitegen/pkg/sitepath"
)

// Dir is the assets folder of a site; Public is where bundles are served.
const (
	Dir    = "assets"
	Public = "/" + sitepath.Assets + "/"
)

// Entries are the engine's bundled entry points, relative to assets/, when
// they exist: the site's stylesheet and the client runtime. A site adds its
// own (site.yaml assets.entries), each bundled on its own.
var Entries = []string{"css/main.css", "runtime/runtime.js"}

// Result is the bundled assets.
type Result struct {
	URLs  map[string]string // entry ("css/main.css") or web font ("fonts/inter-latin-wght.woff2") -> URL ("/_assets/main-HASH.css")
	Files map[string][]byte // output path below the root -> bytes
}

// Bundle bundles the engine's entries found under root/assets and the
// site's own entries (which must exist).
func Bundle(root string, minify bool, siteEntries ...string) (*Result, error) {
	return BundleCached(root, minify, nil, siteEntries...)
}

// BundleCached is Bundle through a build cache (see pkg/esbuildcache); a
// nil cache runs esbuild every time.
func BundleCached(root string, minify bool, c *esbuildcache.Cache, siteEntries ...string) (*Result, error) {
	res := &Result{URLs: map[string]string{}, Files: map[string][]byte{}}
	var entries []string
	for _, e := range Entries {
		if _, err := os.Stat(filepath.Join(root, Dir, e)); err == nil {
			entries = append(entries, e)
		}
	}
	for _, e := range siteEntries {
		if _, err := os.Stat(filepath.Join(root, Dir, filepath.FromSlash(e))); err != nil {
			return nil, diag.New(diag.Pos{File: "site.yaml"}, "assets.entries: no file %s/%s", Dir, e).
				WithHint("list files under assets/, like runtime/topbar-now.js")
		}
		if !slices.Contains(entries, e) {
			entries = append(entries, e)
		}
	}
	if len(entries) == 0 {
		return res, nil
	}
	absRoot, err := filepath.Abs(root)
	if err != nil {
		return nil, err
	}
	outdir := filepath.Join(absRoot, ".sitegen-assets-out")
	points := make([]api.EntryPoint, len(entries))
	for i, e := range entries {
		points[i] = api.EntryPoint{InputPath: filepath.Join(absRoot, Dir, e), OutputPath: strings.TrimSuffix(path.Base(e), path.Ext(e))}
	}
	r := c.Build(api.BuildOptions{
		EntryPointsAdvanced: points,
		AbsWorkingDir:       absRoot,
		Bundle:              true,
		Splitting:           true, // the runtime's lazy parts (web vitals) are chunks
		Write:               false,
		Outdir:              outdir,
		EntryNames:          "[name]-[hash]",
		ChunkNames:          "[name]-[hash]",
		AssetNames:          "[name]-[hash]",
		PublicPath:          Public,
		Format:              api.FormatESModule,
		Target:              api.ES2020,
		// Class fields as written (every browser with ES modules in use has
		// them): no shared helper chunk that every entry would import.
		Supported:         map[string]bool{"class-field": true},
		Platform:          api.PlatformBrowser,
		MinifyWhitespace:  minify,
		MinifySyntax:      minify,
		MinifyIdentifiers: minify,
		Metafile:          true,
		Charset:           api.CharsetUTF8,
		Loader: map[string]api.Loader{
			".woff2": api.LoaderFile, ".woff": api.LoaderFile, ".ttf": api.LoaderFile,
			".svg": api.LoaderFile, ".png": api.LoaderFile, ".jpg": api.LoaderFile, ".webp": api.LoaderFile,
		},
		NodePaths: []string{filepath.Join(absRoot, "node_modules")},
		LogLevel:  api.LogLevelSilent,
	})
	if err := esbuildmsg.Err(absRoot, r.Errors); err != nil {
		return nil, err
	}
	names := make([]string, 0, len(r.OutputFiles))
	byName := map[string][]byte{}
	for _, f := range r.OutputFiles {
		rel, err := filepath.Rel(outdir, f.Path)
		if err != nil {
			return nil, err
		}
		rel = filepath.ToSlash(rel)
		byName[rel] = f.Contents
		names = append(names, rel)
	}
	sort.Strings(names)
	for _, n := range names {
		if strings.HasSuffix(n, ".map") {
			continue
		}
		res.Files[strings.TrimPrefix(Public, "/")+n] = byName[n]
		// Web fonts by their source name ("fonts/inter-latin-wght.woff2"),
		// for the head's preloads.
		if path.Ext(n) == ".woff2" && !strings.Contains(n, "/") {
			if i := strings.LastIndexByte(n, '-'); i > 0 {
				res.URLs["fonts/"+n[:i]+".woff2"] = Public + n
			}
		}
		for _, e := range entries {
			base := strings.TrimSuffix(path.Base(e), path.Ext(e))
			if strings.HasPrefix(n, base+"-") && path.Ext(n) == path.Ext(e) && !strings.Contains(n, "/") {
				res.URLs[e] = Public + n
			}
		}
	}
	for _, e := range entries {
		if res.URLs[e] == "" {
			return nil, fmt.Errorf("assets: no output for %s", e)
		}
	}
	return res, nil
}
