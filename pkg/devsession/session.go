// Package devsession keeps a site loaded in memory for sitegen serve and
// renders its pages when they are asked for (File). Loading reads what any
// page needs to render and link (front matter, routes, data, strings,
// templates, bundles) and lays out the site-wide files; a page is rendered
// on its first request and its bytes kept in a cache of bounded size
// (Options.Cache), with what the render used (build.Page.Deps). An Update
// parses again only the files that changed, compares the new site with
// the last good one and forgets the pages whose recorded dependencies
// changed; the few of them still in the cache (the open tabs) render again
// at once, the rest when they are asked for. CheckNext renders the pages
// never asked for, one at a time, for the errors only a render finds.
// Nothing is written to disk.
//
// Everything of loading, assembling and laying out a site is pkg/build's
// (its file session.go is what a session uses): this package decides what
// an edit changed, what to forget, and what to render when.
//
// The build hash is fixed for the session: it is in every page's head, and
// changing it on every data edit would invalidate every page; the dev
// server reloads open tabs itself.
package devsession

import (
	"context"
	"maps"
	"path"
	"runtime"
	"slices"
	"sync"
	"time"

	"sitegen/pkg/build"
	"sitegen/pkg/config"
	"sitegen/pkg/content"
	"sitegen/pkg/diag"
	"sitegen/pkg/images"
	parallelpkg "sitegen/pkg/internal/parallel"
	"sitegen/pkg/output"
	"sitegen/pkg/render"
	"sitegen/pkg/sitefs"
)

// Options of a session.
type Options struct {
	Build build.Options
	// Cache is how many bytes of rendered pages the session keeps (the
	// pages asked for last); 0 means DefaultCache.
	Cache int64
}

// DefaultCache is the default of Options.Cache.
const DefaultCache = 128 << 20

// Session is a site loaded for the dev server. It is safe for concurrent
// use: its methods take turns.
type Session struct {
	mu    sync.Mutex
	opts  Options
	fsys  *sitefs.FS
	files map[string]*content.SourceFile // parsed content files by path
	// urls are the URLs the pages link for each asset entry, fixed at the
	// first load (build.Parts.URLs); a new map when they change.
	urls map[string]string

	// out keeps the rendered bytes of the pages and static files asked
	// for last, up to Options.Cache bytes.
	out  *output.MemTree
	deps depKeys

	good *state // the last site without errors; nil before one
	// refused is the site of the last load or update when a build
	// refuses it but its pages can render: they render for their errors
	// (CheckNext), which Problems reports, while good's are served.
	// failed are the errors of the last load or update when it failed
	// otherwise (all of them: nothing of it renders). Both are nil after
	// one that succeeded (refused.go).
	refused  *state
	refusing bool // the load or update under way was refused (outcome)
	failed   diag.List
	// pending are source changes not yet part of a good site (the update
	// that saw them failed); they count again in the next one.
	pending map[string]bool
}

// Result is what an update did.
type Result struct {
	// Rendered are the URLs of the pages rendered again, sorted; Stale
	// those forgotten, to render when asked for; Removed the URLs of pages
	// that no longer exist, Added of those new.
	Rendered, Stale, Removed, Added []string
	// Changed are the output paths whose bytes changed or that were
	// added or removed (of a page forgotten: every path it had in the
	// cache), sorted.
	Changed []string
	// StyleOnly is true when only stylesheets changed: open tabs can swap
	// them without a reload.
	StyleOnly bool
	// Full is true when the update loaded everything again (site.yaml
	// changed).
	Full     bool
	Pages    int // pages in the site
	Duration time.Duration
	// ReadContent is how long a full load took to read and parse the
	// content files (their front matter), part of Duration.
	ReadContent time.Duration
	// RedirectTable is what the host redirects (see hosting.NewHandler).
	RedirectTable map[string]string
	// Fallback names, per output path of an HTML page shown from the
	// default locale, the file it shows (for the dev-only marker).
	Fallback map[string]string
	// Prefixes are the locales' URL prefixes.
	Prefixes []string
	// Images makes any picture variant the pages name, on demand
	// (Processor.Variant), and all of them (Processor.Run, into the image
	// cache).
	Images *images.Processor
}

// New loads the site at opts.Build.Source; its pages render when asked for.
// A site with errors gives them all (and a session to Update).
func New(ctx context.Context, opts Options) (*Session, *Result, error) {
	root := opts.Build.Source
	if root == "" {
		root = "."
	}
	if opts.Cache <= 0 {
		opts.Cache = DefaultCache
	}
	d := &Session{opts: opts, pending: map[string]bool{}, out: output.NewMemCache(opts.Cache), deps: depKeys{}}
	fsys, err := sitefs.New(root)
	if err != nil {
		return d, nil, err
	}
	d.fsys = fsys
	d.mu.Lock()
	defer d.mu.Unlock()
	res, err := d.outcome(d.full(ctx))
	return d, res, err
}

// Close releases the island engines.
func (d *Session) Close() error {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.dropRefused()
	if d.good != nil {
		return d.good.site.Close()
	}
	return nil
}

// Config returns the site's configuration of the last successful load (nil
// before one).
func (d *Session) Config() *config.Config {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.good == nil {
		return nil
	}
	return d.good.site.Config
}

