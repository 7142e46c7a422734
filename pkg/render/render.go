// Package render turns route entries into HTML with html/template layouts,
// partials and sections from templates/, one template set per locale so that
// functions such as t, ref and data resolve in the page's locale.
package render

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"html/template"
	"io/fs"
	"os"
	"runtime"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"

	"sitegen/pkg/cache"
	"sitegen/pkg/config"
	"sitegen/pkg/content"
	"sitegen/pkg/diag"
	"sitegen/pkg/htmlmin"
	"sitegen/pkg/i18n"
	"sitegen/pkg/internal/bufpool"
	"sitegen/pkg/markdown"
	"sitegen/pkg/output"
	"sitegen/pkg/route"
	"sitegen/pkg/sitepath"
)

// Islands renders React islands at build time (implemented by pkg/islands).
type Islands interface {
	Has(name string) bool
	Render(ctx context.Context, name string, propsJSON []byte, directive string, childrenHTML string) (html string, hydrated bool, err error)
	Scripts(hydrated []string) []string
	ModulePreloads(hydrated []string) []string
	// Placement returns the kind of a directive (load, idle, visible,
	// media, none), its media query and the island's entry chunk ("" when
	// the island does not hydrate).
	Placement(name, directive string) (kind, media, chunk string, err error)
}

// Options are what a renderer needs; every field but Islands is required.
type Options struct {
	FS fs.FS // the site's source tree
	// BodyFS is where a page's body is read again for its render
	// (content.Page.LoadBody); nil: FS. The build gives the tree without
	// its input recorder: the page's file was read, hashed and recorded
	// when it was parsed, and LoadBody fails a build whose body changed
	// since.
	BodyFS    fs.FS
	Config    *config.Config
	Source    *content.Source
	Plan      *route.Plan
	Catalog   *i18n.Catalog
	Markdown  *markdown.Converter
	Assets    map[string]string // bundled asset name ("css/main.css") -> URL
	Islands   Islands
	BuildHash string
	BuildDate string   // YYYY-MM-DD: the day announcements are judged against
	IconDir   string   // folder of SVG icons in FS, e.g. node_modules/lucide-static/icons
	StaticDir string   // folder of static files in FS, e.g. assets/static
	Scripts   []string // module scripts every page loads (the client runtime)
	// Cache, when set, keeps each page's rendered Markdown and each island's
	// server render between builds. CacheSalt must name everything else they
	// depend on: sitegen's version, the options, the templates and assets,
	// the route plan (links resolve through it) and the islands bundle.
	Cache     *cache.Store
	CacheSalt []byte
	Images    Pictures // makes <picture>s (template func picture, Markdown images); nil: none
	// HTML, when set, minifies what pages are made of where it costs nothing
	// per page: the templates' text once per parse, each icon once, and the
	// Markdown of data records (converted once per locale); see pkg/htmlmin.
	// nil: as written.
	HTML *htmlmin.Minifier
	// Bodies, when set, keeps converted Markdown bodies across renders
	// (the dev server's); nil converts every time.
	Bodies BodyCache
	// InlineStyles are the stylesheets the template function stylesheet
	// writes into the page as <style> (bundled name -> CSS text); one not
	// listed is linked (the dev server's, which it swaps in place). The
	// build allows each in the CSP by its hash.
	InlineStyles map[string]string
}

// BodyCache keeps the HTML of page bodies. A body depends only on its page,
// the locale its links resolve in, and the link targets it resolved (deps).
type BodyCache interface {
	Body(e *route.Entry) (html string, deps []string, ok bool)
	PutBody(e *route.Entry, html string, deps []string)
}

