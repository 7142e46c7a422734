// Package build wires the pipeline: config → content → route → render → output.
// A build is a pure function of the source tree and its options: the same
// input gives byte-identical output.
package build

import (
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"maps"
	"os"
	"path"
	"slices"
	"sort"
	"strings"
	"time"

	"sitegen/pkg/assets"
	"sitegen/pkg/cache"
	"sitegen/pkg/config"
	"sitegen/pkg/content"
	"sitegen/pkg/diag"
	"sitegen/pkg/esbuildcache"
	"sitegen/pkg/htmlmin"
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

// Version is sitegen's version; it is part of the build hash.
const Version = "0.1.0"

// StaticDir holds files copied verbatim to the output root.
const StaticDir = "assets/static"

// Options of a build.
type Options struct {
	Source  string // site root
	Out     string // output directory
	BaseURL string // overrides site.yaml's baseURL when set
	Drafts  bool
	// Date (YYYY-MM-DD) is the day announcements are judged against; empty
	// means today. It is the only clock a build reads.
	Date   string
	Minify bool
	// ImageCache is the folder of encoded image variants kept between
	// builds; empty means .cache/sitegen/images in the site.
	ImageCache string
	Logger     *slog.Logger
	// CacheDir, when set, is the folder of the persistent build cache
	// (pkg/cache): pages' final bytes (see pageCache), esbuild bundles,
	// rendered Markdown and island SSR kept between builds. Output is
	// byte-identical with and without it.
	CacheDir string
	// AfterWrite, when set, is called once every page is written, while the
	// site is still loaded (sitegen build --memprofile uses it).
	AfterWrite func() error
	// PrivateOut says Out is a fresh folder the caller made for this build
	// alone (sitegen serve's temporary folder), so the checks of who owns it
	// are skipped.
	PrivateOut bool
	// FS, when set, is the site's source tree instead of the folder Source
	// (an in-memory tree in tests). esbuild reads from disk, so such a site
	// has no assets/css, assets/runtime or assets/islands to bundle.
	FS fs.FS

	beforeRender func(*route.Entry) // a test's fault injection: called before each page renders
}

// Report summarizes a build.
type Report struct {
	Pages     map[string]int // pages per locale
	Redirects int
	// RedirectTable is the route plan's redirects for the dev server
	// (output.RedirectTable), the same list _redirects holds.
	RedirectTable map[string]string
	// HeaderRules is the header table _headers was written from, with the
	// site's CSP, for the dev server.
	HeaderRules   []output.HeaderRule
	Files         int
	Bytes         int64
	Duration      time.Duration
	BuildHash     string
	Fallbacks     []route.Fallback
	DataFallbacks [][2]string
	StringMisses  []i18n.Miss
	Locales       []string
	// JS is, per layout, the largest JavaScript payload (gzip bytes) a page
	// of that layout loads, with the islands it hydrates.
	JS map[string]PageJS
	// Runtime is the client runtime's gzip size (part of every JS total).
	Runtime int
	// Islands: time to bundle them, number of island renders and the time
	// spent in SSR (summed over workers); SSREngine of the renders ran the
	// island's JS (the others were the same render as an earlier one).
	IslandsBundle time.Duration
	SSRCalls      int64
	SSRTime       time.Duration
	SSREngine     int64
	// Cache lookups (pages, Markdown and island SSR) that hit and missed;
	// both 0 without a cache.
	CacheHits, CacheMisses int64
	CacheWarning           string // why the cache was not used, if it was not
	// PageCache says the build used the persistent cache; PagesRendered
	// pages were then rendered (their URLs in Rendered, sorted) and
	// PagesCached taken whole from the cache. The counts leave out the root
	// page, as Pages does; Rendered does not.
	PageCache                  bool
	PagesRendered, PagesCached int
	Rendered                   []string
	// TemplateSets is how many template sets were parsed (none when every
	// page came from the cache); EsbuildRuns how many esbuild builds ran
	// (not taken from the cache; counted with a cache only).
	TemplateSets, EsbuildRuns int
	Images                    images.Stats
}

// PageJS is the JavaScript one page loads.
type PageJS struct {
	GzipBytes int
	Islands   []string
	Page      string
}

// Summary is the one-line summary printed at the end of a build.
func (r *Report) Summary() string {
	parts := make([]string, 0, len(r.Locales))
	total := 0
	for _, l := range r.Locales {
		parts = append(parts, fmt.Sprintf("%s %d", l, r.Pages[l]))
		total += r.Pages[l]
	}
	s := fmt.Sprintf("built %d pages (%s), %d redirects: %d files, %s in %d ms",
		total, strings.Join(parts, ", "), r.Redirects, r.Files, humanBytes(r.Bytes), r.Duration.Milliseconds())
	if r.PageCache {
		s += fmt.Sprintf(" (pages: %d rendered, %d from cache)", r.PagesRendered, r.PagesCached)
	}
	return s
}

func humanBytes(n int64) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}