// full loads everything again, as on start and after site.yaml changes,
// the way a build loads a site (build.LoadLive).
func (d *Session) full(ctx context.Context) (*Result, error) {
	start := time.Now()
	d.fsys.Forget()
	live, err := build.LoadLive(ctx, d.opts.Build, d.fsys)
	if err != nil {
		return nil, err
	}
	site := live.Site
	if site.Refused() {
		return nil, d.refuse(newState(site))
	}
	d.dropRefused()
	d.files = make(map[string]*content.SourceFile, len(live.Files))
	for i := range live.Files {
		d.files[live.Files[i].Path] = &live.Files[i]
	}
	d.urls = site.Assets.URLs
	st := newState(site)
	res := d.result(st)
	res.Changed = d.out.Names() // so open tabs reload
	if old := d.good; old != nil {
		res.Changed = append(res.Changed, changedFiles(old.wide, st.wide)...)
		res.Changed = slices.AppendSeq(res.Changed, maps.Keys(old.made))
		if old.site.Islands != nil && old.site.Islands != site.Islands {
			old.site.Islands.Close()
		}
	}
	slices.Sort(res.Changed)
	res.Changed = slices.Compact(res.Changed)
	d.out = output.NewMemCache(d.opts.Cache)
	d.good = st
	res.Full = true
	res.Duration, res.ReadContent = time.Since(start), live.ReadContent
	return res, nil
}

// Update rebuilds after the files at paths (slash paths below the site root;
// files or folders, present or gone) changed. On error the last good site
// stays as it was and the changes count again in the next update; the
// error holds the errors a build of the same files reports: all of them
// when none of its pages can render, else those found without rendering
// a page, and Problems has the others as the pages render (CheckNext).
func (d *Session) Update(ctx context.Context, paths []string) (*Result, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.outcome(d.update(ctx, paths))
}

func (d *Session) update(ctx context.Context, paths []string) (*Result, error) {
	start := time.Now()
	d.fsys.Forget() // a folder may have become a link
	for _, p := range paths {
		d.pending[path.Clean(p)] = true
	}
	// A named pipe or link that appeared is an error, as in a build.
	if bad := d.fsys.CheckPaths(slices.Collect(maps.Keys(d.pending))); len(bad) > 0 {
		return nil, bad.Err()
	}
	ch, full := d.sortPending()
	if full {
		res, err := d.full(ctx)
		if err != nil {
			return nil, err
		}
		clear(d.pending)
		return res, nil
	}
	good := d.good.site
	copts := good.ContentOptions()
	parallel(len(ch.reparse), func(i int) { ch.reparse[i].Parse(d.fsys, copts) })
	changed := map[string]bool{} // dependency keys
	p, styleOnly, err := d.parts(ctx, ch, changed)
	if err != nil {
		return nil, err
	}
	st, err := d.next(ctx, p, changed, d.bodiesOnly(ch, changed))
	if err == nil && st.site.Refused() {
		return nil, d.refuse(st) // its pages render with p.Islands
	}
	if err == nil {
		d.dropRefused()
	}
	if p.Islands != good.Islands { // one of the two bundles is done with
		done := good.Islands
		if err != nil {
			done = p.Islands
		}
		if done != nil {
			done.Close()
		}
	}
	if err != nil {
		return nil, err
	}
	d.urls = p.URLs
	res := d.carry(ctx, st, changed)
	res.Changed = append(res.Changed, d.staleStatics(ch.statics, good.Statics, p.Statics)...)
	slices.Sort(res.Changed)
	res.Changed = slices.Compact(res.Changed)
	d.good = st
	clear(d.pending)
	res.StyleOnly = styleOnly && len(res.Rendered) == 0 && len(res.Stale) == 0 && len(res.Removed) == 0
	res.Duration = time.Since(start)
	return res, nil
}

// parts are the parts of the good site with those the changes touch made
// again, and the dependency keys they change; styleOnly says only
// stylesheets changed.
func (d *Session) parts(ctx context.Context, ch changes, changed map[string]bool) (p build.Parts, styleOnly bool, err error) {
	good := d.good.site
	p = build.Parts{Statics: good.Statics, Assets: good.Assets, Islands: good.Islands, URLs: d.urls, Templates: len(ch.templates) > 0}
	// The variants' names are fingerprinted: the pages showing a photo
	// that changed change with it.
	d.forgetImages(append(ch.images, ch.statics...), changed)
	for _, t := range ch.templates {
		changed[render.DepTemplate(t)] = true
	}
	styleOnly = ch.assets && len(ch.reparse) == 0 && len(ch.templates) == 0 && !ch.islands && len(ch.statics) == 0
	if ch.assets { // a bundle that fails is an error of the site, with the others (Parts.AssetsErr)
		if b, urls, scripts, err := d.rebundleAssets(changed); err != nil {
			p.AssetsErr = err
		} else {
			p.Assets, p.URLs, styleOnly = b, urls, styleOnly && !scripts
		}
	}
	if ch.islands {
		if b, err := d.rebuildIslands(ctx, changed); err != nil {
			p.IslandsErr = err
		} else {
			p.Islands = b
		}
	}
	if len(ch.statics) > 0 {
		if p.Statics, err = d.refreshStatics(ch.statics, changed); err != nil {
			if p.Islands != good.Islands {
				p.Islands.Close()
			}
			return p, false, err
		}
	}
	return p, styleOnly, nil
}

// parallel runs fn(0..n-1) on GOMAXPROCS workers.
func parallel(n int, fn func(i int)) { parallelpkg.For(n, runtime.GOMAXPROCS(0), fn) }