// Renderer renders pages. Render is safe for concurrent use.
type Renderer struct {
	opts Options
	// info names the templates and layouts, and which files each template
	// runs (from the parse trees, or from the cache: see templateInfo).
	info templateInfo
	// pool holds template sets ready for one render each (see execSet),
	// parsed when a render first needs one; made counts them, at most
	// maxSets. base, shared and layouts are the sources they are parsed
	// from.
	pool    chan *execSet
	made    atomic.Int32
	maxSets int32
	base    *source
	shared  []source
	layouts []source
	closure templateClosure

	icons sync.Map // name -> template.HTML
	dims  sync.Map // static path -> [2]int
	// texts holds converted Markdown of data records (mdText by textKey):
	// the same record shown on many pages is converted once per locale.
	texts sync.Map

	mu           sync.Mutex
	dataFallback map[[2]string]bool // (lang, set) taken from the default locale

	ssrCalls atomic.Int64
	ssrNanos atomic.Int64
	pageSize atomic.Int64 // the size of the last page rendered (a buffer size hint)
	pageBufs bufpool.Pool // page buffers released (Result.Release) for the next pages
	bodyBufs bufpool.Pool // the buffers of a build's page bodies, free once the page is rendered
	readBufs bufpool.Pool // the buffers page files are read again into (LoadBodyBuf), free once converted

	// digests and files serve TraceDigest (see trace.go).
	digests   sync.Map // file -> digest
	filesOnce sync.Once
	files     map[string]*content.Page

	// Hoisted regions (hoist.go): hoisted keeps each region's output per
	// locale (hoistKey -> *hoistMemo) for as long as the options hold;
	// regionIDs names the regions of every set parsed. noHoist turns it off.
	hoisted   sync.Map
	hoistMu   sync.Mutex
	regionIDs map[string]int
	hoistPlan [][]placed // where the regions are, per namespace of a set
	noHoist   bool
}

// SSRStats returns how many islands were rendered and the time spent in
// island SSR (summed over workers, cache hits included).
func (r *Renderer) SSRStats() (calls int64, total time.Duration) {
	return r.ssrCalls.Load(), time.Duration(r.ssrNanos.Load())
}

// Result is one rendered page.
type Result struct {
	HTML []byte
	Main string // the inner HTML of <main>, for page data
	// MainAt is where Main starts in HTML, or -1 when something was
	// inserted inside it (Main is then not a part of HTML as it stands).
	MainAt  int
	Islands []string // names of the islands that hydrate on this page, sorted
	// MainIslands are the islands that hydrate inside <main>, in page
	// order, as the island function recorded them while rendering.
	MainIslands []MainIsland
	// Pictures are the pictures the page asked for, in order.
	Pictures []PictureUse

	pool *bufpool.Pool // where HTML's buffer goes back (Release); nil: none
}

// Release gives the page's buffer back to the renderer, for a later page
// to be rendered into, once the caller is done with HTML and Main (Main
// is a part of HTML): neither may be used afterwards, nor anything that
// shares their bytes. A build releases each page once it is written; a
// page kept (the dev server's) is never released.
func (res *Result) Release() {
	if res.pool != nil {
		res.pool.Put(res.HTML)
	}
	res.HTML, res.Main, res.pool = nil, "", nil
}

// New reads the templates and checks them. When Options.Cache holds what
// parsing the same templates found (their names and closure: see
// templateInfo), nothing is parsed until a page is rendered, so a build
// whose pages all come from a cache parses no template.
func New(opts Options) (*Renderer, error) {
	r := &Renderer{opts: opts, pool: make(chan *execSet, poolSize), dataFallback: map[[2]string]bool{},
		maxSets: int32(max(1, runtime.GOMAXPROCS(0))), noHoist: os.Getenv(NoHoistEnv) == "1"}
	base, shared, layouts, err := templateFiles(opts.FS)
	r.base, r.shared, r.layouts = base, shared, layouts
	if err != nil {
		return nil, diag.New(diag.Pos{File: TemplatesDir}, "cannot read templates: %v", err)
	}
	if base == nil {
		return nil, diag.New(diag.Pos{File: TemplatesDir + "/base.html"}, "missing base template").
			WithHint(`templates/base.html is the page skeleton; it contains {{ block "main" . }}{{ end }}`)
	}
	key := r.infoKey()
	if info, ok := loadInfo(opts.Cache, key); ok {
		r.info, r.closure = info, info.Closure
		return r, nil
	}
	// Parse one set now: its errors are the templates' errors, and it
	// serves the first render.
	s, info, errs := r.parseExecSet(true)
	if len(errs) == 0 {
		r.pool <- s
		r.made.Add(1)
		r.info = info
		r.closure = r.info.Closure
		storeInfo(opts.Cache, key, r.info)
	}
	return r, errs.Err()
}