// Site is a loaded, validated site ready to render (used by build and serve).
type Site struct {
	Config   *config.Config
	Source   *content.Source
	Plan     *route.Plan
	Renderer *render.Renderer
	Catalog  *i18n.Catalog
	Assets   *assets.Result
	Statics  map[string]bool
	Hash     string
	Islands  *islands.Bundle // nil when the site has no assets/islands/
	Images   *images.Processor
	// IslandsBundle is how long bundling the islands took.
	IslandsBundle time.Duration
	cache         *cache.Store      // nil without Options.CacheDir
	pages         *pageCache        // nil without Options.CacheDir
	html          *htmlmin.Minifier // minifies the redirect pages (the renderer minifies the others); nil: off
	bundles       *esbuildcache.Cache
	cacheWarning  string
	fsys          fs.FS
	root          string
	beforeRender  func(*route.Entry)
	skip          map[string]bool // source files with errors: their pages are not rendered
	inlineHashes  []string        // CSP hashes of the <style>s and inline scripts the written pages carry (inlineHashes)
	formSet       siteForms       // the schemas of the site's forms (forms)
	// recordDeps: record what each render used (the dev server).
	recordDeps bool
	// stableURLs, in the dev server, are the URLs the pages link for each
	// asset entry (see bundleFiles).
	stableURLs map[string]string
}

// Close releases the island engines and saves what the cache learned.
func (s *Site) Close() error {
	err := s.cache.Close()
	if s.Islands != nil {
		err = errors.Join(err, s.Islands.Close())
	}
	return err
}

// Load reads, checks and prepares a site for rendering. It returns every
// error it finds (see load) and no site when there is one.
func Load(ctx context.Context, opts Options) (*Site, error) {
	site, errs := load(ctx, opts)
	if err := errs.Err(); err != nil {
		if site != nil {
			site.Close()
		}
		return nil, err
	}
	return site, nil
}

// diskOnly returns the first of the assets esbuild bundles that fsys holds.
func diskOnly(fsys fs.FS) string {
	for _, e := range append(append([]string{}, assets.Entries...), "islands") {
		p := path.Join(assets.Dir, e)
		if _, err := fs.Stat(fsys, p); err == nil {
			return p
		}
	}
	return ""
}

