package build

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"path"
	"reflect"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"sitegen/pkg/assets"
	"sitegen/pkg/config"
	"sitegen/pkg/content"
	"sitegen/pkg/diag"
	"sitegen/pkg/formschema"
	"sitegen/pkg/i18n"
	"sitegen/pkg/images"
	"sitegen/pkg/islands"
	"sitegen/pkg/markdown"
	"sitegen/pkg/output"
	"sitegen/pkg/render"
	"sitegen/pkg/route"
	"sitegen/pkg/schema"
	"sitegen/pkg/sitefs"
	"sitegen/pkg/sitepath"
)

// Dev is a site built into memory and rebuilt incrementally, for the dev
// server. The first build renders every page and records, per page, what the
// render used (render.Deps); an Update parses again only the files that
// changed, compares the new site with the last good one and re-renders only
// the pages whose recorded dependencies changed. Nothing is written to disk.
//
// The build hash is fixed for the session: it is in every page's head, and
// changing it on every data edit would re-render every page; the dev server
// reloads open tabs itself.
//
// Dev is not safe for concurrent use; the dev server calls it from one
// goroutine.
type Dev struct {
	opts  Options
	root  string
	fsys  fs.FS
	files map[string]*content.SourceFile // parsed content files by path

	cfg     *config.Config
	langs   []string
	statics map[string]bool
	assets  *assets.Result
	// staticCache holds the bytes of assets/static files read so far.
	staticCache map[string][]byte
	staticsGen  int               // counts changes of the static files
	assetURLs   map[string]string // entry -> URL, fixed at the first build
	bundle      *islands.Bundle
	hash        string

	// renderer keeps its parsed templates across updates that change no
	// template; nil means parse them again.
	renderer *render.Renderer
	md       *markdown.Converter

	bodies *bodyCache
	// images makes the <picture> variants; imageFiles are assets/images.
	images     *images.Processor
	imageFiles map[string]bool
	// staleImages are output paths of variants of edited photos, to leave
	// the output with the next good update.
	staleImages []string
	copts       content.Options // how content files are parsed

	good *devState // the last build without errors
	// pending are source changes not yet part of a good build (the
	// update that saw them failed); they count again in the next one.
	pending map[string]bool
}

// devState is one good build: the site and, per entry URL, what rendering it
// gave and used.
type devState struct {
	site     *Site
	pages    map[string]*devPage // by entry URL
	out      map[string][]byte   // the whole output, by path below the root
	fallback map[string]string   // see DevResult.Fallback
	sigs     map[string]pageSig  // by lang/id
	// What the output's bundles and static files came from.
	assets     *assets.Result
	bundle     *islands.Bundle
	staticsGen int
}

type devPage struct {
	entry *route.Entry
	html  []byte
	data  []byte
	rsc   []byte // the island manifest, when <main> has islands
	deps  render.Deps
	// scripts are the CSP hashes of the page's inline scripts, found once
	// when it is rendered: an update collects them without reading every
	// page again.
	scripts []string
}

// DevResult is what an update did.
type DevResult struct {
	// Rendered are the URLs of the pages rendered again, sorted; Removed
	// the URLs of pages that no longer exist.
	Rendered, Removed []string
	// Changed are the output paths whose bytes changed or that were
	// added or removed, sorted.
	Changed []string
	// StyleOnly is true when only stylesheets changed: open tabs can swap
	// them without a reload.
	StyleOnly bool
	// Full is true when the update rebuilt everything (site.yaml changed).
	Full     bool
	Pages    int // pages in the site
	Duration time.Duration
	// Out is the whole output after the update; it is never modified
	// afterwards, so it may be served while the next update runs.
	Out map[string][]byte
	// RedirectTable and HeaderRules are what the host applies (see
	// serve.NewHandler).
	RedirectTable map[string]string
	HeaderRules   []output.HeaderRule
	// Fallback names, per output path of an HTML page shown from the
	// default locale, the file it shows (for the dev-only marker).
	Fallback map[string]string
}

// NewDev builds the site at opts.Source into memory.
func NewDev(ctx context.Context, opts Options) (*Dev, *DevResult, error) {
	root := opts.Source
	if root == "" {
		root = "."
	}
	d := &Dev{opts: opts, root: root, pending: map[string]bool{}, staticCache: map[string][]byte{}}
	fsys, err := sitefs.New(root)
	if err != nil {
		return d, nil, err
	}
	d.fsys = fsys
	res, err := d.full(ctx)
	return d, res, err
}

// Close releases the island engines.
func (d *Dev) Close() error {
	if d.bundle != nil {
		return d.bundle.Close()
	}
	return nil
}

// Config returns the site's configuration of the last successful load (nil
// before one).
func (d *Dev) Config() *config.Config { return d.cfg }