// SetBuild gives the renderer the build hash and the cache salt, which
// digest the templates New read; call it before anything renders.
func (r *Renderer) SetBuild(hash string, salt []byte) {
	r.opts.BuildHash, r.opts.CacheSalt = hash, salt
}

// Rebind points the renderer at a new state of the site (content, routes,
// strings, bundles) while keeping its parsed templates, for the dev server's
// rebuilds when no template changed. opts.FS and the templates must be the
// same as at New. It must not run while a render runs.
func (r *Renderer) Rebind(opts Options) {
	r.opts = opts
	r.hoisted = sync.Map{} // the regions' output depends on the data, strings and routes
	r.dims = sync.Map{}
	r.texts = sync.Map{}
	r.digests = sync.Map{}
	r.filesOnce = sync.Once{}
	r.mu.Lock()
	r.dataFallback = map[[2]string]bool{}
	r.mu.Unlock()
}

// DataFallbacks lists the data sets a locale took from the default locale.
func (r *Renderer) DataFallbacks() [][2]string {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make([][2]string, 0, len(r.dataFallback))
	for k := range r.dataFallback {
		out = append(out, k)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i][0] != out[j][0] {
			return out[i][0] < out[j][0]
		}
		return out[i][1] < out[j][1]
	})
	return out
}

// data returns the set of lang, or of the default locale.
func (r *Renderer) data(d Deps, lang, name string) (*content.DataSet, bool) {
	d.add(DepData(lang, name))
	if loc := r.opts.Source.Locales[lang]; loc != nil {
		if s, ok := loc.Data[name]; ok {
			return s, true
		}
	}
	def := r.opts.Plan.Default.Code
	d.add(DepData(def, name))
	if s, ok := r.opts.Source.Locales[def].Data[name]; ok {
		r.mu.Lock()
		r.dataFallback[[2]string{lang, name}] = true
		r.mu.Unlock()
		return s, true
	}
	return nil, false
}

// PageContext is what layouts and partials get as ".".
type PageContext struct {
	Site      SiteInfo
	Lang      string
	Locale    config.Locale
	BuildHash string
	Page      *PageInfo
	Variants  []Variant // every locale's version (for the language switcher)
	// Alternates are the variants written in their own language (for
	// hreflang); fallback copies are left out.
	Alternates []Variant
	XDefault   string
	// Feeds are the RSS and Atom feeds of the lists site.yaml names, in
	// the page's locale: base.html links them with
	// <link rel="alternate" type="{{ .Type }}" title="{{ .Title }}" href="{{ .URL }}">.
	Feeds []FeedLink
	// Paginator is this page of a paged list (a page with paginate:, a
	// term page); nil on other pages.
	Paginator *Paginator
	// Taxonomy is set on a taxonomy's term list and term pages, Term on
	// a term's pages.
	Taxonomy *TaxonomyInfo
	Term     *TermLink

	entry *route.Entry
}

// FeedLink is one feed of a list: its type (application/rss+xml or
// application/atom+xml), a title (the list page's, with RSS or Atom) and
// its absolute URL.
type FeedLink struct {
	Type, Title, URL string
}

// SiteInfo describes the site.
type SiteInfo struct {
	Title   string
	BaseURL string
	Locales []config.Locale
	Forms   map[string]config.Form
	// Analytics are the consent-gated tags (for the runtime's meta tag).
	Analytics config.Analytics
	// RetireWorker: /sw.js is the retiring worker; the runtime registers none.
	RetireWorker bool
}