// load runs every stage that can run and collects all their errors: an error
// in one stage does not hide the errors of the next ones. It returns a site
// when rendering is possible; pages whose source has errors are marked to be
// skipped, and when a stage could not run, a note in the list says so. The
// site is nil only when the context was cancelled or nothing can be rendered.
func load(ctx context.Context, opts Options) (*Site, diag.List) {
	var errs diag.List
	root := opts.Source
	if root == "" {
		root = "."
	}
	var fsys fs.FS = opts.FS
	if fsys == nil {
		sfs, err := sitefs.New(root)
		if err != nil {
			errs.AddErr(diag.Pos{}, err)
			return nil, errs
		}
		if bad := sfs.Check(); len(bad) > 0 {
			// Files that cannot be read safely would only fail again in every
			// later stage: report them all, and check the rest once they are gone.
			errs.Merge(bad)
			errs.Add(diag.Notef(diag.Pos{}, "the site was not checked further: remove or replace the files above first"))
			return nil, errs
		}
		fsys = sfs
	} else if need := diskOnly(fsys); need != "" {
		errs.Addf(diag.Pos{File: need}, "%s is bundled by esbuild, which reads the site from disk: build this site from a folder", need)
		return nil, errs
	}
	fsys = newOnceFS(fsys)
	noRender := "" // why pages cannot be rendered, if they cannot
	cfg, err := config.Load(fsys)
	errs.AddErr(diag.Pos{File: config.FileName}, err)
	if cfg == nil || len(cfg.Locales) == 0 {
		cfg = provisionalConfig(fsys)
		noRender = "site.yaml could not be used"
		var codes []string
		for _, l := range cfg.Locales {
			codes = append(codes, l.Code)
		}
		errs.Add(diag.Notef(diag.Pos{}, "without a usable site.yaml, content was read for the locales found in content/ (%s) and templates were parsed; links and data sets were not checked", strings.Join(codes, ", ")))
	}
	if opts.BaseURL != "" {
		if b, err := config.CheckBaseURL(opts.BaseURL); err != nil {
			errs.Addf(diag.Pos{}, "--base-url %v", err)
		} else {
			cfg.BaseURL = b
		}
	}
	langs := make([]string, len(cfg.Locales))
	for i, l := range cfg.Locales {
		langs[i] = l.Code
	}
	statics, err := staticFiles(fsys)
	errs.AddErr(diag.Pos{File: StaticDir}, err)
	sch, err := schema.Load(fsys)
	if err != nil {
		errs.AddErr(diag.Pos{File: schema.FileName}, err)
		return nil, errs // data sets cannot be read without their types
	}
	// The build hash reads every file but the pages: it runs while the
	// pages are read and parsed.
	type hashed struct {
		hash string
		err  error
	}
	hashDone := make(chan hashed, 1)
	go func() {
		h, err := buildHash(fsys)
		hashDone <- hashed{h, err}
	}()
	// esbuild bundles the assets and islands meanwhile too (they depend on
	// no page).
	var store *cache.Store
	var cacheWarning string
	if opts.CacheDir != "" && noRender == "" {
		// A cache that cannot be used slows the build down; it never stops it.
		if store, err = cache.Open(opts.CacheDir); err != nil {
			cacheWarning = fmt.Sprintf("building without a cache: %v", err)
		}
	}
	bundles := esbuildcache.New(store)
	bundlesDone := make(chan bundling, 1)
	go func() { bundlesDone <- bundle(ctx, opts, root, fsys, cfg, bundles) }()
	copts := content.Options{Langs: langs, Drafts: opts.Drafts, Schema: sch, LazyBodies: true}
	if l := cfg.ErrorPages.Layout; l != "" {
		copts.Layouts = map[string]string{cfg.ErrorPages.NotFound: l, cfg.ErrorPages.ServerError: l}
	}
	src, err := content.Load(ctx, fsys, copts)
	hr := <-hashDone
	bd := <-bundlesDone
	if src == nil {
		errs.AddErr(diag.Pos{File: content.Dir}, err)
		if bd.islands != nil {
			bd.islands.Close()
		}
		store.Close()
		return nil, errs
	}
	errs.AddErr(diag.Pos{File: content.Dir}, err)
	brokenData := map[string]bool{} // locales with a data file that has errors
	for _, d := range errs {
		for _, l := range langs {
			if strings.HasPrefix(d.Pos.File, content.Dir+"/"+l+"/data/") {
				brokenData[l] = true
			}
		}
	}
	plan, err := route.Build(cfg, src, statics)
	if noRender == "" {
		errs.AddErr(diag.Pos{File: content.Dir}, err)
	}
	hash := hr.hash
	errs.AddErr(diag.Pos{}, hr.err)
	bundled := bd.assets
	if bd.assetsErr != nil {
		errs.AddErr(diag.Pos{File: assets.Dir}, bd.assetsErr)
		noRender = "the stylesheets and scripts in assets/ did not bundle"
	}
	strs := map[string]map[string]string{}
	for _, l := range langs {
		strs[l] = src.Locales[l].Strings
	}
	catalog := i18n.New(strs, cfg.DefaultLocale().Code)
	date := opts.Date
	if date == "" {
		date = time.Now().Format("2006-01-02")
	}
	var scripts []string
	if u, ok := bundled.URLs[runtimeEntry]; ok {
		scripts = append(scripts, u)
	}
	ropts := render.Options{
		FS: fsys, Config: cfg, Source: src, Plan: plan, Catalog: catalog, Markdown: markdown.New(markdown.Options{Highlight: cfg.Markdown.HighlightCode()}),
		Assets: bundled.URLs, BuildHash: hash, BuildDate: date,
		IconDir: cfg.Icons.Dir, StaticDir: StaticDir, Scripts: scripts,
		HTML: htmlMinifier(opts.Minify),
	}
	ropts.InlineStyles = inlineStyles(bundled)
	imgs, imageFiles, err := newImages(fsys, root, opts.ImageCache)
	errs.AddErr(diag.Pos{File: ImageDir}, err)
	ropts.Images = imgs
	bundle, bundleTime := bd.islands, bd.islandsTime
	if bd.islandsErr != nil {
		errs.AddErr(diag.Pos{File: "assets/islands"}, bd.islandsErr)
		noRender = "the islands in assets/islands/ did not bundle"
	} else if bundle != nil {
		ropts.Islands = bundle
		if store == nil {
			bundle.Warm() // every page renders: start the engines while templates parse
		}
	}
	if store != nil && plan != nil {
		ropts.Cache = store
		ropts.CacheSalt = cacheSalt(opts, date, cfg, hash, plan, bundle, bundled, scripts, imgs)
	}
	r, err := render.New(ropts)
	checker := r
	if err != nil {
		errs.AddErr(diag.Pos{File: render.TemplatesDir}, err)
		noRender = "the templates have errors"
		checker = nil // layouts and sections cannot be looked up
	}
	// A data set missing because its file has errors is not reported again
	// where pages use it.
	dataBroken := func(lang string) bool { return brokenData[lang] || brokenData[cfg.DefaultLocale().Code] }
	if noRender == "" { // links and data sets depend on site.yaml's locales and legacy paths
		errs.Merge(validate(cfg, ropts.Markdown, src, plan, checker, withImages(statics, imageFiles), langs, dataBroken))
	}
	bad := map[string]bool{} // source files with errors: pages from or using them are not rendered
	for _, d := range errs {
		if strings.HasPrefix(d.Pos.File, content.Dir+"/") {
			bad[d.Pos.File] = true
		}
	}
	if noRender != "" {
		errs.Add(diag.Notef(diag.Pos{}, "pages were not rendered because %s; template and link errors found while rendering may follow once it is fixed", noRender))
		if bundle != nil {
			bundle.Close()
		}
		store.Close()
		return nil, errs
	}
	var pages *pageCache
	if ropts.Cache != nil {
		pages = &pageCache{store: ropts.Cache, salt: ropts.CacheSalt, r: r}
	}
	site := &Site{Config: cfg, Source: src, Plan: plan, Renderer: r, Catalog: catalog, Assets: bundled, Statics: statics,
		Hash: hash, Islands: bundle, IslandsBundle: bundleTime, Images: imgs, cache: store, pages: pages, html: ropts.HTML, bundles: bundles, cacheWarning: cacheWarning,
		fsys: fsys, root: root, skip: skipPages(src, cfg, bad)}
	if pages != nil {
		pages.pageData = site.pageData
	}
	return site, errs
}

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
	if st, err := fs.Stat(fsys, "assets/islands"); err == nil && st.IsDir() {
		t0 := time.Now()
		b.islands, b.islandsErr = islands.Build(ctx, islands.Options{Root: root, Library: cfg.Islands.Library, Minify: opts.Minify,
			RenderTimeout: cfg.Islands.RenderTimeout.Duration, BuildBudget: cfg.Islands.BuildBudget.Duration, Cache: bundles})
		b.islandsTime = time.Since(t0)
	}
	<-assetsDone
	return b
}

