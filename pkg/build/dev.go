package build

import (
	"context"
	"io/fs"
	"maps"
	"path"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"sitegen/pkg/assets"
	"sitegen/pkg/config"
	"sitegen/pkg/content"
	"sitegen/pkg/images"
	parallelpkg "sitegen/pkg/internal/parallel"
	"sitegen/pkg/islands"
	"sitegen/pkg/markdown"
	"sitegen/pkg/output"
	"sitegen/pkg/render"
	"sitegen/pkg/schema"
	"sitegen/pkg/sitefs"
)

// Dev is a site loaded into memory for the dev server, whose pages are
// rendered when they are asked for (File). Loading reads what any page
// needs to render and link (front matter, routes, data, strings, templates,
// bundles) and lays out the site-wide files; a page is rendered on its first
// request and its bytes kept in a cache of bounded size (Options.DevCache),
// with what the render used (render.Deps). An Update parses again only the
// files that changed, compares the new site with the last good one and
// forgets the pages whose recorded dependencies changed; the few of them
// still in the cache (the open tabs) render again at once, the rest when
// they are asked for. CheckNext renders the pages never asked for, one at a
// time, for the errors only a render finds. Nothing is written to disk.
//
// The build hash is fixed for the session: it is in every page's head, and
// changing it on every data edit would invalidate every page; the dev
// server reloads open tabs itself.
//
// Dev is safe for concurrent use: its methods take turns.
type Dev struct {
	mu    sync.Mutex
	opts  Options
	root  string
	fsys  fs.FS
	files map[string]*content.SourceFile // parsed content files by path

	cfg        *config.Config
	langs      []string
	statics    map[string]bool
	assets     *assets.Result
	staticsGen int               // counts changes of the static files
	assetURLs  map[string]string // entry -> URL, fixed at the first build
	bundle     *islands.Bundle
	hash       string

	// renderer keeps its parsed templates across updates that change no
	// template; nil means parse them again.
	renderer *render.Renderer
	md       *markdown.Converter

	// images makes the <picture> variants, on demand; imageFiles are
	// assets/images.
	images     *images.Processor
	imageFiles map[string]bool
	copts      content.Options // how content files are parsed

	// out keeps the rendered bytes of the pages and static files asked
	// for last, up to Options.DevCache bytes.
	out  *output.MemTree
	deps depKeys

	good *devState // the last site without errors
	// rec is what the last full load read, and the pages rendered since
	// (through recFS): the dev server watches it (Sources).
	rec *record
	// reload: a full load failed after its parts were taken in; the next
	// update loads everything again (good is still served meanwhile).
	reload bool
	// pending are source changes not yet part of a good build (the
	// update that saw them failed); they count again in the next one.
	pending map[string]bool
}

// DefaultDevCache is the default of Options.DevCache: the bytes of
// rendered pages the dev server keeps.
const DefaultDevCache = 128 << 20

// DevResult is what an update did.
type DevResult struct {
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

// NewDev loads the site at opts.Source; its pages render when asked for.
func NewDev(ctx context.Context, opts Options) (*Dev, *DevResult, error) {
	root := opts.Source
	if root == "" {
		root = "."
	}
	if opts.DevCache <= 0 {
		opts.DevCache = DefaultDevCache
	}
	d := &Dev{opts: opts, root: root, pending: map[string]bool{}, out: output.NewMemCache(opts.DevCache), deps: depKeys{}}
	fsys, err := sitefs.New(root)
	if err != nil {
		return d, nil, err
	}
	d.fsys = fsys
	d.mu.Lock()
	defer d.mu.Unlock()
	res, err := d.full(ctx)
	return d, res, err
}

// Close releases the island engines.
func (d *Dev) Close() error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.bundle != nil {
		return d.bundle.Close()
	}
	return nil
}

// Config returns the site's configuration of the last successful load (nil
// before one).
func (d *Dev) Config() *config.Config {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.cfg
}