// full loads everything again, as on start and after site.yaml changes.
func (d *Dev) full(ctx context.Context) (*DevResult, error) {
	start := time.Now()
	d.fsys.(*sitefs.FS).Forget()
	if bad := d.fsys.(*sitefs.FS).Check(); len(bad) > 0 {
		return nil, bad.Err()
	}
	cfg, err := config.Load(d.fsys)
	if err != nil {
		return nil, err
	}
	if d.opts.BaseURL != "" {
		b, err := config.CheckBaseURL(d.opts.BaseURL)
		if err != nil {
			return nil, diag.New(diag.Pos{}, "--base-url %v", err)
		}
		cfg.BaseURL = b
	}
	if d.opts.Host != "" {
		cfg.Host = d.opts.Host
	}
	langs := make([]string, len(cfg.Locales))
	for i, l := range cfg.Locales {
		langs[i] = l.Code
	}
	files := map[string]*content.SourceFile{}
	for _, lang := range langs {
		dir := path.Join(content.Dir, lang)
		if _, err := fs.Stat(d.fsys, dir); err != nil {
			continue
		}
		err := fs.WalkDir(d.fsys, dir, func(p string, e fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if f, ok := content.Classify(p, langs); ok && !e.IsDir() {
				files[p] = &f
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	sch, err := schema.Load(d.fsys)
	if err != nil {
		return nil, err
	}
	copts := content.Options{Langs: langs, Drafts: d.opts.Drafts, Schema: sch}
	if l := cfg.ErrorPages.Layout; l != "" {
		copts.Layouts = map[string]string{cfg.ErrorPages.NotFound: l, cfg.ErrorPages.ServerError: l}
	}
	parseAll(d.fsys, copts, files)
	imgs, imageFiles, err := newImages(d.fsys, d.opts.ImageCache, cfg.Images.MaxPixels)
	if err != nil {
		return nil, err
	}
	d.images, d.imageFiles, d.staleImages = imgs, imageFiles, nil
	statics, err := staticFiles(d.fsys)
	if err != nil {
		return nil, err
	}
	bundled, err := assets.Bundle(d.root, d.opts.Minify, cfg.Assets.Entries...)
	if err != nil {
		return nil, err
	}
	hash, err := buildHash(d.fsys)
	if err != nil {
		return nil, err
	}
	var bundle *islands.Bundle
	if st, err := fs.Stat(d.fsys, "assets/islands"); err == nil && st.IsDir() {
		bundle, err = islands.Build(ctx, islandOptions(d.root, cfg, d.opts.Minify))
		if err != nil {
			return nil, err
		}
	}
	old := d.bundle
	d.copts = copts
	d.cfg, d.langs, d.files, d.statics, d.assets, d.assetURLs, d.bundle, d.hash = cfg, langs, files, statics, bundled, bundled.URLs, bundle, hash
	if old != nil && old != bundle {
		old.Close()
	}
	d.good, d.renderer = nil, nil
	d.bodies = &bodyCache{m: map[bodyKey]cachedBody{}}
	d.md = markdown.New(markdown.Options{Highlight: cfg.Markdown.HighlightCode()})
	clear(d.staticCache)
	st, res, err := d.render(ctx, nil, nil)
	if err != nil {
		return nil, err
	}
	d.good = st
	res.Full = true
	res.Duration = time.Since(start)
	return res, nil
}

func islandOptions(root string, cfg *config.Config, minify bool) islands.Options {
	return islands.Options{Root: root, Library: cfg.Islands.Library, Minify: minify,
		RenderTimeout: cfg.Islands.RenderTimeout.Duration, BuildBudget: cfg.Islands.BuildBudget.Duration}
}

func parseAll(fsys fs.FS, opts content.Options, files map[string]*content.SourceFile) {
	list := make([]*content.SourceFile, 0, len(files))
	for _, f := range files {
		list = append(list, f)
	}
	parallel(len(list), func(i int) { list[i].Parse(fsys, opts) })
}

// Update rebuilds after the files at paths (slash paths below the site root;
// files or folders, present or gone) changed. On error the last good output
// stays as it was and the changes count again in the next update.
func (d *Dev) Update(ctx context.Context, paths []string) (*DevResult, error) {
	start := time.Now()
	d.fsys.(*sitefs.FS).Forget() // a folder may have become a link
	for _, p := range paths {
		d.pending[path.Clean(p)] = true
	}
	// A named pipe or link that appeared is an error, as in a build.
	if bad := d.fsys.(*sitefs.FS).CheckPaths(slices.Collect(maps.Keys(d.pending))); len(bad) > 0 {
		return nil, bad.Err()
	}
	full := d.good == nil || d.pending[config.FileName] || d.pending[schema.FileName]
	var editedImages []string // site paths of source images edited in place
	for p := range d.pending {
		if p == ImageDir || strings.HasPrefix(p, ImageDir+"/") {
			site := strings.TrimPrefix(p, ImageDir)
			if st, err := fs.Stat(d.fsys, p); err == nil && st.Mode().IsRegular() && d.imageFiles[site] {
				editedImages = append(editedImages, site)
				continue
			}
			full = true // a photo added or removed: read them all again
		}
	}
	if full {
		var before map[string][]byte
		if d.good != nil {
			before = d.good.out
		}
		res, err := d.full(ctx)
		if err != nil {
			return nil, err
		}
		clear(d.pending)
		res.Changed = changedFiles(before, res.Out) // so open tabs reload
		return res, nil
	}
	before := map[string]*content.SourceFile{} // content files as they were
	var (
		changedTemplates []string
		islandsChanged   bool
		assetsChanged    bool
		staticChanged    []string
		reparse          []*content.SourceFile
	)
	for p := range d.pending {
		switch {
		case p == content.Dir || strings.HasPrefix(p, content.Dir+"/"):
			reparse = append(reparse, d.refreshContent(p, before)...)
		case p == render.TemplatesDir || strings.HasPrefix(p, render.TemplatesDir+"/"):
			changedTemplates = append(changedTemplates, p)
		case p == "assets/islands" || strings.HasPrefix(p, "assets/islands/"):
			islandsChanged = true
		case p == StaticDir || strings.HasPrefix(p, StaticDir+"/"):
			staticChanged = append(staticChanged, strings.TrimPrefix(p, StaticDir))
		case p == ImageDir || strings.HasPrefix(p, ImageDir+"/"):
			// edited photos, above: not bundled assets
		case p == assets.Dir || strings.HasPrefix(p, assets.Dir+"/"):
			assetsChanged = true
		}
	}
	parallel(len(reparse), func(i int) { reparse[i].Parse(d.fsys, d.copts) })

	changed := map[string]bool{} // dependency keys
	// An edited photo: the pages showing it render again with its new
	// variants; the old variants leave the output.
	for _, p := range append(editedImages, staticChanged...) {
		changed[render.DepImage(p)] = true
		sources, variants := d.images.Forget(p)
		for _, s := range sources {
			changed[render.DepImage(s)] = true
		}
		d.staleImages = append(d.staleImages, variants...)
	}
	oldRenderer := d.renderer
	if len(changedTemplates) > 0 {
		d.renderer = nil
	}
	for _, t := range changedTemplates {
		changed[render.DepTemplate(t)] = true
	}
	styleOnly := assetsChanged && len(reparse) == 0 && len(changedTemplates) == 0 && !islandsChanged && len(staticChanged) == 0
	newAssets := d.assets
	if assetsChanged {
		b, err := assets.Bundle(d.root, d.opts.Minify, d.cfg.Assets.Entries...)
		if err != nil {
			return nil, err
		}
		for name, u := range b.URLs {
			if _, ok := d.assetURLs[name]; !ok {
				changed[render.DepAsset(name)] = true // a new entry: pages asking for it render again
				d.assetURLs[name] = u
			}
			if !strings.HasSuffix(name, ".css") {
				styleOnly = false
			}
		}
		newAssets = b
	}
	newBundle := d.bundle
	if islandsChanged {
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
				!slicesEqual(d.bundle.ModulePreloads([]string{n}), b.ModulePreloads([]string{n})) ||
				!slicesEqual(d.bundle.Scripts([]string{n}), b.Scripts([]string{n})) {
				changed[render.DepIsland(n)] = true
			}
		}
		newBundle = b
	}
	if len(staticChanged) > 0 {
		statics, err := staticFiles(d.fsys)
		if err != nil {
			return nil, err
		}
		for _, p := range staticChanged {
			for k := range d.staticCache {
				if k == p || strings.HasPrefix(k, p+"/") {
					delete(d.staticCache, k)
				}
			}
			changed[render.DepStatic(p)] = true
			changed[render.DepURL(p)] = true
		}
		d.statics = statics
		d.staticsGen++
	}
	oldAssets, oldBundle := d.assets, d.bundle
	d.assets, d.bundle = newAssets, newBundle
	// Only page bodies changed (the front matter of every edited page is
	// as it was): the site's routes, content and strings are the same, so
	// the edited pages keep their identity, take the new bodies, and
	// render again; nothing else is assembled or compared.
	same := len(changedTemplates) == 0 && !islandsChanged && !assetsChanged && len(staticChanged) == 0 && (len(reparse) > 0 || len(editedImages) > 0) && len(reparse) == len(before)
	for _, f := range reparse {
		if old := before[f.Path]; !same || old == nil || !sameFrontMatter(old, f) {
			same = false
			break
		}
	}
	if same {
		for _, f := range reparse {
			old := before[f.Path]
			old.Page.Body, old.Page.BodyLine = f.Page.Body, f.Page.BodyLine
			d.files[f.Path] = old
			d.bodies.forget(old.Page)
			changed[render.DepFile(f.Path)] = true
		}
	}
	st, res, err := d.renderWith(ctx, changed, d.good, same)
	if err != nil {
		if newBundle != oldBundle {
			newBundle.Close()
		}
		d.assets, d.bundle, d.renderer = oldAssets, oldBundle, oldRenderer
		if assetsChanged {
			d.assetURLs = oldAssets.URLs
		}
		return nil, err
	}
	if newBundle != oldBundle && oldBundle != nil {
		oldBundle.Close()
	}
	d.good = st
	clear(d.pending)
	d.staleImages = nil
	res.StyleOnly = styleOnly && len(res.Rendered) == 0 && len(res.Removed) == 0
	res.Duration = time.Since(start)
	return res, nil
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

// render assembles the site from the current parts and renders the pages
// affected by changed (every page when prev is nil).
func (d *Dev) render(ctx context.Context, changed map[string]bool, prev *devState) (*devState, *DevResult, error) {
	return d.renderWith(ctx, changed, prev, false)
}

// sameFrontMatter reports whether two parses of a page file differ at most
// in the body.
func sameFrontMatter(a, b *content.SourceFile) bool {
	if a.Kind != content.KindPage || b.Kind != content.KindPage || a.Page == nil || b.Page == nil || len(a.Errs) > 0 || len(b.Errs) > 0 {
		return false
	}
	x, y := *a.Page, *b.Page
	x.Body, y.Body = nil, nil
	return reflect.DeepEqual(x, y)
}

// renderWith is render; with same, prev's site (content, routes, strings,
// renderer) is reused as it is.
func (d *Dev) renderWith(ctx context.Context, changed map[string]bool, prev *devState, same bool) (*devState, *DevResult, error) {
	if same && prev != nil {
		return d.renderSite(ctx, prev.site, prev.sigs, changed, prev)
	}
	files := make([]content.SourceFile, 0, len(d.files))
	for _, f := range d.files {
		files = append(files, *f)
	}
	src, err := content.Assemble(d.copts, files)
	if err != nil {
		return nil, nil, err
	}
	plan, err := route.Build(d.cfg, src, d.statics)
	if err != nil {
		return nil, nil, err
	}
	strs := map[string]map[string]string{}
	for _, l := range d.langs {
		strs[l] = src.Locales[l].Strings
	}
	catalog := i18n.New(strs, d.cfg.DefaultLocale().Code)
	date := d.opts.Date
	if date == "" {
		date = time.Now().Format("2006-01-02")
	}
	var scripts []string
	if u, ok := d.assetURLs["runtime/runtime.js"]; ok {
		scripts = append(scripts, u)
	}
	ropts := render.Options{
		FS: d.fsys, Config: d.cfg, Source: src, Plan: plan, Catalog: catalog,
		Markdown: d.md, Bodies: d.bodies,
		Assets: d.assetURLs, BuildHash: d.hash, BuildDate: date,
		IconDir: d.cfg.Icons.Dir, StaticDir: StaticDir, Scripts: scripts,
		HTML: htmlMinifier(d.opts.Minify),
	}
	if d.bundle != nil {
		ropts.Islands = d.bundle
	}
	ropts.Images = d.images
	r := d.renderer
	if r == nil {
		if r, err = render.New(ropts); err != nil {
			return nil, nil, err
		}
	} else {
		r.Rebind(ropts)
	}
	if errs := validate(d.cfg, d.md, src, plan, r, withImages(d.statics, d.imageFiles), d.langs, func(string) bool { return false }); len(errs) > 0 {
		return nil, nil, errs.Err()
	}
	site := &Site{Config: d.cfg, Source: src, Plan: plan, Renderer: r, Catalog: catalog, Assets: d.assets, Statics: d.statics,
		Hash: d.hash, Islands: d.bundle, fsys: d.fsys, root: d.root, html: ropts.HTML}
	sigs := sigsOf(plan)
	if prev != nil {
		diffSites(prev.site, site, prev.sigs, sigs, changed)
	}
	d.bodies.drop(plan, changed)
	return d.renderSite(ctx, site, sigs, changed, prev)
}

// renderSite renders the pages of site affected by changed (every page
// when prev is nil) and lays out the output.
func (d *Dev) renderSite(ctx context.Context, site *Site, sigs map[string]pageSig, changed map[string]bool, prev *devState) (*devState, *DevResult, error) {
	plan := site.Plan
	var err error
	entries := append([]*route.Entry{}, plan.Entries...)
	if root, ok := plan.ByURL("/"); ok {
		entries = append(entries, root)
	}
	st := &devState{site: site, pages: make(map[string]*devPage, len(entries)), sigs: sigs,
		assets: d.assets, bundle: d.bundle, staticsGen: d.staticsGen}
	var todo []*route.Entry
	for _, e := range entries {
		if prev != nil {
			if p, ok := prev.pages[e.URL]; ok && !affected(p, e, changed) {
				st.pages[e.URL] = &devPage{entry: e, html: p.html, data: p.data, rsc: p.rsc, deps: p.deps, scripts: p.scripts}
				continue
			}
		}
		todo = append(todo, e)
	}
	results := make([]*devPage, len(todo))
	errs := make([]error, len(todo))
	parallel(len(todo), func(i int) {
		if ctx.Err() != nil {
			errs[i] = ctx.Err()
			return
		}
		results[i], errs[i] = site.renderDeps(ctx, todo[i])
	})
	var list diag.List
	pageErrs := map[diag.Diagnostic][]string{}
	for i, err := range errs {
		if err == nil {
			st.pages[todo[i].URL] = results[i]
			continue
		}
		var pe render.PageError
		if errors.As(err, &pe) {
			pageErrs[pe.Diagnostic] = append(pageErrs[pe.Diagnostic], pe.Page)
		} else {
			list.AddErr(todo[i].Page.Pos, err)
		}
	}
	for dg, pages := range pageErrs {
		sort.Strings(pages)
		pages = dedupe(pages)
		dg.Message += " (rendering " + pages[0]
		if len(pages) > 1 {
			dg.Message += fmt.Sprintf(" and %d more pages", len(pages)-1)
		}
		dg.Message += ")"
		list.Add(dg)
	}
	if len(list) > 0 {
		return nil, nil, list.Err()
	}
	res := &DevResult{Pages: len(plan.Entries)}
	for _, e := range todo {
		res.Rendered = append(res.Rendered, e.URL)
	}
	sort.Strings(res.Rendered)
	if prev == nil {
		st.out, st.fallback, err = d.assemble(st)
	} else {
		for u := range prev.pages {
			if _, ok := st.pages[u]; !ok {
				res.Removed = append(res.Removed, u)
			}
		}
		sort.Strings(res.Removed)
		res.Changed, err = d.patch(st, prev, todo, res.Removed, changed)
	}
	if err != nil {
		return nil, nil, err
	}
	d.renderer = site.Renderer
	res.Out, res.Fallback = st.out, st.fallback
	res.RedirectTable = output.RedirectTable(site.Plan.Redirects)
	// The pages' inline scripts by hash (their styles stay 'unsafe-inline'
	// while they are edited).
	var scripts []string
	for _, p := range st.pages {
		scripts = append(scripts, p.scripts...)
	}
	res.HeaderRules = output.HeaderRules(withInline(sitePolicy(site.Config), scripts))
	return st, res, nil
}

// affected reports whether a page must render again.
func affected(p *devPage, e *route.Entry, changed map[string]bool) bool {
	if p.entry.Page != e.Page || p.entry.Fallback != e.Fallback {
		return true // its own file was parsed again
	}
	for k := range changed {
		if _, ok := p.deps[k]; ok {
			return true
		}
	}
	return false
}

// diffSites adds to changed the dependency keys whose meaning differs
// between two sites: pages (URL, title and what listings show), paths that
// appeared or went away, listings that gained or lost pages, data sets and
// UI strings.
// bodyCache keeps converted page bodies between updates: a template or data
// edit renders many pages again, but their Markdown stays as it was.
type bodyCache struct {
	mu sync.Mutex
	m  map[bodyKey]cachedBody
}

type bodyKey struct {
	page *content.Page
	lang string
}

type cachedBody struct {
	html string
	deps []string
}

func (c *bodyCache) Body(e *route.Entry) (string, []string, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	b, ok := c.m[bodyKey{e.Page, e.Lang}]
	return b.html, b.deps, ok
}

func (c *bodyCache) PutBody(e *route.Entry, html string, deps []string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.m[bodyKey{e.Page, e.Lang}] = cachedBody{html, deps}
}

// forget drops the bodies of a page.
func (c *bodyCache) forget(p *content.Page) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for k := range c.m {
		if k.page == p {
			delete(c.m, k)
		}
	}
}

// drop forgets the bodies of pages no longer in the plan and those whose
// links changed meaning.
func (c *bodyCache) drop(plan *route.Plan, changed map[string]bool) {
	live := make(map[*content.Page]bool, len(plan.Entries))
	for _, e := range plan.Entries {
		live[e.Page] = true
	}
	for k, b := range c.m {
		if !live[k.page] {
			delete(c.m, k)
			continue
		}
		for _, dep := range b.deps {
			if changed[dep] {
				delete(c.m, k)
				break
			}
		}
	}
}

// pageSig is what other pages may show of a page: its URL, whether it is a
// fallback, and what listings and the sitemap show.
type pageSig struct {
	url, title, desc, date, summary, image, file string
	fallback, noindex                            bool
}

func sigsOf(p *route.Plan) map[string]pageSig {
	m := make(map[string]pageSig, len(p.Entries))
	for _, e := range p.Entries {
		m[e.Lang+"/"+e.ID] = pageSig{e.URL, e.Page.Title, e.Page.Description, e.Page.Date, e.Page.Summary, e.Page.Image.Path, e.Page.File, e.Fallback, e.NoIndex()}
	}
	return m
}

func diffSites(a, b *Site, sa, sb map[string]pageSig, changed map[string]bool) {
	type sig = pageSig
	touch := func(key string, x, y sig, exists bool) {
		lang, id, _ := strings.Cut(key, "/")
		changed[render.DepPage(lang, id)] = true
		if exists && x.url == y.url && x.fallback == y.fallback {
			return // the same page at the same path: listings and links stay
		}
		s := x
		changed[render.DepRoute(lang, id)] = true
		changed[render.DepURL(s.url)] = true
		for u := path.Dir(strings.TrimSuffix(s.url, "/")); ; u = path.Dir(u) {
			changed[render.DepList(lang, strings.TrimSuffix(u, "/")+"/")] = true
			if u == "/" || u == "." {
				break
			}
		}
	}
	for k, x := range sa {
		if y, ok := sb[k]; !ok || x != y {
			touch(k, x, y, ok)
		}
	}
	for k, y := range sb {
		if x, ok := sa[k]; !ok || x != y {
			touch(k, y, x, ok)
		}
	}
	redirs := func(p *route.Plan) map[string]string {
		m := map[string]string{}
		for _, r := range p.Redirects {
			m[r.From] = r.To
		}
		return m
	}
	ra, rb := redirs(a.Plan), redirs(b.Plan)
	for f, to := range ra {
		if rb[f] != to {
			changed[render.DepURL(f)] = true
		}
	}
	for f, to := range rb {
		if ra[f] != to {
			changed[render.DepURL(f)] = true
		}
	}
	for lang, la := range a.Source.Locales {
		lb := b.Source.Locales[lang]
		if lb == nil {
			continue
		}
		for n, s := range la.Data {
			if lb.Data[n] != s {
				changed[render.DepData(lang, n)] = true
			}
		}
		for n := range lb.Data {
			if _, ok := la.Data[n]; !ok {
				changed[render.DepData(lang, n)] = true
			}
		}
		for k, v := range la.Strings {
			if w, ok := lb.Strings[k]; !ok || w != v {
				changed[render.DepString(lang, k)] = true
			}
		}
		for k := range lb.Strings {
			if _, ok := la.Strings[k]; !ok {
				changed[render.DepString(lang, k)] = true
			}
		}
	}
}

func (s *Site) renderDeps(ctx context.Context, e *route.Entry) (*devPage, error) {
	deps := render.Deps{}
	res, err := s.Renderer.RenderDeps(ctx, e, deps)
	if err != nil {
		return nil, err
	}
	data, rsc, err := s.pageData(e, res)
	if err != nil {
		return nil, err
	}
	var scripts []string
	for _, h := range inlineHashes(res.HTML) {
		if strings.HasPrefix(h, "script-src ") {
			scripts = append(scripts, h)
		}
	}
	return &devPage{entry: e, html: res.HTML, data: data, rsc: rsc, deps: deps, scripts: scripts}, nil
}

// pageFiles returns the output files of one rendered page: its HTML, its
// page data and, for the error pages, their copies at /<prefix>/404.html and
// /404.html.
func (s *Site) pageFiles(p *devPage) map[string][]byte {
	e := p.entry
	files := map[string][]byte{
		strings.TrimPrefix(e.URL, "/") + "index.html": p.html,
		output.PageDataPath(e):                        p.data,
	}
	if p.rsc != nil {
		files[output.RSCPath(e)] = p.rsc
	}
	if e.ID == "home" && !e.Root { // the locale's header and footer slices
		writeSlices(e.Lang, p.html, func(rel string, b []byte) { files[rel] = b })
	}
	if e.Error && !e.Root {
		// Hosts look for 404.html and 500.html, whatever the pages' ids.
		name := "500.html"
		if e.NotFound {
			name = "404.html"
		}
		l, _ := s.Config.Locale(e.Lang)
		files[strings.TrimPrefix(l.Prefix, "/")+"/"+name] = p.html
		if e.Lang == s.Config.DefaultLocale().Code {
			files[name] = p.html
		}
	}
	return files
}

// patch makes the output of st from prev's: the pages rendered again, the
// pages gone, and the site-wide files whose inputs changed. It returns the
// paths whose bytes changed, sorted.
func (d *Dev) patch(st, prev *devState, todo []*route.Entry, removed []string, changed map[string]bool) ([]string, error) {
	s := st.site
	out := maps.Clone(prev.out)
	fallback := maps.Clone(prev.fallback)
	diff := map[string]bool{}
	set := func(name string, b []byte) {
		if o, ok := out[name]; !ok || string(o) != string(b) {
			diff[name] = true
		}
		out[name] = b
	}
	del := func(name string) {
		if _, ok := out[name]; ok {
			diff[name] = true
			delete(out, name)
		}
		delete(fallback, name)
	}
	for _, u := range removed {
		for name := range s.pageFiles(prev.pages[u]) {
			del(name)
		}
	}
	for _, e := range todo {
		p := st.pages[e.URL]
		if old, ok := prev.pages[e.URL]; ok {
			for name := range s.pageFiles(old) {
				del(name)
			}
		}
		for name, b := range s.pageFiles(p) {
			set(name, b)
			if e.Fallback && strings.HasSuffix(name, ".html") {
				fallback[name] = e.Page.File
			}
		}
	}
	// Deleting and setting the same path again counts only if the bytes
	// differ from before.
	for name := range diff {
		if o, ok := prev.out[name]; ok {
			if b, ok := out[name]; ok && string(o) == string(b) {
				delete(diff, name)
			}
		}
	}
	if !sameRedirects(prev.site.Plan.Redirects, s.Plan.Redirects) {
		for _, r := range prev.site.Plan.Redirects {
			del(strings.TrimPrefix(r.From, "/") + "index.html")
		}
		for _, rd := range s.redirectPages() {
			b, err := s.redirectPage(rd)
			if err != nil {
				return nil, err
			}
			set(strings.TrimPrefix(rd.From, "/")+"index.html", b)
		}
	}
	// _redirects, _headers, the nginx snippet and the form schema depend on
	// the redirects, the locales with a 404 page, and the form's data and
	// strings: made again unless the site is the same (a body-only edit).
	if s != prev.site {
		hosting, err := s.hostingFiles()
		if err != nil {
			return nil, err
		}
		for name, b := range hosting {
			set(name, b)
		}
	}
	sitemap := false
	for k := range changed {
		if strings.HasPrefix(k, "route:") || strings.HasPrefix(k, "page:") {
			sitemap = true
			break
		}
	}
	if sitemap {
		sm, err := output.Sitemap(s.Plan, s.Config.BaseURL)
		if err != nil {
			return nil, err
		}
		for name := range out { // parts of a split sitemap the site no longer needs
			if sitepath.IsSitemapPart(name) && sm[name] == nil {
				del(name)
			}
		}
		for name, b := range sm {
			set(name, b)
		}
	}
	if st.assets != prev.assets || st.bundle != prev.bundle {
		old, now := d.bundleFiles(prev.assets, prev.bundle), d.bundleFiles(st.assets, st.bundle)
		for name := range old {
			if _, ok := now[name]; !ok {
				del(name)
			}
		}
		for name, b := range now {
			set(name, b)
		}
	}
	imgs, err := d.imageOut()
	if err != nil {
		return nil, err
	}
	for _, name := range d.staleImages {
		del(name)
	}
	for name, b := range imgs {
		set(name, b)
	}
	for _, name := range d.staleImages { // a photo saved as it was
		if o, ok := prev.out[name]; ok && string(o) == string(out[name]) && out[name] != nil {
			delete(diff, name)
		}
	}
	if st.staticsGen != prev.staticsGen {
		for p := range prev.site.Statics {
			if !s.Statics[p] {
				del(strings.TrimPrefix(p, "/"))
			}
		}
		var errs diag.List
		for _, p := range sortedKeys(s.Statics) {
			rel := strings.TrimPrefix(p, "/")
			if _, taken := out[rel]; taken && !prev.site.Statics[p] {
				errs.Add(diag.New(diag.Pos{File: StaticDir + p}, "static file collides with a generated file at %s", p))
				continue
			}
			b, err := d.static(p)
			if err != nil {
				return nil, err
			}
			set(rel, b)
		}
		if len(errs) > 0 {
			return nil, errs.Err()
		}
	}
	st.out, st.fallback = out, fallback
	names := make([]string, 0, len(diff))
	for n := range diff {
		names = append(names, n)
	}
	sort.Strings(names)
	return names, nil
}

// changedFiles lists, sorted, the paths whose bytes differ between two
// outputs, or that only one has.
func changedFiles(a, b map[string][]byte) []string {
	var out []string
	for name, x := range a {
		if y, ok := b[name]; !ok || string(x) != string(y) {
			out = append(out, name)
		}
	}
	for name := range b {
		if _, ok := a[name]; !ok {
			out = append(out, name)
		}
	}
	sort.Strings(out)
	return out
}

func sameRedirects(a, b []route.Redirect) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].From != b[i].From || a[i].To != b[i].To {
			return false
		}
	}
	return true
}