// skipPages returns the source files of the pages not to render: those with
// errors, and those whose sections use a data set that is missing or comes
// from a file with errors (rendering them would only repeat those errors).
func skipPages(src *content.Source, cfg *config.Config, bad map[string]bool) map[string]bool {
	skip := map[string]bool{}
	for f := range bad {
		skip[f] = true
	}
	def := src.Locales[cfg.DefaultLocale().Code]
	for _, loc := range src.Locales {
		for _, pg := range loc.Pages {
			for _, sec := range pg.Sections {
				if sec.Data == "" {
					continue
				}
				ds, ok := loc.Data[sec.Data]
				if !ok && def != nil {
					ds, ok = def.Data[sec.Data]
				}
				if !ok || bad[ds.Pos.File] {
					skip[pg.File] = true
				}
			}
		}
	}
	return skip
}

// provisionalConfig stands in for a site.yaml that could not be used, so that
// content and templates are still checked: one locale per folder of content/.
func provisionalConfig(fsys fs.FS) *config.Config {
	cfg := &config.Config{BaseURL: "https://site.invalid", Title: "site"}
	entries, _ := fs.ReadDir(fsys, content.Dir)
	for _, e := range entries {
		if e.IsDir() && !strings.HasPrefix(e.Name(), ".") && sitepath.Check("/"+e.Name()) == nil && sitepath.Reserved("/"+e.Name(), nil) == "" {
			cfg.Locales = append(cfg.Locales, config.Locale{Code: e.Name(), Name: e.Name(), Prefix: "/" + e.Name()})
		}
	}
	if len(cfg.Locales) == 0 {
		cfg.Locales = []config.Locale{{Code: "en", Name: "en", Prefix: "/en"}}
	}
	cfg.Locales[0].Default = true
	cfg.LegacyPaths = map[string]string{}
	cfg.LegacyPos = map[string]diag.Pos{}
	return cfg
}