// full loads everything again, as on start and after site.yaml changes,
// the way a build loads a site (load); a site with errors is rendered for
// its errors too (errorsOnly), so that the dev server reports what a build
// reports.
func (d *Dev) full(ctx context.Context) (*DevResult, error) {
	start := time.Now()
	d.fsys.(*sitefs.FS).Forget()
	site, errs := load(ctx, d.opts, &liveTree{fsys: d.fsys.(*sitefs.FS)})
	if site == nil {
		return nil, errs.Err()
	}
	if errs.Errors() > 0 {
		defer site.Close()
		return nil, site.errorsOnly(ctx, errs)
	}
	files := make(map[string]*content.SourceFile, len(site.files))
	for i := range site.files {
		files[site.files[i].Path] = &site.files[i]
	}
	site.files = nil
	site.recordDeps, site.stableURLs = true, site.Assets.URLs
	old := d.bundle
	d.copts, d.md = site.copts, site.md
	d.cfg, d.langs, d.files, d.statics, d.assets, d.assetURLs, d.bundle, d.hash = site.Config, site.copts.Langs, files, site.Statics, site.Assets, site.Assets.URLs, site.Islands, site.Hash
	d.images, d.imageFiles = site.Images, site.imageFiles
	d.renderer = site.renderer
	st, err := d.newState(ctx, site, nil)
	if err != nil {
		if old != nil && old != d.bundle {
			d.bundle.Close()
			d.bundle = old
		}
		d.reload = true
		return nil, err
	}
	d.reload = false
	if old != nil && old != d.bundle {
		old.Close()
	}
	res := d.result(st)
	res.Changed = d.out.Names() // so open tabs reload
	if d.good != nil {
		res.Changed = append(res.Changed, changedFiles(d.good.wide, st.wide)...)
	}
	slices.Sort(res.Changed)
	res.Changed = slices.Compact(res.Changed)
	d.out = output.NewMemCache(d.opts.DevCache)
	d.good = st
	site.rec.trackFolders()
	d.rec = site.rec
	res.Full = true
	res.Duration, res.ReadContent = time.Since(start), site.readTime
	return res, nil
}