// bundleFiles are the files of the asset bundles and the island client
// bundles. Asset bundles keep the URLs of the session's first build, so pages
// need not render again when only a stylesheet changed.
func (d *Dev) bundleFiles(a *assets.Result, b *islands.Bundle) map[string][]byte {
	out := map[string][]byte{}
	stable := map[string]string{}
	for name, u := range a.URLs {
		if s, ok := d.assetURLs[name]; ok {
			stable[strings.TrimPrefix(u, "/")] = strings.TrimPrefix(s, "/")
		}
	}
	for name, data := range a.Files {
		if to, ok := stable[name]; ok {
			name = to
		}
		out[name] = data
	}
	if b != nil {
		maps.Copy(out, b.ClientFiles())
	}
	return out
}

// imageOut encodes the picture variants the renders asked for (the
// processor keeps what it encoded) and returns them by output path.
func (d *Dev) imageOut() (map[string][]byte, error) {
	out := map[string][]byte{}
	if d.images == nil {
		return out, nil
	}
	files, err := d.images.Run(context.Background(), 0)
	if err != nil {
		return nil, err
	}
	for _, f := range files {
		out[f.Path] = f.Data
	}
	return out, nil
}

// static returns the bytes of a static file (site path), cached.
func (d *Dev) static(p string) ([]byte, error) {
	if b, ok := d.staticCache[p]; ok {
		return b, nil
	}
	b, err := fs.ReadFile(d.fsys, StaticDir+p)
	if err != nil {
		return nil, err
	}
	d.staticCache[p] = b
	return b, nil
}