// InternalError is a panic met during a build, reported as an error instead
// of a crash: it names what was being built and asks for a bug report.
type InternalError struct {
	Doing string // "rendering content/pl/x.md", "loading the site"
	Value any    // what was recovered
}

func (e *InternalError) Error() string {
	return fmt.Sprintf("internal error while %s: %v (this is a bug in sitegen; please report it)", e.Doing, e.Value)
}

// recoverAs turns a panic into an *InternalError in *err; use it deferred.
func recoverAs(err *error, doing string) {
	if v := recover(); v != nil {
		*err = &InternalError{Doing: doing, Value: v}
	}
}

// Run builds the site into opts.Out. A panic anywhere in the build is
// returned as an *InternalError; the temporary output is removed.
func Run(ctx context.Context, opts Options) (_ *Report, err error) {
	defer recoverAs(&err, "building the site")
	start := time.Now()
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	if opts.Out == "" {
		opts.Out = "public"
	}
	if !opts.PrivateOut {
		if err := checkOut(opts.Source, opts.Out); err != nil {
			return nil, err
		}
	}
	site, errs := load(ctx, opts)
	if err := ctx.Err(); err != nil {
		return nil, stopped(ctx, err)
	}
	if site == nil {
		return nil, attachSource(opts, errs.Err())
	}
	defer site.Close()
	site.beforeRender = opts.beforeRender
	if errs.Errors() > 0 {
		// Render what loaded, into no output, for the errors found there.
		_, err := site.write(ctx, nil)
		errs.AddErr(diag.Pos{}, err)
		if n := site.skipped(); n > 0 {
			errs.Add(diag.Notef(diag.Pos{}, "%d page(s) were not rendered because of the errors above", n))
		}
		return nil, attachSource(opts, errs.Err())
	}
	tree, err := output.Begin(opts.Out, Version)
	if err != nil {
		return nil, err
	}
	committed := false
	defer func() {
		if !committed { // a panic unwinding: leave no temporary tree behind
			tree.Abort()
		}
	}()
	rep, err := site.write(ctx, tree)
	if err == nil && opts.AfterWrite != nil {
		err = opts.AfterWrite()
	}
	if err == nil {
		err = ctx.Err() // stopped: the previous output stays
	}
	if err != nil {
		tree.Abort()
		return nil, attachSource(opts, stopped(ctx, err))
	}
	committed = true
	if err := tree.Commit(); err != nil {
		return nil, err
	}
	rep.Duration = time.Since(start)
	log.Info("build done", "pages", rep.Pages, "files", rep.Files, "bytes", rep.Bytes, "ms", rep.Duration.Milliseconds())
	return rep, nil
}

// stopped turns the errors of work cut short by ctx into ctx's error.
func stopped(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return fmt.Errorf("build stopped: %w", ctx.Err())
	}
	return err
}

