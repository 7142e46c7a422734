package assets

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/evanw/esbuild/pkg/api"

	"sitegen/pkg/esbuildcache"
)

// Worker sources under assets/: the caching service worker and the one that
// retires it.
const (
	WorkerSource = "runtime/sw.js"
	RetireSource = "runtime/sw-retire.js"
)

// WorkerOptions are what the service worker is built with.
type WorkerOptions struct {
	Minify bool
	Retire bool                // ship the worker that unregisters itself
	Build  string              // build hash: names the caches
	Pages  map[string]string   // locale prefix ("/pl") -> its offline page URL
	Cache  *esbuildcache.Cache // the build cache; nil: none
}

// Worker bundles /sw.js (published at the root, not fingerprinted, so that
// its scope is the whole site), or nil when the site has no worker source.
func Worker(root string, o WorkerOptions) ([]byte, error) {
	src := WorkerSource
	if o.Retire {
		src = RetireSource
	}
	abs, err := filepath.Abs(filepath.Join(root, Dir, src))
	if err != nil {
		return nil, err
	}
	if _, err := os.Stat(abs); err != nil {
		if o.Retire {
			return nil, fmt.Errorf("serviceWorker.retire is set but %s/%s is missing: %w", Dir, src, err)
		}
		return nil, nil
	}
	pages, err := json.Marshal(o.Pages)
	if err != nil {
		return nil, err
	}
	build, _ := json.Marshal(o.Build)
	r := o.Cache.Build(api.BuildOptions{
		EntryPoints:       []string{abs},
		Bundle:            true,
		Write:             false,
		Format:            api.FormatIIFE,
		Target:            api.ES2020,
		Platform:          api.PlatformBrowser,
		MinifyWhitespace:  o.Minify,
		MinifySyntax:      o.Minify,
		MinifyIdentifiers: o.Minify,
		Charset:           api.CharsetUTF8,
		Define:            map[string]string{"__SG_BUILD__": string(build), "__SG_OFFLINE__": string(pages)},
		LogLevel:          api.LogLevelSilent,
	})
	if len(r.Errors) > 0 {
		m := r.Errors[0]
		if m.Location != nil {
			return nil, fmt.Errorf("%s:%d:%d: %s", m.Location.File, m.Location.Line, m.Location.Column+1, m.Text)
		}
		return nil, fmt.Errorf("%s: %s", src, m.Text)
	}
	if len(r.OutputFiles) != 1 {
		return nil, fmt.Errorf("%s: %d outputs", src, len(r.OutputFiles))
	}
	return r.OutputFiles[0].Contents, nil
}