// PageInfo describes the page.
type PageInfo struct {
	ID, Title, Description, Keywords, Layout, Date, Summary, Image string
	Tags                                                           []string
	Terms                                                          map[string][]TermLink // per taxonomy: the terms the front matter lists
	Params                                                         map[string]any
	Sections                                                       []content.Section
	Content                                                        template.HTML
	URL, Permalink                                                 string
	Fallback                                                       bool
	Lang                                                           string // the language of the content
	File                                                           string
	NoIndex                                                        bool
	ImageFile                                                      content.File // the cover, for picture
}

// Variant is the page in one locale.
type Variant struct {
	Lang, Name, URL, Permalink string
	Current                    bool
	Fallback                   bool // shown from the default locale
}

// poolSize bounds the template sets kept per locale (one per concurrent render).
const poolSize = 64

// CacheStats returns the cache lookups that hit and missed.
func (r *Renderer) CacheStats() (hits, misses int64) { return r.opts.Cache.Stats() }

// cached returns the value of compute, from r's cache when it holds the
// entry of (CacheSalt, kind, parts); only successes that compute says to
// keep are stored.
func (r *Renderer) cached(compute func() (v string, keep bool, err error), kind string, parts ...[]byte) (string, error) {
	if r.opts.Cache == nil {
		v, _, err := compute()
		return v, err
	}
	k := r.cacheKey(kind, parts...)
	if b, ok := r.opts.Cache.Get(k); ok {
		return string(b), nil
	}
	v, keep, err := compute()
	if err == nil && keep {
		// Put copies the bytes into the segment: v's own, unchanged.
		r.opts.Cache.Put(k, unsafe.Slice(unsafe.StringData(v), len(v)))
	}
	return v, err
}

// cacheKey is the key of a result of this kind kept in the persistent
// cache, with the salt and parts it depends on.
func (r *Renderer) cacheKey(kind string, parts ...[]byte) cache.Key {
	return cache.NewKey(append([][]byte{r.opts.CacheSalt, []byte(kind)}, parts...)...)
}

// Render renders one entry.
func (r *Renderer) Render(ctx context.Context, e *route.Entry) (*Result, error) {
	return r.RenderDeps(ctx, e, nil)
}

