// Package build wires the pipeline: config → content → route → render → output.
// A build is a pure function of the source tree and its options: the same
// input gives byte-identical output.
package build

import (
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"time"

	"sitegen/pkg/assets"
	"sitegen/pkg/config"
	"sitegen/pkg/content"
	"sitegen/pkg/diag"
	"sitegen/pkg/i18n"
	"sitegen/pkg/islands"
	"sitegen/pkg/markdown"
	"sitegen/pkg/output"
	"sitegen/pkg/render"
	"sitegen/pkg/route"
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
	Logger *slog.Logger

	beforeRender func(*route.Entry) // a test's fault injection: called before each page renders
}

// Report summarizes a build.
type Report struct {
	Pages         map[string]int // pages per locale
	Redirects     int
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
	// Islands: time to bundle them, number of island renders and the time
	// spent in SSR (summed over workers).
	IslandsBundle time.Duration
	SSRCalls      int64
	SSRTime       time.Duration
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
	return fmt.Sprintf("built %d pages (%s), %d redirects: %d files, %s in %d ms",
		total, strings.Join(parts, ", "), r.Redirects, r.Files, humanBytes(r.Bytes), r.Duration.Milliseconds())
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
	// IslandsBundle is how long bundling the islands took.
	IslandsBundle time.Duration
	fsys          fs.FS
	root          string
	beforeRender  func(*route.Entry)
}

// Close releases the island engines.
func (s *Site) Close() error {
	if s.Islands != nil {
		return s.Islands.Close()
	}
	return nil
}