// attachSource gives the diagnostics in err their source lines, for the
// caret display.
func attachSource(opts Options, err error) error {
	root := opts.Source
	if root == "" {
		root = "."
	}
	return diag.AttachSource(os.DirFS(root), err)
}

// sitePolicy derives the CSP from the configuration: the sources site.yaml
// lists under csp, and the origins of form endpoints on other hosts.
func sitePolicy(cfg *config.Config) output.CSP {
	// The form handlers' origins come first: the site's own parts, then
	// third parties.
	var forms []string
	for _, name := range slices.Sorted(maps.Keys(cfg.Forms)) {
		if o := config.Origin(cfg.Forms[name].Endpoint); o != "" {
			forms = append(forms, o)
		}
	}
	// Then the hosts of the configured analytics tags (issue 9), then any
	// origins site.yaml lists itself.
	an := output.AnalyticsSources(cfg.Analytics)
	return output.CSP{
		Script:  append(an.Script, cfg.CSP.ScriptSrc...),
		Img:     append(an.Img, cfg.CSP.ImgSrc...),
		Connect: append(append(append([]string{}, forms...), an.Connect...), cfg.CSP.ConnectSrc...),
		Form:    append(append([]string{}, forms...), cfg.CSP.FormAction...),
	}
}

// checkOut refuses output directories a build must not replace (see
// output.Guard); the error is an *output.RefusedError.
func checkOut(src, out string) error {
	return output.Guard(src, out)
}

// runtimeEntry is the client runtime's entry under assets/.
const runtimeEntry = "runtime/runtime.js"

// worker builds /sw.js: the caching worker with an offline page per
// locale, or the retiring worker when site.yaml asks for it.
func (s *Site) worker() ([]byte, error) {
	pages := map[string]string{}
	for _, l := range s.Config.Locales {
		if e, ok := s.Plan.Lookup(l.Code, "offline"); ok && !e.Fallback {
			pages[l.Prefix] = e.URL
		}
	}
	return assets.Worker(s.root, assets.WorkerOptions{Minify: true, Retire: s.Config.ServiceWorker.Retire, Build: s.Hash, Pages: pages, Cache: s.bundles})
}

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

// RenderURL renders the page at a site path (for the dev server).
func (s *Site) RenderURL(ctx context.Context, url string) (_ []byte, _ bool, err error) {
	defer recoverAs(&err, "rendering "+url)
	e, ok := s.Plan.ByURL(url)
	if !ok {
		return nil, false, nil
	}
	res, err := s.Renderer.Render(ctx, e)
	if err != nil {
		return nil, true, err
	}
	return res.HTML, true, nil
}

// jsSizer returns a function summing the gzip sizes of script URLs. The
// size of every script is computed up front (or read from the build cache,
// by the script's content); the function is safe for one goroutine.
func (s *Site) jsSizer() func([]string) int {
	files := map[string][]byte{}
	for name, b := range s.Assets.Files {
		files["/"+name] = b
	}
	if s.Islands != nil {
		for name, b := range s.Islands.ClientFiles() {
			files["/"+name] = b
		}
	}
	sizes := map[string]int{}
	for u, b := range files {
		if strings.HasSuffix(u, ".js") {
			sizes[u] = s.gzipSize(b)
		}
	}
	return func(urls []string) int {
		total := 0
		for _, u := range urls {
			n, ok := sizes[u]
			if !ok {
				n = s.gzipSize(files[u])
				sizes[u] = n
			}
			total += n
		}
		return total
	}
}

// gzipSize is gzipSize through the build cache.
func (s *Site) gzipSize(b []byte) int {
	k := cache.NewKey([]byte("gzip-size-1"), b)
	if v, ok := s.cache.Get(k); ok {
		if n, w := binary.Uvarint(v); w > 0 {
			return int(n)
		}
	}
	n := gzipSize(b)
	s.cache.Put(k, binary.AppendUvarint(nil, uint64(n)))
	return n
}

func gzipSize(b []byte) int {
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	zw.Write(b)
	zw.Close()
	return buf.Len()
}

// skipped counts the pages not rendered because their source has errors.
func (s *Site) skipped() int {
	n := 0
	for _, e := range s.Plan.Entries {
		if s.skip[e.Page.File] && !e.Fallback {
			n++
		}
	}
	return n
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
