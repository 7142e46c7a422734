package build

import (
	"context"
	"io/fs"
	"path"
	"slices"
	"time"

	"sitegen/pkg/assets"
	"sitegen/pkg/config"
	"sitegen/pkg/diag"
	"sitegen/pkg/esbuildcache"
	"sitegen/pkg/htmlmin"
	"sitegen/pkg/islands"
)

// htmlMinifier returns the minifier of the pages' HTML when minify is on
// (--minify, like the CSS and JavaScript bundles), else nil.
func htmlMinifier(minify bool) *htmlmin.Minifier {
	if !minify {
		return nil
	}
	return htmlmin.New()
}

// bundling is what esbuild made of the site's assets and islands.
type bundling struct {
	assets      *assets.Result
	assetsErr   error
	islands     *islands.Bundle // nil without assets/islands/
	islandsErr  error
	islandsTime time.Duration
}

// close releases the islands' engines.
func (b bundling) close() {
	if b.islands != nil {
		b.islands.Close()
	}
}

// failed adds to errs why the assets or the islands did not bundle, and
// says why nothing renders then ("": they bundled).
func (b bundling) failed(errs *diag.List) (noRender string) {
	if b.assetsErr != nil {
		errs.AddErr(diag.Pos{File: assets.Dir}, b.assetsErr)
		noRender = "the stylesheets and scripts in assets/ did not bundle"
	}
	if b.islandsErr != nil {
		errs.AddErr(diag.Pos{File: islands.Dir}, b.islandsErr)
		noRender = "the islands in assets/islands/ did not bundle"
	}
	return noRender
}

// bundle bundles the stylesheets and scripts under assets/ and the islands
// under assets/islands/.
func bundle(ctx context.Context, opts Options, root string, fsys fs.FS, cfg *config.Config, bundles *esbuildcache.Cache) bundling {
	b := bundling{assets: &assets.Result{URLs: map[string]string{}, Files: map[string][]byte{}}}
	assetsDone := make(chan struct{})
	go func() { // at the same time as the islands
		defer close(assetsDone)
		if opts.FS == nil { // a tree from elsewhere has nothing to bundle (diskOnly)
			if res, err := assets.BundleCached(root, opts.Minify, bundles, cfg.Assets.Entries...); err != nil {
				b.assetsErr = err
			} else {
				b.assets = res
			}
		}
	}()
	// esbuild reads the site from disk itself: what it looks up there is
	// looked up through fsys too, for the record (the files it reads are
	// recorded from its metafiles: esbuildcache.Cache.Inputs).
	for _, e := range append(slices.Clone(assets.Entries), cfg.Assets.Entries...) {
		fs.Stat(fsys, path.Join(assets.Dir, e))
	}
	if st, err := fs.Stat(fsys, islands.Dir); err == nil && st.IsDir() {
		fs.ReadDir(fsys, islands.Dir) // the islands are its .jsx files
		t0 := time.Now()
		io := islandOptions(root, cfg, opts.Minify)
		io.Cache = bundles
		b.islands, b.islandsErr = islands.Build(ctx, io)
		b.islandsTime = time.Since(t0)
	}
	<-assetsDone
	return b
}

func islandOptions(root string, cfg *config.Config, minify bool) islands.Options {
	return islands.Options{Root: root, Library: cfg.Islands.Library, Minify: minify,
		RenderTimeout: cfg.Islands.RenderTimeout.Duration, BuildBudget: cfg.Islands.BuildBudget.Duration}
}
