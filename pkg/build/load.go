package build

import (
	"context"
	"fmt"
	"io/fs"
	"maps"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"sitegen/pkg/assets"
	"sitegen/pkg/cache"
	"sitegen/pkg/config"
	"sitegen/pkg/content"
	"sitegen/pkg/deps"
	"sitegen/pkg/diag"
	"sitegen/pkg/esbuildcache"
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

// Load reads, checks and prepares a site for rendering. It returns every
// error it finds (see load) and no site when there is one.
func Load(ctx context.Context, opts Options) (*Site, error) {
	site, errs := load(ctx, opts, nil)
	if err := errs.Err(); err != nil {
		if site != nil {
			site.Close()
		}
		return nil, err
	}
	return site, nil
}

// liveTree is the source tree of a site loaded for a dev session
// (LoadLive): it changes between renders, so files are read afresh (no
// onceFS), and the parsed content files are kept (Live.Files) to parse
// again only those that change.
type liveTree struct {
	fsys *sitefs.FS
}

// load runs every stage that can run and collects all their errors: an error
// in one stage does not hide the errors of the next ones. It returns a site
// when rendering is possible; pages whose source has errors are marked to be
// skipped, and when a stage could not run, a note in the list says so. The
// site is nil only when the context was cancelled or nothing can be rendered.
// build, check and a dev session (LoadLive) load a site with it.
func load(ctx context.Context, opts Options, live *liveTree) (*Site, diag.List) {
	began := time.Now()
	if opts.now != nil {
		began = opts.now()
	}
	recRoot := opts.Source
	if recRoot == "" {
		recRoot = "."
	}
	if opts.FS != nil {
		recRoot = "" // not on disk: what is read cannot be checked again
	}
	rec := deps.New(recRoot, began)
	fsys, root, errs := openTree(opts, live, rec)
	if fsys == nil {
		return nil, errs
	}
	cfg, noRender := siteConfig(fsys, opts, &errs)
	statics, err := staticFiles(fsys)
	errs.AddErr(diag.Pos{File: StaticDir}, err)
	sch, err := schema.Load(fsys)
	if err != nil {
		errs.AddErr(diag.Pos{File: schema.FileName}, err)
		return nil, errs // data sets cannot be read without their types
	}
	// The static files are read (the build hash digests them, and the
	// copy into the output takes them from onceFS), and esbuild bundles
	// the assets and islands (they depend on no page), while the pages are
	// read and parsed.
	staticsDone := make(chan error, 1)
	go func() { staticsDone <- readAll(fsys, StaticDir, statics) }()
	var store *cache.Store
	var cacheWarning string
	if opts.CacheDir != "" && noRender == "" && live == nil { // the dev server keeps its pages itself
		// A cache that cannot be used slows the build down; it never stops it.
		if store, err = cache.Open(opts.CacheDir); err != nil {
			cacheWarning = fmt.Sprintf("building without a cache: %v", err)
		}
	}
	bundles := esbuildcache.New(store)
	bundlesDone := make(chan bundling, 1)
	go func() { bundlesDone <- bundle(ctx, opts, root, fsys, cfg, bundles) }()
	copts := contentOptions(cfg, opts, sch, true) // bodies are read again when a page renders
	if fmc := newFrontMatterCache(store); fmc != nil {
		copts.FrontMatter = fmc
	}
	if kp := newKnownPages(store, rec); kp != nil { // the files on disk are the site's (rec.root)
		copts.Pages = kp
	}
	files, src, readTime, err := readContent(ctx, fsys, copts)
	staticsErr := <-staticsDone
	bd := <-bundlesDone
	if src == nil {
		errs.AddErr(diag.Pos{File: content.Dir}, err)
		bd.close()
		store.Close()
		return nil, errs
	}
	errs.AddErr(diag.Pos{File: content.Dir}, err)
	md := markdown.New(markdown.Options{Highlight: cfg.Markdown.HighlightCode()})
	siteImages := ""
	if cfg.Images.KeepInSite && opts.FS == nil && !opts.NoSiteImages { // a site in a folder
		siteImages = filepath.Join(root, filepath.FromSlash(images.SiteFolder))
	}
	enc, err := imageEncoders(cfg.Images, opts.ImageEncoders)
	if err != nil {
		errs.Add(diag.New(cfg.Images.AVIFPos, "images.avif: native: %v", err))
	}
	imgs, imageFiles, err := newImages(fsys, opts.ImageCache, siteImages, enc, cfg.Images.MaxPixels)
	errs.AddErr(diag.Pos{File: ImageDir}, err)
	rec.AddPrograms(imgs.Programs())
	errs.AddErr(diag.Pos{File: ImageDir}, readAll(fsys, ImageDir, imageFiles))
	// The build hash is made once the templates are read (newRenderer).
	site, err := siteParts{cfg: cfg, src: src, statics: statics, assets: bd.assets, islands: bd.islands, images: imgs,
		imageFiles: imageFiles, fsys: fsys, root: root, md: md, copts: copts}.assemble()
	if noRender == "" {
		errs.AddErr(diag.Pos{File: content.Dir}, err)
	}
	site.IslandsBundle, site.cache, site.bundles, site.cacheWarning, site.files = bd.islandsTime, store, bundles, cacheWarning, files
	site.rec, site.readTime = rec, readTime
	errs.AddErr(diag.Pos{File: StaticDir}, staticsErr)
	if why := bd.failed(&errs); why != "" {
		noRender = why
	}
	if site.ready(&errs, noRender, site.newRenderer(opts, live)) == nil {
		site.Close()
		return nil, errs
	}
	return site, errs
}

// ready readies an assembled site for rendering, for load and Site.Next:
// unless the templates have errors (rerr) or an earlier stage could not run
// (noRender), links, data sets and front matter are checked and the pages
// of the files with errors are marked to be skipped; otherwise a note says
// why nothing renders, and ready returns nil. errs has every error found.
func (s *Site) ready(errs *diag.List, noRender string, rerr error) *Site {
	if rerr != nil {
		errs.AddErr(diag.Pos{File: render.TemplatesDir}, rerr)
		noRender = "the templates have errors"
	}
	if noRender == "" { // links and data sets depend on site.yaml's locales and legacy paths
		errs.Merge(s.validate(*errs))
	}
	if noRender != "" {
		errs.Add(diag.Notef(diag.Pos{}, "pages were not rendered because %s; template and link errors found while rendering may follow once it is fixed", noRender))
		return nil
	}
	s.skip = skipPages(s.source, s.Config, badFiles(*errs))
	return s
}

// siteParts are what a Site is assembled from once its files are read,
// bundled and hashed.
type siteParts struct {
	cfg        *config.Config
	src        *content.Source
	statics    map[string]bool
	hash       string
	assets     *assets.Result
	islands    *islands.Bundle
	images     *images.Processor
	imageFiles map[string]bool
	fsys       fs.FS
	root       string
	md         *markdown.Converter
	copts      content.Options
}

// assemble makes the Site of the parts: the route plan, the UI strings and
// the fields every Site has. build and check (load) and a dev session
// (Site.Next) make their Site with it. The plan's errors come with the
// site, which has a plan even then.
func (p siteParts) assemble() (*Site, error) {
	plan, err := route.Build(p.cfg, p.src, p.statics)
	return &Site{Config: p.cfg, source: p.src, plan: plan, Catalog: catalogOf(p.cfg, p.src), Assets: p.assets, Statics: p.statics,
		Hash: p.hash, Islands: p.islands, Images: p.images, imageFiles: p.imageFiles, fsys: p.fsys, root: p.root, md: p.md,
		copts: p.copts}, err
}

// newRenderer parses the templates into the site's renderer, with the page
// cache of a build that has a cache.
// The build hash is made once the templates are read (it digests them
// with everything else the load read: hashLoad), and given to the
// renderer before anything renders.
func (s *Site) newRenderer(opts Options, live *liveTree) error {
	ropts := s.renderOptions(opts, s.Assets.URLs)
	if live == nil && s.Islands != nil && s.cache == nil {
		s.Islands.Warm() // every page renders: start the engines while templates parse
	}
	if s.cache != nil && s.plan != nil {
		ropts.Cache = s.cache // the templates' own cache entry is keyed by their text too
		ropts.CacheSalt = cacheSalt(opts, ropts.BuildDate, s.Config, "", s.plan, s.Islands, s.Assets, ropts.Scripts, s.Images)
	}
	s.html = ropts.HTML
	var err error
	s.renderer, err = render.New(ropts)
	s.hashLoad()
	if err != nil {
		return err
	}
	if ropts.Cache != nil {
		ropts.CacheSalt = cacheSalt(opts, ropts.BuildDate, s.Config, s.Hash, s.plan, s.Islands, s.Assets, ropts.Scripts, s.Images)
		s.pages = &pageCache{store: ropts.Cache, salt: ropts.CacheSalt, r: s.renderer, pageData: s.pageData}
	}
	s.renderer.SetBuild(s.Hash, ropts.CacheSalt)
	return nil
}

// hashLoad makes the build hash (deps.Record.LoadHash) of what the load read.
func (s *Site) hashLoad() {
	pages := map[string]bool{}
	for _, f := range s.files {
		if f.Page != nil {
			pages[f.Path] = true
		}
	}
	extra := []string{}
	for _, name := range slices.Sorted(maps.Keys(s.Assets.URLs)) {
		extra = append(extra, name+" "+s.Assets.URLs[name])
	}
	if s.Islands != nil {
		extra = append(extra, "islands "+s.Islands.Hash())
	}
	s.Hash = s.rec.LoadHash("sitegen "+Version+"\n", pages, extra...)
}

// readAll reads the files of fsys at the given site paths below dir
// (onceFS keeps a static file's or image's bytes for the build; the record
// digests them).
func readAll(fsys fs.FS, dir string, files map[string]bool) error {
	for _, p := range slices.Sorted(maps.Keys(files)) {
		if _, err := fs.ReadFile(fsys, strings.TrimPrefix(path.Join(dir, p), "/")); err != nil {
			return err
		}
	}
	return nil
}

// openTree opens the site's source tree: opts.FS, the live tree, or the
// folder opts.Source checked by sitefs. A nil tree comes with the errors
// that stopped it.
func openTree(opts Options, live *liveTree, rec *deps.Record) (fs.FS, string, diag.List) {
	var errs diag.List
	root := opts.Source
	if root == "" {
		root = "."
	}
	var fsys fs.FS = opts.FS
	switch {
	case live != nil:
		fsys = live.fsys
	case fsys == nil:
		sfs, err := sitefs.New(root)
		if err != nil {
			errs.AddErr(diag.Pos{}, err)
			return nil, root, errs
		}
		fsys = sfs
	default:
		if need := diskOnly(fsys); need != "" {
			errs.Addf(diag.Pos{File: need}, "%s is bundled by esbuild, which reads the site from disk: build this site from a folder", need)
			return nil, root, errs
		}
	}
	if sfs, ok := fsys.(*sitefs.FS); ok {
		if bad := sfs.Check(); len(bad) > 0 {
			// Files that cannot be read safely would only fail again in every
			// later stage: report them all, and check the rest once they are gone.
			errs.Merge(bad)
			errs.Add(diag.Notef(diag.Pos{}, "the site was not checked further: remove or replace the files above first"))
			return nil, root, errs
		}
	}
	recorded := deps.NewFS(fsys, rec)
	if live == nil {
		return newOnceFS(recorded), root, errs
	}
	return recorded, root, errs
}

// unrecorded is the tree under the input recorder (and onceFS) of fsys:
// where a page's body is read again for its render, its file having been
// recorded, with its digest, when it was parsed (a second read through the
// recorder stat'ed and hashed it again: 0.8 s of CPU at 50,000 pages).
func unrecorded(fsys fs.FS) fs.FS {
	if o, ok := fsys.(*onceFS); ok {
		fsys = o.fsys
	}
	if r, ok := fsys.(*deps.FS); ok {
		return r.Unrecorded()
	}
	return fsys
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

// siteConfig reads site.yaml and applies --base-url. Without a usable
// site.yaml it returns a provisional one and says why pages cannot render.
func siteConfig(fsys fs.FS, opts Options, errs *diag.List) (cfg *config.Config, noRender string) {
	cfg, err := config.Load(fsys)
	errs.AddErr(diag.Pos{File: config.FileName}, err)
	if cfg == nil || len(cfg.Locales) == 0 {
		cfg = provisionalConfig(fsys)
		noRender = "site.yaml could not be used"
		errs.Add(diag.Notef(diag.Pos{}, "without a usable site.yaml, content was read for the locales found in content/ (%s) and templates were parsed; links and data sets were not checked", strings.Join(localeCodes(cfg), ", ")))
	}
	if opts.BaseURL != "" {
		if b, err := config.CheckBaseURL(opts.BaseURL); err != nil {
			errs.Addf(diag.Pos{}, "--base-url %v", err)
		} else {
			cfg.BaseURL = b
		}
	}
	if _, err := output.ParseHost(cfg.Host); err != nil {
		errs.Add(diag.New(cfg.HostPos, "host: %v", err).WithHint("see docs/hosting.md"))
		cfg.Host = ""
	}
	if opts.Host != "" {
		if _, err := output.ParseHost(opts.Host); err != nil {
			errs.Addf(diag.Pos{}, "--host: %v", err)
		} else {
			cfg.Host = opts.Host
		}
	}
	return cfg, noRender
}

func localeCodes(cfg *config.Config) []string {
	langs := make([]string, len(cfg.Locales))
	for i, l := range cfg.Locales {
		langs[i] = l.Code
	}
	return langs
}

// contentOptions says how content files are parsed; lazy drops the pages'
// bodies once parsed (a build reads each again when it renders the page).
func contentOptions(cfg *config.Config, opts Options, sch *schema.Schema, lazy bool) content.Options {
	copts := content.Options{Langs: localeCodes(cfg), Drafts: opts.Drafts, Schema: sch, LazyBodies: lazy}
	if l := cfg.ErrorPages.Layout; l != "" {
		copts.Layouts = map[string]string{cfg.ErrorPages.NotFound: l, cfg.ErrorPages.ServerError: l}
	}
	return copts
}

// readContent reads and parses content/ and assembles the site's content,
// and says how long that took; src is nil when it could not be read at all.
func readContent(ctx context.Context, fsys fs.FS, copts content.Options) ([]content.SourceFile, *content.Source, time.Duration, error) {
	start := time.Now()
	files, errs, err := content.Read(ctx, fsys, copts)
	if err != nil {
		return nil, nil, time.Since(start), err
	}
	src, err := content.Assemble(copts, files)
	errs.AddErr(diag.Pos{}, err)
	return files, src, time.Since(start), errs.Err()
}

// catalogOf is the site's UI strings by locale.
func catalogOf(cfg *config.Config, src *content.Source) *i18n.Catalog {
	strs := map[string]map[string]string{}
	for _, l := range cfg.Locales {
		strs[l.Code] = src.Locales[l.Code].Strings
	}
	return i18n.New(strs, cfg.DefaultLocale().Code)
}

// renderOptions are the renderer's options for the site's content, plan
// and bundles; urls are the asset URLs the pages link.
func (s *Site) renderOptions(opts Options, urls map[string]string) render.Options {
	date := opts.Date
	if date == "" {
		date = time.Now().Format("2006-01-02")
	}
	var scripts []string
	if u, ok := urls[runtimeEntry]; ok {
		scripts = append(scripts, u)
	}
	ropts := render.Options{
		FS: s.fsys, BodyFS: unrecorded(s.fsys), Config: s.Config, Source: s.source, Plan: s.plan, Catalog: s.Catalog, Markdown: s.md,
		Assets: urls, BuildHash: s.Hash, BuildDate: date,
		IconDir: s.Config.Icons.Dir, StaticDir: StaticDir, Scripts: scripts,
		HTML: htmlMinifier(opts.Minify), InlineStyles: s.Assets.InlineStyles(), Images: s.Images,
	}
	if s.Islands != nil {
		ropts.Islands = s.Islands
	}
	return ropts
}

// validate checks links, data sets and front matter against the loaded
// site. errs are the errors found so far: a data set missing because its
// file has errors is not reported again where pages use it.
func (s *Site) validate(errs diag.List) diag.List {
	langs := localeCodes(s.Config)
	broken := map[string]bool{} // locales with a data file that has errors
	for _, d := range errs {
		for _, l := range langs {
			if strings.HasPrefix(d.Pos.File, content.Dir+"/"+l+"/data/") {
				broken[l] = true
			}
		}
	}
	def := s.Config.DefaultLocale().Code
	dataBroken := func(lang string) bool { return broken[lang] || broken[def] }
	return validate(s.Config, s.md, s.source, s.plan, s.renderer, withImages(s.Statics, s.imageFiles), langs, dataBroken)
}

// badFiles are the source files with errors: pages from or using them are
// not rendered.
func badFiles(errs diag.List) map[string]bool {
	bad := map[string]bool{}
	for _, d := range errs {
		if strings.HasPrefix(d.Pos.File, content.Dir+"/") {
			bad[d.Pos.File] = true
		}
	}
	return bad
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