// RenderDeps renders one entry and records in deps (when not nil) what the
// render used: the dev server's dependency graph.
func (r *Renderer) RenderDeps(ctx context.Context, e *route.Entry, deps Deps) (*Result, error) {
	pg := e.Page
	deps.add(DepFile(pg.File))
	if !r.HasLayout(pg.Layout) {
		if e.Taxonomy != nil { // a term list or term page: the layout is the engine's name
			what := "term list needs"
			if e.Term != nil {
				what = "term pages need"
			}
			return nil, diag.New(layoutPos(pg), "taxonomy %q: its %s the layout %q", e.Taxonomy.Name, what, pg.Layout).
				WithHint("add templates/layouts/%s.html (docs/templates.md: Paged lists and taxonomies)", pg.Layout)
		}
		return nil, diag.New(layoutPos(pg), "unknown layout %q", pg.Layout).WithHint("add templates/layouts/%s.html", pg.Layout)
	}
	set, err := r.takeSet(ctx, e.Lang, pg.File)
	if err != nil {
		return nil, err
	}
	defer r.putSet(e.Lang, set)
	set.st.deps, set.st.layout = deps, pg.Layout
	t := set.layouts[pg.Layout]
	r.template(deps, pg.Layout, "base.html")
	pc := r.pageContext(e, deps)
	body, bodyBuf, err := r.body(e, deps, set.st)
	if err != nil {
		return nil, err
	}
	defer r.bodyBufs.Put(bodyBuf) // the page holds a copy of the body once written
	pc.Page.Content = template.HTML(body)
	buf := bytes.NewBuffer(r.pageBufs.Get(int(r.pageSize.Load()) + 4<<10)) // pages of a site are alike in size
	set.st.marks.out = buf
	defer func() { set.st.marks.out = nil }()
	if err := t.Execute(buf, pc); err != nil { // base.html as the layout sees it
		r.pageBufs.Put(buf.Bytes())
		var ne nestingError
		if errors.As(err, &ne) {
			return nil, PageError{Diagnostic: ne.Diagnostic, Page: pg.File}
		}
		return nil, PageError{Diagnostic: templateError(err), Page: pg.File}
	}
	m := &set.st.marks
	hydrated, eager := m.hydrated()
	page := buf.Bytes()
	r.pageSize.Store(int64(len(page)))
	// The script tags go in the script slot, the preloads of eager pictures
	// before </head>: one copy of the page with both.
	var inserts []insertion
	if m.hasScripts {
		inserts = append(inserts, insertion{m.scripts, r.scriptTags(hydrated, eager)})
	}
	if links := preloadLinks(set.st.preloads); links != "" {
		if i := bytes.Index(page, []byte("</head>")); i >= 0 {
			inserts = append(inserts, insertion{i, links})
		}
	}
	res := &Result{HTML: insert(page, inserts), Islands: hydrated, MainIslands: m.mainIslands(), Pictures: set.st.pictures, pool: &r.pageBufs}
	start, end, _ := m.main()
	res.MainAt = mainAt(m, end > start, inserts)
	switch {
	case end == start: // none, or empty
	case res.MainAt >= 0: // a part of the page as it stands: not copied
		res.Main = unsafe.String(unsafe.SliceData(res.HTML[res.MainAt:]), end-start)
	default: // something was inserted inside it
		res.Main = string(page[start:end])
	}
	if len(inserts) > 0 { // the page was copied with them: its buffer is free
		r.pageBufs.Put(page)
	}
	return res, nil
}

// mainAt is where the page's <main> HTML starts once inserts are made: its
// place in the rendered page moved by what is inserted before it, or -1
// when an insertion falls inside it.
func mainAt(m *pageMarks, hasMain bool, inserts []insertion) int {
	if !hasMain {
		return 0
	}
	at := m.mainStart
	for _, x := range inserts {
		switch {
		case x.at <= m.mainStart:
			at += len(x.text)
		case x.at < m.mainEnd:
			return -1
		}
	}
	return at
}

type textKey struct {
	lang, text string
	block      bool
}

type mdText struct {
	html template.HTML
	deps []string
}

// markdownOnce converts Markdown text of a data record (inline or block) in
// lang, once per renderer: the result depends only on the text, the locale
// and the routes its links resolve to, all fixed while the renderer lives.
// Texts with errors are converted each time, so each page reports them.
func (r *Renderer) markdownOnce(st *execState, lang string, block bool, src markdown.Source) (template.HTML, error) {
	deps := st.deps
	src.Images = r.markdownImages(st)
	once := !bytes.Contains(src.Text, []byte("![")) // images add preloads to the page while converting
	key := textKey{lang, string(src.Text), block}
	if v, ok := r.texts.Load(key); ok && once {
		t := v.(mdText)
		for _, k := range t.deps {
			deps.add(k)
		}
		return t.html, nil
	}
	used := Deps{}
	resolve := func(target string) (string, error) {
		u, err := r.opts.Plan.Resolve(lang, target)
		if err == nil {
			r.link(used, lang, u)
		}
		return u, err
	}
	var out string
	var errs diag.List
	if block {
		out, errs = r.opts.Markdown.Block(src, resolve)
	} else {
		out, errs = r.opts.Markdown.Inline(src, resolve)
	}
	for k := range used {
		deps.add(k)
	}
	if len(errs) > 0 {
		return template.HTML(out), errs.Err()
	}
	if r.opts.HTML != nil {
		out = htmlmin.CompactString(out)
	}
	if once {
		r.texts.Store(key, mdText{html: template.HTML(out), deps: used.Sorted()})
	}
	return template.HTML(out), nil
}