// Load reads, checks and prepares a site for rendering.
func Load(ctx context.Context, opts Options) (*Site, error) {
	root := opts.Source
	if root == "" {
		root = "."
	}
	fsys := os.DirFS(root)
	cfg, err := config.Load(fsys)
	if err != nil {
		return nil, err
	}
	if opts.BaseURL != "" {
		b, err := config.CheckBaseURL(opts.BaseURL)
		if err != nil {
			return nil, fmt.Errorf("--base-url %w", err)
		}
		cfg.BaseURL = b
	}
	langs := make([]string, len(cfg.Locales))
	for i, l := range cfg.Locales {
		langs[i] = l.Code
	}
	statics, err := staticFiles(fsys)
	if err != nil {
		return nil, err
	}
	src, err := content.Load(ctx, fsys, content.Options{Langs: langs, Drafts: opts.Drafts})
	if err != nil {
		return nil, err
	}
	plan, err := route.Build(cfg, src, statics)
	if err != nil {
		return nil, err
	}
	hash, err := buildHash(fsys)
	if err != nil {
		return nil, err
	}
	bundled, err := assets.Bundle(root, opts.Minify)
	if err != nil {
		return nil, err
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
	if u, ok := bundled.URLs["runtime/runtime.js"]; ok {
		scripts = append(scripts, u)
	}
	ropts := render.Options{
		FS: fsys, Config: cfg, Source: src, Plan: plan, Catalog: catalog, Markdown: markdown.New(markdown.Options{Highlight: cfg.Markdown.HighlightCode()}),
		Assets: bundled.URLs, BuildHash: hash, BuildDate: date,
		IconDir: "node_modules/lucide-static/icons", StaticDir: StaticDir, Scripts: scripts,
	}
	var bundle *islands.Bundle
	var bundleTime time.Duration
	if st, err := fs.Stat(fsys, "assets/islands"); err == nil && st.IsDir() {
		t0 := time.Now()
		bundle, err = islands.Build(ctx, islands.Options{Root: root, Library: cfg.Islands.Library, Minify: opts.Minify})
		bundleTime = time.Since(t0)
		if err != nil {
			return nil, err
		}
		ropts.Islands = bundle
	}
	r, err := render.New(ropts)
	if err == nil {
		if errs := validate(src, plan, r, statics, langs); len(errs) > 0 {
			err = errs.Err()
		}
	}
	if err != nil {
		if bundle != nil {
			bundle.Close()
		}
		return nil, err
	}
	return &Site{Config: cfg, Source: src, Plan: plan, Renderer: r, Catalog: catalog, Assets: bundled, Statics: statics,
		Hash: hash, Islands: bundle, IslandsBundle: bundleTime, fsys: fsys, root: root}, nil
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
	if err := checkOut(opts.Source, opts.Out); err != nil {
		return nil, err
	}
	site, err := Load(ctx, opts)
	if err != nil {
		return nil, err
	}
	defer site.Close()
	site.beforeRender = opts.beforeRender
	tree, err := output.Begin(opts.Out)
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
	if err != nil {
		tree.Abort()
		return nil, err
	}
	committed = true
	if err := tree.Commit(); err != nil {
		return nil, err
	}
	rep.Duration = time.Since(start)
	log.Info("build done", "pages", rep.Pages, "files", rep.Files, "bytes", rep.Bytes, "ms", rep.Duration.Milliseconds())
	return rep, nil
}

// checkOut refuses output directories that would swallow the sources.
func checkOut(src, out string) error {
	if src == "" {
		src = "."
	}
	a, err1 := filepath.Abs(src)
	b, err2 := filepath.Abs(out)
	if err := errors.Join(err1, err2); err != nil {
		return err
	}
	if a == b || strings.HasPrefix(a+string(filepath.Separator), b+string(filepath.Separator)) {
		return fmt.Errorf("output directory %s would replace the site source %s; choose another --out", out, src)
	}
	for _, d := range []string{"content", "templates", "assets"} {
		p := filepath.Join(a, d)
		if b == p || strings.HasPrefix(b, p+string(filepath.Separator)) {
			return fmt.Errorf("output directory %s is inside the source folder %s; choose another --out", out, d)
		}
	}
	return nil
}

type rendered struct {
	entry   *route.Entry
	html    []byte
	data    []byte
	islands []string
	err     error
}

func (s *Site) write(ctx context.Context, tree *output.Tree) (*Report, error) {
	rep := &Report{Pages: map[string]int{}, BuildHash: s.Hash, JS: map[string]PageJS{}}
	jsSize := s.jsSizer()
	for _, l := range s.Config.Locales {
		rep.Locales = append(rep.Locales, l.Code)
	}
	entries := append([]*route.Entry{}, s.Plan.Entries...)
	if root, ok := s.Plan.ByURL("/"); ok {
		entries = append([]*route.Entry{root}, entries...)
	}
	generated := map[string]bool{}
	var errs diag.List
	writeFile := func(rel string, b []byte) {
		if err := tree.WriteFile(rel, b); err != nil {
			errs.Add(diag.New(diag.Pos{File: rel}, "write: %v", err))
		}
		generated["/"+rel] = true
	}

	// Render in parallel, write in a fixed order through a bounded window.
	workers := runtime.GOMAXPROCS(0)
	slots := make([]chan rendered, len(entries))
	for i := range slots {
		slots[i] = make(chan rendered, 1)
	}
	window := make(chan struct{}, workers*8)
	next := make(chan int)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	for w := 0; w < workers; w++ {
		go func() {
			for i := range next {
				slots[i] <- s.renderEntry(ctx, entries[i])
			}
		}()
	}
	go func() {
		defer close(next)
		for i := range entries {
			select {
			case window <- struct{}{}:
			case <-ctx.Done():
				return
			}
			select {
			case next <- i:
			case <-ctx.Done():
				return
			}
		}
	}()
	def := s.Config.DefaultLocale()
	pageErrs := map[diag.Diagnostic][]string{} // one template error, many pages
	for i := range entries {
		var r rendered
		select {
		case r = <-slots[i]:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		<-window
		if r.err != nil {
			var pe render.PageError
			if errors.As(r.err, &pe) {
				pageErrs[pe.Diagnostic] = append(pageErrs[pe.Diagnostic], pe.Page)
			} else {
				errs.AddErr(r.entry.Page.Pos, r.err)
			}
			continue
		}
		e := r.entry
		rel := strings.TrimPrefix(e.URL, "/") + "index.html"
		writeFile(rel, r.html)
		writeFile(output.PageDataPath(e), r.data)
		if !e.Root {
			rep.Pages[e.Lang]++
		}
		if n := jsSize(s.Renderer.PageScripts(r.islands)); n > rep.JS[e.Page.Layout].GzipBytes || rep.JS[e.Page.Layout].Page == "" {
			rep.JS[e.Page.Layout] = PageJS{GzipBytes: n, Islands: r.islands, Page: e.URL}
		}
		if e.ID == "404" || e.ID == "500" {
			l, _ := s.Config.Locale(e.Lang)
			writeFile(strings.TrimPrefix(l.Prefix, "/")+"/"+e.ID+".html", r.html)
			if e.Lang == def.Code {
				writeFile(e.ID+".html", r.html)
			}
		}
	}
	for d, pages := range pageErrs {
		sort.Strings(pages)
		pages = dedupe(pages)
		d.Message += " (rendering " + pages[0]
		if len(pages) > 1 {
			d.Message += fmt.Sprintf(" and %d more pages", len(pages)-1)
		}
		d.Message += ")"
		errs.Add(d)
	}
	if len(errs) > 0 {
		return nil, errs.Err()
	}

	for _, rd := range s.Plan.Redirects {
		b, err := output.RedirectPage(rd, s.Config.BaseURL)
		if err != nil {
			return nil, err
		}
		writeFile(strings.TrimPrefix(rd.From, "/")+"index.html", b)
	}
	rep.Redirects = len(s.Plan.Redirects)
	writeFile(sitepath.Redirects, output.Redirects(s.Plan.Redirects))
	writeFile(sitepath.Headers, output.Headers())
	sm, err := output.Sitemap(s.Plan, s.Config.BaseURL)
	if err != nil {
		return nil, err
	}
	writeFile(sitepath.Sitemap, sm)
	writeFile(sitepath.Robots, output.Robots(s.Config.BaseURL))
	app, err := output.AppData(s.Hash)
	if err != nil {
		return nil, err
	}
	writeFile(sitepath.PageData+"/app-data.json", app)
	for _, name := range sortedKeys(s.Assets.Files) {
		writeFile(name, s.Assets.Files[name])
	}
	if s.Islands != nil {
		files := s.Islands.ClientFiles()
		for _, name := range sortedKeys(files) {
			writeFile(name, files[name])
		}
	}
	for _, p := range sortedKeys(s.Statics) {
		if generated[p] {
			errs.Add(diag.New(diag.Pos{File: StaticDir + p}, "static file collides with a generated file at %s", p))
			continue
		}
		b, err := fs.ReadFile(s.fsys, StaticDir+p)
		if err != nil {
			return nil, err
		}
		writeFile(strings.TrimPrefix(p, "/"), b)
	}
	if len(errs) > 0 {
		return nil, errs.Err()
	}
	rep.Files, rep.Bytes = tree.Files(), tree.Bytes()
	rep.Fallbacks = s.Plan.Fallbacks
	rep.DataFallbacks = s.Renderer.DataFallbacks()
	rep.StringMisses = s.Catalog.Misses()
	rep.IslandsBundle = s.IslandsBundle
	rep.SSRCalls, rep.SSRTime = s.Renderer.SSRStats()
	return rep, nil
}

func (s *Site) renderEntry(ctx context.Context, e *route.Entry) (out rendered) {
	file := e.Page.File
	defer func() {
		if v := recover(); v != nil {
			out = rendered{entry: e, err: diag.New(diag.Pos{File: file}, "%v", &InternalError{Doing: "rendering " + e.URL, Value: v})}
		}
	}()
	if s.beforeRender != nil {
		s.beforeRender(e)
	}
	if ctx.Err() != nil {
		return rendered{entry: e, err: ctx.Err()}
	}
	res, err := s.Renderer.Render(ctx, e)
	if err != nil {
		return rendered{entry: e, err: err}
	}
	pd := output.NewPageData(s.Plan, e, s.Hash, e.Page.Title, res.Main, res.Islands)
	data, err := output.JSON(pd)
	return rendered{entry: e, html: res.HTML, data: data, islands: res.Islands, err: err}
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

// jsSizer returns a function summing the gzip sizes of script URLs.
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
	cache := map[string]int{}
	return func(urls []string) int {
		total := 0
		for _, u := range urls {
			n, ok := cache[u]
			if !ok {
				n = gzipSize(files[u])
				cache[u] = n
			}
			total += n
		}
		return total
	}
}

func gzipSize(b []byte) int {
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	zw.Write(b)
	zw.Close()
	return buf.Len()
}

func dedupe(sorted []string) []string {
	out := sorted[:0]
	for i, s := range sorted {
		if i == 0 || s != sorted[i-1] {
			out = append(out, s)
		}
	}
	return out
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
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
	for _, root := range []string{config.FileName, "templates", "assets", content.Dir, "package-lock.json"} {
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