// assemble lays out the whole output the way write does for a build.
func (d *Dev) assemble(st *devState) (map[string][]byte, map[string]string, error) {
	s := st.site
	out := make(map[string][]byte, 2*len(st.pages)+len(s.Plan.Redirects)+64)
	fallback := map[string]string{}
	for _, p := range st.pages {
		for name, b := range s.pageFiles(p) {
			out[name] = b
			if p.entry.Fallback && strings.HasSuffix(name, ".html") {
				fallback[name] = p.entry.Page.File
			}
		}
	}
	for _, rd := range s.redirectPages() {
		b, err := s.redirectPage(rd)
		if err != nil {
			return nil, nil, err
		}
		out[strings.TrimPrefix(rd.From, "/")+"index.html"] = b
	}
	hosting, err := s.hostingFiles()
	if err != nil {
		return nil, nil, err
	}
	maps.Copy(out, hosting)
	out[output.ManifestName] = nil // written by a build's commit: no static file may take its place
	sm, err := output.Sitemap(s.Plan, s.Config.BaseURL)
	if err != nil {
		return nil, nil, err
	}
	maps.Copy(out, sm)
	out["robots.txt"] = output.Robots(s.Config.BaseURL)
	app, err := output.AppData(s.Hash)
	if err != nil {
		return nil, nil, err
	}
	out["page-data/app-data.json"] = app
	maps.Copy(out, d.bundleFiles(d.assets, s.Islands))
	imgs, err := d.imageOut()
	if err != nil {
		return nil, nil, err
	}
	maps.Copy(out, imgs)
	var errs diag.List
	for _, p := range sortedKeys(s.Statics) {
		rel := strings.TrimPrefix(p, "/")
		if _, taken := out[rel]; taken {
			errs.Add(diag.New(diag.Pos{File: StaticDir + p}, "static file collides with a generated file at %s", p))
			continue
		}
		b, err := d.static(p)
		if err != nil {
			return nil, nil, err
		}
		out[rel] = b
	}
	delete(out, output.ManifestName)
	return out, fallback, errs.Err()
}