// body converts the page's Markdown body, or takes it from the body cache.
// buf, when not nil, is the buffer that holds the body's HTML, for the
// caller to give back (bodyBufs) once the page is written out of it: a
// build's, which keeps no body (the dev server keeps them: Bodies).
func (r *Renderer) body(e *route.Entry, deps Deps, st *execState) (body string, buf []byte, err error) {
	pg := e.Page
	bodies := r.opts.BodyFS
	if bodies == nil {
		bodies = r.opts.FS
	}
	text, read, err := pg.LoadBodyBuf(bodies, r.readBufs.Get(0))
	defer r.readBufs.Put(read) // the body's HTML and the cache's key are made of text once this returns
	if err != nil {
		return "", nil, diag.New(diag.Pos{File: pg.File}, "%v", err)
	}
	cache := r.opts.Bodies
	if bytes.Contains(text, []byte("![")) {
		cache = nil // images add preloads to the page while converting
	}
	if cache != nil {
		if html, keys, ok := cache.Body(e); ok {
			for _, k := range keys {
				deps.add(k)
			}
			return html, nil, nil
		}
	}
	used := make(Deps, 16) // a body's links: made once at about its size, not grown
	images := r.markdownImages(st)
	usedImages := false
	var hook markdown.ImageHook
	if images != nil {
		hook = func(dest, alt, title string) (string, bool, error) {
			usedImages = true
			return images(dest, alt, title)
		}
	}
	if r.opts.Bodies == nil {
		buf = r.bodyBufs.Get(len(text) + len(text)/4 + 64)
	}
	// A page body is not compacted: goldmark leaves a line break after
	// each block, which compaction would save (about 0.1% of the real
	// site's bytes) at about 3% more CPU per build of a large site.
	convert := func() (string, error) {
		out, list := r.opts.Markdown.AppendBlock(buf, markdown.Source{Text: text, Pos: diag.Pos{File: pg.File, Line: pg.BodyLine, Col: 1}, Images: hook},
			func(dest string) (string, error) {
				u, err := r.opts.Plan.Resolve(e.Lang, dest)
				r.link(used, e.Lang, u)
				return u, err
			})
		buf = out
		if len(list) > 0 {
			return "", list
		}
		return unsafe.String(unsafe.SliceData(out), len(out)), nil
	}
	if cache == nil && r.opts.Cache != nil {
		body, err = r.cachedBody(e, text, used, convert, func() bool { return !usedImages })
	} else {
		body, err = convert()
	}
	if err != nil {
		r.bodyBufs.Put(buf)
		return "", nil, err
	}
	for k := range used {
		deps.add(k)
	}
	if cache != nil {
		cache.PutBody(e, body, used.Sorted())
	}
	return body, buf, nil
}

// cachedBody is a page body from the persistent cache, which keeps with
// it the links it resolved ("dep\ndep\x00html", recorded in used), or
// converted and kept there; a body that made pictures is not kept (making
// them writes variants and adds preloads: keep tells, once converted).
func (r *Renderer) cachedBody(e *route.Entry, text []byte, used Deps, convert func() (string, error), keep func() bool) (string, error) {
	k := r.cacheKey("markdown-block-deps", []byte(e.Lang), text)
	if b, ok := r.opts.Cache.Get(k); ok { // the cache's own copy: shared, not copied again
		keys, html, _ := strings.Cut(unsafe.String(unsafe.SliceData(b), len(b)), "\x00")
		for _, k := range strings.Split(keys, "\n") {
			if k != "" {
				used.add(k)
			}
		}
		return html, nil
	}
	html, err := convert()
	if err == nil && keep() {
		// Put copies the parts into the segment: html's bytes, unchanged.
		r.opts.Cache.Put(k, []byte(strings.Join(used.Sorted(), "\n")), []byte{0}, unsafe.Slice(unsafe.StringData(html), len(html)))
	}
	return html, err
}