// Update rebuilds after the files at paths (slash paths below the site root;
// files or folders, present or gone) changed. On error the last good site
// stays as it was and the changes count again in the next update.
func (d *Dev) Update(ctx context.Context, paths []string) (*DevResult, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	start := time.Now()
	d.fsys.(*sitefs.FS).Forget() // a folder may have become a link
	for _, p := range paths {
		d.pending[path.Clean(p)] = true
	}
	// A named pipe or link that appeared is an error, as in a build.
	if bad := d.fsys.(*sitefs.FS).CheckPaths(slices.Collect(maps.Keys(d.pending))); len(bad) > 0 {
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
	parallel(len(ch.reparse), func(i int) { ch.reparse[i].Parse(d.fsys, d.copts) })
	changed := map[string]bool{} // dependency keys
	// The variants' names are fingerprinted: the pages showing a photo
	// that changed change with it.
	d.forgetImages(append(ch.images, ch.statics...), changed)
	oldRenderer, oldAssets, oldBundle, oldURLs := d.renderer, d.assets, d.bundle, maps.Clone(d.assetURLs)
	if len(ch.templates) > 0 {
		d.renderer = nil
	}
	for _, t := range ch.templates {
		changed[render.DepTemplate(t)] = true
	}
	styleOnly := ch.assets && len(ch.reparse) == 0 && len(ch.templates) == 0 && !ch.islands && len(ch.statics) == 0
	newAssets, newBundle := d.assets, d.bundle
	var err error
	if ch.assets {
		var scripts bool
		if newAssets, scripts, err = d.rebundleAssets(changed); err != nil {
			return nil, err
		}
		styleOnly = styleOnly && !scripts
	}
	if ch.islands {
		if newBundle, err = d.rebuildIslands(ctx, changed); err != nil {
			return nil, err
		}
	}
	oldStatics, oldGen := d.statics, d.staticsGen
	if err := d.refreshStatics(ch.statics, changed); err != nil {
		return nil, err
	}
	d.assets, d.bundle = newAssets, newBundle
	st, err := d.next(ctx, changed, d.bodiesOnly(ch, changed))
	if err != nil {
		if newBundle != oldBundle {
			newBundle.Close()
		}
		d.assets, d.bundle, d.renderer, d.assetURLs = oldAssets, oldBundle, oldRenderer, oldURLs
		d.statics, d.staticsGen = oldStatics, oldGen
		return nil, err
	}
	if newBundle != oldBundle && oldBundle != nil {
		oldBundle.Close()
	}
	res := d.carry(ctx, st, changed)
	res.Changed = append(res.Changed, d.staleStatics(ch.statics, oldStatics)...)
	slices.Sort(res.Changed)
	res.Changed = slices.Compact(res.Changed)
	d.good = st
	clear(d.pending)
	res.StyleOnly = styleOnly && len(res.Rendered) == 0 && len(res.Stale) == 0 && len(res.Removed) == 0
	res.Duration = time.Since(start)
	return res, nil
}

// changes are the pending source changes, by kind.
type changes struct {
	images    []string                       // site paths of source images edited in place
	templates []string                       // template files
	statics   []string                       // site paths under assets/static
	islands   bool                           // assets/islands changed
	assets    bool                           // the bundled assets changed
	reparse   []*content.SourceFile          // content files to parse again
	before    map[string]*content.SourceFile // content files as they were
}

// sortPending sorts the pending changes by kind; full says they need the
// site loaded again (site.yaml, schema.yaml, or a photo added or removed).
func (d *Dev) sortPending() (ch changes, full bool) {
	full = d.good == nil || d.reload || d.pending[config.FileName] || d.pending[schema.FileName]
	ch.before = map[string]*content.SourceFile{}
	for p := range d.pending {
		switch {
		case p == ImageDir || strings.HasPrefix(p, ImageDir+"/"):
			site := strings.TrimPrefix(p, ImageDir)
			if st, err := fs.Stat(d.fsys, p); err == nil && st.Mode().IsRegular() && d.imageFiles[site] {
				ch.images = append(ch.images, site)
			} else {
				full = true // a photo added or removed: read them all again
			}
		case p == content.Dir || strings.HasPrefix(p, content.Dir+"/"):
			ch.reparse = append(ch.reparse, d.refreshContent(p, ch.before)...)
		case p == render.TemplatesDir || strings.HasPrefix(p, render.TemplatesDir+"/"):
			ch.templates = append(ch.templates, p)
		case p == "assets/islands" || strings.HasPrefix(p, "assets/islands/"):
			ch.islands = true
		case p == StaticDir || strings.HasPrefix(p, StaticDir+"/"):
			ch.statics = append(ch.statics, strings.TrimPrefix(p, StaticDir))
		case p == assets.Dir || strings.HasPrefix(p, assets.Dir+"/"):
			ch.assets = true
		default:
			// Another file the site read (Sources: an icon of a folder
			// site.yaml names, a file of an island's npm package):
			// everything is loaded again.
			full = true
		}
	}
	return ch, full
}

// forgetImages: the pages showing an edited photo render again with its new
// variants; it returns the output paths of the old variants.
func (d *Dev) forgetImages(edited []string, changed map[string]bool) (variants []string) {
	for _, p := range edited {
		changed[render.DepImage(p)] = true
		sources, vs := d.images.Forget(p)
		for _, s := range sources {
			changed[render.DepImage(s)] = true
		}
		variants = append(variants, vs...)
	}
	return variants
}

// rebundleAssets bundles assets/ again; scripts says a bundle other than a
// stylesheet is part of it.
func (d *Dev) rebundleAssets(changed map[string]bool) (_ *assets.Result, scripts bool, _ error) {
	b, err := assets.Bundle(d.root, d.opts.Minify, d.cfg.Assets.Entries...)
	if err != nil {
		return nil, false, err
	}
	for name, u := range b.URLs {
		if _, ok := d.assetURLs[name]; !ok {
			changed[render.DepAsset(name)] = true // a new entry: pages asking for it render again
			d.assetURLs[name] = u
		}
		if !strings.HasSuffix(name, ".css") {
			scripts = true
		}
	}
	for name := range d.assetURLs {
		if _, ok := b.URLs[name]; !ok {
			// An entry gone (its file renamed or deleted): the pages
			// asking for it fail, as in a build.
			delete(d.assetURLs, name)
			changed[render.DepAsset(name)] = true
		}
	}
	// Pages with a stylesheet written inline render again when its text
	// changed.
	was := inlineStyles(d.assets)
	for name, css := range inlineStyles(b) {
		if was[name] != css {
			changed[render.DepStyle(name)] = true
		}
	}
	return b, scripts, nil
}

// rebuildIslands bundles the islands again; the pages of the islands whose
// scripts changed render again.
func (d *Dev) rebuildIslands(ctx context.Context, changed map[string]bool) (*islands.Bundle, error) {
	b, err := islands.Build(ctx, islandOptions(d.root, d.cfg, d.opts.Minify))
	if err != nil {
		return nil, err
	}
	names := map[string]bool{}
	if d.bundle != nil {
		for _, n := range d.bundle.Names() {
			names[n] = true
		}
	}
	for _, n := range b.Names() {
		names[n] = true
	}
	for n := range names {
		if d.bundle == nil || !d.bundle.Has(n) || !b.Has(n) ||
			!slices.Equal(d.bundle.ModulePreloads([]string{n}), b.ModulePreloads([]string{n})) ||
			!slices.Equal(d.bundle.Scripts([]string{n}), b.Scripts([]string{n})) {
			changed[render.DepIsland(n)] = true
		}
	}
	return b, nil
}

// refreshStatics lists assets/static again after the files at paths (site
// paths) changed, and forgets their bytes.
func (d *Dev) refreshStatics(paths []string, changed map[string]bool) error {
	if len(paths) == 0 {
		return nil
	}
	statics, err := staticFiles(d.fsys)
	if err != nil {
		return err
	}
	for _, p := range paths {
		changed[render.DepStatic(p)] = true
		changed[render.DepURL(p)] = true
	}
	d.statics = statics
	d.staticsGen++
	return nil
}

// bodiesOnly reports whether only page bodies changed (the front matter of
// every edited page is as it was): the site's routes, content and strings
// are the same, so the edited pages keep their identity and take their new
// bodies, and render again; nothing else is assembled or compared.
func (d *Dev) bodiesOnly(ch changes, changed map[string]bool) bool {
	if len(ch.templates) > 0 || ch.islands || ch.assets || len(ch.statics) > 0 ||
		(len(ch.reparse) == 0 && len(ch.images) == 0) || len(ch.reparse) != len(ch.before) {
		return false
	}
	for _, f := range ch.reparse {
		if old := ch.before[f.Path]; old == nil || !sameFrontMatter(old, f) {
			return false
		}
	}
	for _, f := range ch.reparse {
		old := ch.before[f.Path]
		old.Page.TakeBody(f.Page)
		d.files[f.Path] = old
		changed[render.DepFile(f.Path)] = true
	}
	return true
}

// refreshContent updates the file list for a changed path under content/
// and returns the files to parse again (reset, so they are parsed once).
func (d *Dev) refreshContent(p string, before map[string]*content.SourceFile) []*content.SourceFile {
	var out []*content.SourceFile
	// Whatever was at or below p is gone unless it is found again below.
	if f, ok := d.files[p]; ok {
		before[p] = f
		delete(d.files, p)
	}
	prefix := p + "/"
	for k, f := range d.files {
		if strings.HasPrefix(k, prefix) {
			before[k] = f
			delete(d.files, k)
		}
	}
	st, err := fs.Stat(d.fsys, p)
	if err != nil {
		return nil
	}
	add := func(fp string) {
		if f, ok := content.Classify(fp, d.langs); ok {
			d.files[fp] = &f
			out = append(out, &f)
		}
	}
	if !st.IsDir() {
		add(p)
		return out
	}
	fs.WalkDir(d.fsys, p, func(fp string, e fs.DirEntry, err error) error {
		if err == nil && !e.IsDir() {
			add(fp)
		}
		return nil
	})
	return out
}

// parallel runs fn(0..n-1) on GOMAXPROCS workers.
func parallel(n int, fn func(i int)) { parallelpkg.For(n, runtime.GOMAXPROCS(0), fn) }