// hostingFiles are _redirects, _headers, the nginx snippet and the demo
// form's schema, as a build writes them.
func (s *Site) hostingFiles() (map[string][]byte, error) {
	var notFound []output.NotFound
	def := s.Config.DefaultLocale()
	for _, e := range s.Plan.Entries {
		if e.NotFound {
			l, _ := s.Config.Locale(e.Lang)
			notFound = append(notFound, output.NotFound{Prefix: l.Prefix, Page: l.Prefix + "/404.html"})
			if e.Lang == def.Code {
				notFound = append(notFound, output.NotFound{Page: "/404.html"})
			}
		}
	}
	files := map[string][]byte{}
	schemas, err := formschema.BuildAll(formschema.SiteInput{Config: s.Config, Source: s.Source, Plan: s.Plan, Catalog: s.Catalog,
		Markdown: markdown.New(markdown.Options{})})
	if err != nil {
		return nil, err
	}
	schemaFiles, err := schemas.Files()
	if err != nil {
		return nil, err
	}
	maps.Copy(files, schemaFiles)
	err = s.writeHostingRules(func(name string, b []byte) { files[name] = b }, notFound)
	return files, err
}

func slicesEqual(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// parallel runs fn(0..n-1) on GOMAXPROCS workers.
func parallel(n int, fn func(i int)) {
	if n == 0 {
		return
	}
	workers := min(n, runtime.GOMAXPROCS(0))
	next := make(chan int)
	done := make(chan struct{})
	for w := 0; w < workers; w++ {
		go func() {
			for i := range next {
				fn(i)
			}
			done <- struct{}{}
		}()
	}
	for i := 0; i < n; i++ {
		next <- i
	}
	close(next)
	for w := 0; w < workers; w++ {
		<-done
	}
}

// Site returns the last good build's site (nil before one).
func (d *Dev) Site() *Site {
	if d.good == nil {
		return nil
	}
	return d.good.site
}