// PageScripts returns the URLs of every script a page with these hydrated
// islands loads (runtime, island loader, chunks), without duplicates.
func (r *Renderer) PageScripts(hydrated []string) []string {
	urls := append([]string{}, r.opts.Scripts...)
	if r.opts.Islands != nil && len(hydrated) > 0 {
		urls = append(urls, r.opts.Islands.ModulePreloads(hydrated)...)
		urls = append(urls, r.opts.Islands.Scripts(hydrated)...)
	}
	seen := map[string]bool{}
	out := urls[:0]
	for _, u := range urls {
		if !seen[u] {
			seen[u] = true
			out = append(out, u)
		}
	}
	return out
}

// LateLoader is the inline script the script slot ends with: once the page
// has loaded and painted (the load event, then an animation frame and a
// task), it copies the elements of every <template data-sg-late> into the
// head, in document order (scripts in order, as deferred module scripts
// would run). It is the same text on every page, so the CSP allows it by one
// hash (collected with the other inline scripts).
const LateLoader = `addEventListener("load",function(){requestAnimationFrame(function(){setTimeout(function(){` +
	`document.querySelectorAll("template[data-sg-late]").forEach(function(t){[].forEach.call(t.content.children,function(o){` +
	`var e=document.createElement(o.localName);[].forEach.call(o.attributes,function(a){e.setAttribute(a.name,a.value)});` +
	`if(e.localName=="script"){e.async=!1;e.onerror=function(){(self.sgFailed=self.sgFailed||[]).push(e.src)}}document.head.appendChild(e)})})})})})`

// scriptTags loads the runtime and the island loader, and preloads the code
// of the islands that hydrate at once (load, idle); the code of visible and
// media islands is fetched only when they hydrate. None of it is requested
// while the page loads: the tags sit in a <template data-sg-late> that
// LateLoader copies into the head after the load and the first paint. A
// page shows and works without them (they enhance it); Lighthouse's
// simulated LCP charges every request that ended before the observed LCP
// over slow 4G, whatever its priority (bench/lighthouse, fourth round:
// 0.2-0.5 s of the mobile LCP). Low priority still, for when they load
// while images do.
func (r *Renderer) scriptTags(hydrated, eager []string) string {
	var b strings.Builder
	for _, s := range r.opts.Scripts {
		fmt.Fprintf(&b, `<script type="module" src="%s" fetchpriority="low"></script>`, template.HTMLEscapeString(s))
	}
	if r.opts.Islands != nil && len(hydrated) > 0 {
		for _, s := range r.opts.Islands.ModulePreloads(eager) {
			fmt.Fprintf(&b, `<link rel="modulepreload" href="%s" fetchpriority="low">`, template.HTMLEscapeString(s))
		}
		for _, s := range r.opts.Islands.Scripts(hydrated) {
			fmt.Fprintf(&b, `<script type="module" src="%s" fetchpriority="low"></script>`, template.HTMLEscapeString(s))
		}
	}
	if b.Len() == 0 {
		return ""
	}
	return `<template data-sg-late>` + b.String() + `</template><script>` + LateLoader + `</script>`
}

func layoutPos(p *content.Page) diag.Pos { return p.LayoutPos }

