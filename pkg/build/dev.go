package build

import (
	"context"
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
	pages    map[string]*rendered // by entry URL
	out      map[string][]byte    // the whole output, by path below the root
	fallback map[string]string    // see DevResult.Fallback
	sigs     map[string]pageSig   // by lang/id
	// What the output's bundles and static files came from.
	assets     *assets.Result
	bundle     *islands.Bundle
	staticsGen int
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

// full loads everything again, as on start and after site.yaml changes,
// the way a build loads a site (load); a site with errors is rendered for
// its errors too (errorsOnly), so that the dev server and check report what
// a build reports.
func (d *Dev) full(ctx context.Context) (*DevResult, error) {
	start := time.Now()
	d.fsys.(*sitefs.FS).Forget()
	bodies := &bodyCache{m: map[bodyKey]cachedBody{}}
	site, errs := load(ctx, d.opts, &liveTree{fsys: d.fsys.(*sitefs.FS), bodies: bodies})
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
	d.copts, d.md, d.bodies = site.copts, site.md, bodies
	d.cfg, d.langs, d.files, d.statics, d.assets, d.assetURLs, d.bundle, d.hash = site.Config, site.copts.Langs, files, site.Statics, site.Assets, site.Assets.URLs, site.Islands, site.Hash
	d.images, d.imageFiles, d.staleImages = site.Images, site.imageFiles, nil
	if old != nil && old != d.bundle {
		old.Close()
	}
	d.good, d.renderer = nil, site.Renderer
	clear(d.staticCache)
	st, res, err := d.renderSite(ctx, site, sigsOf(site.Plan), nil, nil)
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

// Update rebuilds after the files at paths (slash paths below the site root;
// files or folders, present or gone) changed. On error the last good output
// stays as it was and the changes count again in the next update.
func (d *Dev) Update(ctx context.Context, paths []string) (*DevResult, error) {
	start := time.Now()
	d.fsys.(*sitefs.FS).Forget() // a folder may have become a link
	for _, p := range paths {
		d.pending[path.Clean(p)] = true
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
		// Pages with a stylesheet written inline render again when its
		// text changed.
		was := inlineStyles(d.assets)
		for name, css := range inlineStyles(b) {
			if was[name] != css {
				changed[render.DepStyle(name)] = true
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
				!slices.Equal(d.bundle.ModulePreloads([]string{n}), b.ModulePreloads([]string{n})) ||
				!slices.Equal(d.bundle.Scripts([]string{n}), b.Scripts([]string{n})) {
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
	site := &Site{Config: d.cfg, Source: src, Plan: plan, Catalog: catalogOf(d.cfg, src), Assets: d.assets, Statics: d.statics,
		Hash: d.hash, Islands: d.bundle, Images: d.images, fsys: d.fsys, root: d.root, md: d.md, imageFiles: d.imageFiles, copts: d.copts,
		recordDeps: true, stableURLs: d.assetURLs}
	ropts := site.renderOptions(d.opts, d.assetURLs)
	ropts.Bodies = d.bodies
	site.html = ropts.HTML
	if site.Renderer = d.renderer; site.Renderer == nil {
		if site.Renderer, err = render.New(ropts); err != nil {
			return nil, nil, err
		}
	} else {
		site.Renderer.Rebind(ropts)
	}
	if errs := site.validate(nil); len(errs) > 0 {
		return nil, nil, errs.Err()
	}
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
	entries := site.entries()
	st := &devState{site: site, pages: make(map[string]*rendered, len(entries)), sigs: sigs,
		assets: d.assets, bundle: d.bundle, staticsGen: d.staticsGen}
	var todo []*route.Entry
	for _, e := range entries {
		if prev != nil {
			if p, ok := prev.pages[e.URL]; ok && !affected(p, e, changed) {
				kept := *p
				kept.entry = e
				st.pages[e.URL] = &kept
				continue
			}
		}
		todo = append(todo, e)
	}
	done, err := site.renderEntries(ctx, todo, func(*rendered) {})
	if err != nil {
		return nil, nil, err
	}
	if errs := pageErrors(done); len(errs) > 0 {
		return nil, nil, errs.Err()
	}
	for i := range done {
		st.pages[todo[i].URL] = &done[i]
	}
	res := &DevResult{Pages: len(plan.Entries)}
	for _, e := range todo {
		res.Rendered = append(res.Rendered, e.URL)
	}
	sort.Strings(res.Rendered)
	if prev == nil {
		st.out, st.fallback, err = d.assemble(ctx, st)
	} else {
		for u := range prev.pages {
			if _, ok := st.pages[u]; !ok {
				res.Removed = append(res.Removed, u)
			}
		}
		sort.Strings(res.Removed)
		res.Changed, err = d.patch(ctx, st, prev, todo, res.Removed, changed)
	}
	if err != nil {
		return nil, nil, err
	}
	d.renderer = site.Renderer
	res.Out, res.Fallback = st.out, st.fallback
	res.RedirectTable = output.RedirectTable(site.Plan.Redirects)
	res.HeaderRules = output.HeaderRules(site.policy())
	return st, res, nil
}

// affected reports whether a page must render again.
func affected(p *rendered, e *route.Entry, changed map[string]bool) bool {
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

// patch makes the output of st from prev's: the pages rendered again, the
// pages gone, and the site-wide files whose inputs changed, each laid out
// as a build lays it out (pageFiles, redirectPages, rulesFiles,
// bundleFiles, pictures, copyStatics). It returns the paths whose bytes
// changed, sorted.
func (d *Dev) patch(ctx context.Context, st, prev *devState, todo []*route.Entry, removed []string, changed map[string]bool) ([]string, error) {
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
		for _, name := range s.pageFileNames(prev.pages[u]) {
			del(name)
		}
	}
	var errs diag.List
	for _, e := range todo {
		if old, ok := prev.pages[e.URL]; ok {
			for _, name := range s.pageFileNames(old) {
				del(name)
			}
		}
		errs.Merge(s.pageFiles(st.pages[e.URL], func(name string, b []byte) {
			set(name, b)
			if e.Fallback && strings.HasSuffix(name, ".html") {
				fallback[name] = e.Page.File
			}
		}))
	}
	if len(errs) > 0 {
		return nil, errs.Err()
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
	if !slices.EqualFunc(prev.site.Plan.Redirects, s.Plan.Redirects, sameRedirect) {
		for _, rd := range prev.site.Plan.Redirects {
			del(redirectFile(rd))
		}
		if err := s.redirectPages(set); err != nil {
			return nil, err
		}
	}
	// The form schemas and hosting rules depend on the redirects, the
	// locales with a 404 page, the forms' data and strings and the pages'
	// inline hashes.
	s.inlineHashes = pageHashes(st.pages)
	if err := s.rulesFiles(set); err != nil {
		return nil, err
	}
	if s != prev.site || st.assets != prev.assets {
		sw, err := s.worker()
		if err != nil {
			return nil, err
		}
		if sw == nil {
			del(sitepath.Worker)
		} else {
			set(sitepath.Worker, sw)
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
		old, now := bundleFiles(prev.assets, prev.bundle, d.assetURLs), bundleFiles(st.assets, st.bundle, d.assetURLs)
		for name := range old {
			if _, ok := now[name]; !ok {
				del(name)
			}
		}
		for name, b := range now {
			set(name, b)
		}
	}
	for _, name := range d.staleImages {
		del(name)
	}
	if err := s.pictures(ctx, set); err != nil {
		return nil, err
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
		taken := func(rel string) bool {
			_, ok := out[rel]
			return ok && !prev.site.Statics["/"+rel]
		}
		if err := s.copyStatics(taken, d.static, set); err != nil {
			return nil, err
		}
	}
	st.out, st.fallback = out, fallback
	return slices.Sorted(maps.Keys(diff)), nil
}

// pageHashes are the CSP hashes of the pages' inline styles and scripts.
func pageHashes(pages map[string]*rendered) []string {
	var out []string
	for _, p := range pages {
		out = append(out, p.styles...)
	}
	return out
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
	slices.Sort(out)
	return out
}

func sameRedirect(a, b route.Redirect) bool { return a.From == b.From && a.To == b.To }

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

// assemble lays out the whole output with the steps a build writes it
// with (pageFiles, siteFiles, copyStatics), into memory.
func (d *Dev) assemble(ctx context.Context, st *devState) (map[string][]byte, map[string]string, error) {
	s := st.site
	out := make(map[string][]byte, 2*len(st.pages)+len(s.Plan.Redirects)+64)
	emit := func(name string, b []byte) { out[name] = b }
	fallback := map[string]string{}
	var errs diag.List
	for _, p := range st.pages {
		errs.Merge(s.pageFiles(p, func(name string, b []byte) {
			out[name] = b
			if p.entry.Fallback && strings.HasSuffix(name, ".html") {
				fallback[name] = p.entry.Page.File
			}
		}))
	}
	if len(errs) > 0 {
		return nil, nil, errs.Err()
	}
	s.inlineHashes = pageHashes(st.pages)
	sw, err := s.worker()
	if err != nil {
		return nil, nil, err
	}
	if err := s.siteFiles(ctx, siteWide{worker: sw}, emit); err != nil {
		return nil, nil, err
	}
	taken := func(rel string) bool { _, ok := out[rel]; return ok }
	if err := s.copyStatics(taken, d.static, emit); err != nil {
		return nil, nil, err
	}
	return out, fallback, nil
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