func (r *Renderer) pageContext(e *route.Entry, deps Deps) *PageContext {
	cfg := r.opts.Config
	loc, _ := cfg.Locale(e.Lang)
	pg := e.Page
	canonical := e.URL
	if e.Root || e.Fallback {
		if orig, ok := r.opts.Plan.Lookup(pg.Lang, e.ID); ok {
			canonical = orig.URL
		}
	}
	pc := &PageContext{
		Site:      SiteInfo{Title: cfg.Title, BaseURL: cfg.BaseURL, Locales: cfg.Locales, Forms: cfg.Forms, Analytics: cfg.Analytics, RetireWorker: cfg.ServiceWorker.Retire},
		Lang:      e.Lang,
		Locale:    loc,
		BuildHash: r.opts.BuildHash,
		entry:     e,
		Page: &PageInfo{
			ID: pg.ID, Title: pg.Title, Description: pg.Description, Keywords: pg.Keywords, Layout: pg.Layout,
			Date: pg.Date, Summary: pg.Summary, Tags: pg.Tags, Image: pg.Image.Path, ImageFile: pg.Image, Params: pg.Params, Sections: pg.Sections,
			URL: e.URL, Permalink: cfg.BaseURL + sitepath.URL(canonical), Fallback: e.Fallback, Lang: pg.Lang, File: pg.File,
			NoIndex: e.NoIndex(), Terms: r.termsOf(e),
		},
		Paginator: r.paginator(deps, e.Lang, e.Pager),
	}
	if e.Taxonomy != nil {
		if ti, ok := r.taxonomy(e.Lang, e.Taxonomy.Name); ok {
			pc.Taxonomy = &ti
		}
	}
	if e.Term != nil {
		tl := termLink(e.Term)
		pc.Term = &tl
	}
	for _, l := range cfg.Locales {
		deps.add(DepRoute(l.Code, e.ID)) // the language switcher and hreflang
	}
	for _, v := range r.opts.Plan.Variants(e.ID) {
		l, _ := cfg.Locale(v.Lang)
		vv := Variant{Lang: v.Lang, Name: l.Name, URL: v.URL, Permalink: cfg.BaseURL + sitepath.URL(v.URL), Current: v.Lang == e.Lang, Fallback: v.Fallback}
		pc.Variants = append(pc.Variants, vv)
		if !v.Fallback {
			pc.Alternates = append(pc.Alternates, vv)
		}
		if l.Default {
			pc.XDefault = cfg.BaseURL + sitepath.URL(v.URL)
		}
	}
	for _, f := range cfg.Feeds {
		if f.Terms != "" {
			if e.Term != nil && e.Term.Taxonomy.Name == f.Terms {
				u := cfg.BaseURL + sitepath.URL(e.Term.URL)
				title := e.Taxonomy.TitleIn(e.Lang) + ": " + e.Term.Name
				pc.Feeds = append(pc.Feeds,
					FeedLink{Type: output.RSSType, Title: title + " (RSS)", URL: u + output.RSSFile},
					FeedLink{Type: output.AtomType, Title: title + " (Atom)", URL: u + output.AtomFile})
			}
			continue
		}
		deps.add(DepRoute(e.Lang, f.List))
		list, ok := r.opts.Plan.Lookup(e.Lang, f.List)
		if !ok {
			continue
		}
		deps.add(DepPage(e.Lang, f.List)) // its title
		u := cfg.BaseURL + sitepath.URL(list.URL)
		pc.Feeds = append(pc.Feeds,
			FeedLink{Type: output.RSSType, Title: list.Page.Title + " (RSS)", URL: u + output.RSSFile},
			FeedLink{Type: output.AtomType, Title: list.Page.Title + " (Atom)", URL: u + output.AtomFile})
	}
	return pc
}

// PageError is a template error met while rendering a page.
type PageError struct {
	diag.Diagnostic
	Page string
}

// TemplateSets returns how many template sets this renderer parsed.
func (r *Renderer) TemplateSets() int { return int(r.made.Load()) }

// HasTemplate reports whether the templates define name (e.g. "sections/features.html").
func (r *Renderer) HasTemplate(name string) bool { return r.info.Names[name] }

// HasLayout reports whether templates/layouts/<name>.html exists.
func (r *Renderer) HasLayout(name string) bool { return r.info.Layouts[name] }

// BuildDate is the day (YYYY-MM-DD) the pages are rendered for.
func (r *Renderer) BuildDate() string { return r.opts.BuildDate }
