// Package devserver is `sitegen serve`: it loads the site into memory,
// renders each page when it is asked for and serves it with the production
// URL semantics (pkg/hosting), renders the pages never asked for in the
// background for their errors, watches the sources, forgets only what a
// change affects (pkg/devsession), and tells open tabs over server-sent events
// to reload, swap their stylesheets, or show the errors over the page.
// Nothing is written to disk.
package devserver

import (
	"bytes"
	"context"
	"crypto/rand"
	_ "embed"
	"encoding/hex"
	"fmt"
	"html/template"
	"io"
	"log/slog"
	"net/http"
	"path"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"sitegen/pkg/build"
	"sitegen/pkg/devsession"
	"sitegen/pkg/hosting"
	"sitegen/pkg/images"
)

//go:embed dev.js
var devJS []byte

// Paths the dev server answers itself.
const (
	ScriptPath = "/_sitegen/dev.js"
	EventsPath = "/_sitegen/events"
)

// Options of the dev server.
type Options struct {
	Build build.Options
	// Cache is how many bytes of rendered pages the server keeps (the
	// pages asked for last); 0 means devsession.DefaultCache.
	Cache int64
	// Quiet is how long the sources must stay unchanged before a burst of
	// changes is rebuilt; 0 means 10 ms.
	Quiet time.Duration
	// Out receives the terminal report: rebuilds and build errors.
	Out io.Writer
	Log *slog.Logger

	flush chan []string // a test's hook ending bursts (watcher.flush)
}

// Server is the dev server; it is an http.Handler.
type Server struct {
	opts    Options
	dev     *devsession.Session
	snap    atomic.Pointer[snapshot]
	failing atomic.Bool // the last build failed, or a page has errors

	events  *broker
	session string
	// watching is closed once the watcher is set up (tests wait on it).
	watching chan struct{}
	// encoding is the image processor whose variants are being encoded
	// in the background (see pictures.go).
	encoding *images.Processor
	// picturesAdded is a test's hook: told each time the variants were
	// all encoded.
	picturesAdded chan struct{}
	// wake tells the background check (check.go) that an update forgot
	// pages; answered is closed with the first answer, which it waits for.
	wake     chan struct{}
	answered chan struct{}
	// checked is told (when not full) each time the background check has
	// rendered every page (tests wait on it).
	checked chan struct{}
	answer  sync.Once
	ctx     context.Context
	// sources are what the site read beyond the Watched folders
	// (devsession.Session.Sources) and their folders: a change there is reported
	// too (Reports). sourceFolders is the count of folders they were made
	// from; sourcesStale says to take them again, and resourced tells
	// Watch to, and to watch the folders of new sources (noteSources).
	sources       atomic.Pointer[sourceSet]
	sourceFolders atomic.Int64
	sourcesStale  atomic.Bool
	resourced     chan struct{}
}

// snapshot is what is served of the last good site besides its files
// (devsession.Session.File).
type snapshot struct {
	redirects map[string]string
	// images makes the picture variants, on demand.
	images   *images.Processor
	fallback map[string]string // HTML output path -> the file its content comes from
	prefixes []string
}

// New loads the site; its pages render when asked for. A site with errors
// still gives a server: it shows the errors until they are fixed.
func New(ctx context.Context, opts Options) (*Server, error) {
	if opts.Quiet <= 0 {
		opts.Quiet = 10 * time.Millisecond
	}
	if opts.Out == nil {
		opts.Out = io.Discard
	}
	if opts.Log == nil {
		opts.Log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	if opts.Build.Source == "" {
		opts.Build.Source = "."
	}
	var id [8]byte
	rand.Read(id[:])
	s := &Server{opts: opts, events: newBroker(), session: hex.EncodeToString(id[:]), watching: make(chan struct{}),
		wake: make(chan struct{}, 1), resourced: make(chan struct{}, 1), answered: make(chan struct{}), checked: make(chan struct{}, 1), ctx: ctx}
	dev, res, err := devsession.New(ctx, devsession.Options{Build: opts.Build, Cache: opts.Cache})
	s.dev = dev
	if err != nil {
		s.fail(err) // its errors show until an update succeeds
		s.wakeCheck()
		return s, nil
	}
	s.install(res)
	fmt.Fprintf(opts.Out, "loaded %d pages in %d ms (content files read in %d ms; each page renders when asked for)\n", res.Pages, res.Duration.Milliseconds(), res.ReadContent.Milliseconds())
	return s, nil
}

// Close releases the build's resources.
func (s *Server) Close() error { return s.dev.Close() }

func (s *Server) install(res *devsession.Result) {
	s.snap.Store(&snapshot{redirects: res.RedirectTable, fallback: res.Fallback, prefixes: res.Prefixes, images: res.Images})
	s.wakeCheck()
	s.noteSources(true)
}

// wakeCheck has the background check (checkAll) render the pages of the
// site the last load or update made: for their errors, or for the errors
// of a site a build refuses.
func (s *Server) wakeCheck() {
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

// fail reports a build error in the terminal and to open tabs.
func (s *Server) fail(err error) {
	s.failing.Store(true)
	p := problemOf(s.opts.Build.Source, err)
	fmt.Fprint(s.opts.Out, p.text())
	s.events.setError(p)
}

// Update rebuilds after a burst of changes (slash paths below the site
// root) and sends open tabs one event: reload, css, or build-error; none when
// the output did not change.
func (s *Server) Update(ctx context.Context, paths []string) (*devsession.Result, error) {
	res, err := s.dev.Update(ctx, paths)
	if err != nil {
		s.fail(err) // the errors found so far: the pages' come as they render
		s.wakeCheck()
		return nil, err
	}
	s.install(res)
	fmt.Fprintf(s.opts.Out, "%s: rendered %d, forgot %d of %d pages in %.1f ms\n", strings.Join(paths, ", "), len(res.Rendered), len(res.Stale), res.Pages, float64(res.Duration.Microseconds())/1000)
	if probs := s.dev.Problems(); len(probs) > 0 {
		s.fail(probs.Err())
		return res, nil
	}
	recovered := s.failing.Swap(false)
	pages := slices.Sorted(slices.Values(slices.Concat(res.Rendered, res.Stale, res.Added)))
	switch {
	case recovered:
		s.events.send(event{name: "reload", data: reloadData{Recovered: true, Changed: nonNil(res.Changed), Pages: nonNil(pages)}})
	case res.StyleOnly:
		s.events.send(event{name: "css", data: reloadData{Changed: res.Changed}})
	default:
		s.events.send(event{name: "reload", data: reloadData{Changed: res.Changed, Pages: nonNil(pages)}})
	}
	return res, nil
}

type reloadData struct {
	Recovered bool     `json:"recovered,omitempty"`
	Changed   []string `json:"changed"`
	Pages     []string `json:"pages,omitempty"`
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// Watch rebuilds on every burst of source changes until ctx ends.
func (s *Server) Watch(ctx context.Context) error {
	w, err := newWatcher(s.opts.Build.Source, s.opts.Quiet, s.opts.Log)
	if err != nil {
		return fmt.Errorf("watch %s: %w", s.opts.Build.Source, err)
	}
	if s.opts.flush != nil {
		w.flush = s.opts.flush
	}
	w.reports = s.Reports
	if set := s.refreshSources(); set != nil {
		w.watchSources(set)
	}
	bursts := make(chan []string)
	go w.run(ctx, bursts)
	go s.checkAll(ctx)
	close(s.watching)
	for {
		select {
		case <-ctx.Done():
			s.events.close()
			return nil
		case paths := <-bursts:
			s.Update(ctx, paths)
		case <-s.resourced:
			if set := s.refreshSources(); set != nil {
				w.watchSources(set)
			}
		}
	}
}

func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch r.URL.Path {
	case ScriptPath:
		w.Header().Set("Content-Type", "text/javascript; charset=utf-8")
		w.Header().Set("Cache-Control", "no-store")
		w.Write(devJS)
		return
	case EventsPath:
		s.events.serve(w, r, s.session)
		return
	}
	snap := s.snap.Load()
	if snap == nil {
		s.errorPage(w, r, "The site has no good build to show yet.")
		return
	}
	defer s.answer.Do(func() { close(s.answered) })
	// The page renders first: its errors show over it, and its inline
	// hashes join the CSP the host sends with it.
	if r.Method == http.MethodGet || r.Method == http.MethodHead {
		_, err := s.dev.File(r.Context(), outputFile(r.URL.Path))
		s.noteSources(false) // the render may have read a file in a new folder
		if err != nil && !devsession.IsNotExist(err) && r.Context().Err() == nil {
			s.showProblems()
			s.errorPage(w, r, "This page does not render.")
			return
		}
	}
	handler := hosting.NewHandlerFS(devFS{dev: s.dev, ctx: r.Context()}, snap.prefixes, snap.redirects, s.dev.HeaderRules())
	rec := &recorder{header: http.Header{}, code: http.StatusOK}
	handler.ServeHTTP(rec, r)
	h := w.Header()
	for k, v := range rec.header {
		h[k] = v
	}
	// Dev responses are never cached: the same URL changes with every edit.
	h.Set("Cache-Control", "no-store")
	body := rec.body.Bytes()
	if strings.HasPrefix(rec.header.Get("Content-Type"), "text/html") && r.Method != http.MethodHead && rec.code != http.StatusPartialContent {
		file := ""
		switch rec.code {
		case http.StatusOK:
			file = outputFile(r.URL.Path)
		case http.StatusNotFound:
			file = notFoundFile(r.URL.Path, snap.prefixes)
		}
		body = inject(body, file, snap.fallback[file])
		h.Set("Content-Length", fmt.Sprint(len(body)))
	}
	w.WriteHeader(rec.code)
	w.Write(body)
}

// notFoundFile is the 404 page hosting.Handler answers a path with.
func notFoundFile(p string, prefixes []string) string {
	p = path.Clean("/" + p)
	file := "404.html"
	for _, pre := range prefixes {
		if p == pre || strings.HasPrefix(p, pre+"/") {
			file = strings.TrimPrefix(pre, "/") + "/404.html"
		}
	}
	return file
}

// outputFile is the output path a request path serves.
func outputFile(p string) string {
	p = path.Clean("/" + p)
	if strings.HasSuffix(p, ".html") {
		return strings.TrimPrefix(p, "/")
	}
	return strings.TrimPrefix(strings.TrimSuffix(p, "/")+"/index.html", "/")
}

// inject adds the dev script (an external file: the site's CSP allows no
// inline script) and, on a page shown from another locale, a visible marker.
func inject(page []byte, file, fallbackFrom string) []byte {
	tag := fmt.Sprintf(`<script type="module" src="%s" data-sitegen-dev data-file="%s"></script>`, ScriptPath, template.HTMLEscapeString(file))
	out := make([]byte, 0, len(page)+len(tag)+512)
	i := bytes.Index(page, []byte("</head>"))
	if i < 0 {
		i = 0
	}
	out = append(out, page[:i]...)
	out = append(out, tag...)
	rest := page[i:]
	if fallbackFrom != "" {
		if j := bytes.Index(rest, []byte("<body")); j >= 0 {
			if k := bytes.IndexByte(rest[j:], '>'); k >= 0 {
				out = append(out, rest[:j+k+1]...)
				out = append(out, fmt.Sprintf(`<div data-sitegen-dev="fallback" role="note" style="position:sticky;top:0;z-index:2147483646;background:#fef3c7;color:#1c1917;border-bottom:3px solid #b45309;padding:.5rem 1rem;font:15px/1.4 system-ui,sans-serif">Dev: no translation of this page in this locale yet; it shows <code>%s</code>.</div>`,
					template.HTMLEscapeString(fallbackFrom))...)
				rest = rest[j+k+1:]
			}
		}
	}
	return append(out, rest...)
}

// recorder buffers a response of the static handler so the dev server can
// add its script to HTML.
type recorder struct {
	header http.Header
	code   int
	body   bytes.Buffer
	wrote  bool
}

func (r *recorder) Header() http.Header { return r.header }
func (r *recorder) WriteHeader(code int) {
	if !r.wrote {
		r.code, r.wrote = code, true
	}
}
func (r *recorder) Write(b []byte) (int, error) {
	r.wrote = true
	return r.body.Write(b)
}

// Glob returns the output paths of the site being served that match
// pattern (path.Match syntax; none before a good build).
func (s *Server) Glob(pattern string) []string { return glob(s.dev.Names(), pattern) }

// GlobSiteWide is Glob of the site-wide files made with the site's layout
// (the bundles, the form schemas, robots.txt: build.Layout.Wide), without
// listing every page's.
func (s *Server) GlobSiteWide(pattern string) []string { return glob(s.dev.SiteWide(), pattern) }

func glob(names []string, pattern string) []string {
	var out []string
	for _, name := range names {
		if ok, _ := path.Match(pattern, name); ok { // the only error is a bad pattern
			out = append(out, name)
		}
	}
	return out
}

// File returns a file of the site being served, rendering it when needed
// (nil, false before a good build, or when it has errors).
func (s *Server) File(name string) ([]byte, bool) {
	b, err := s.dev.File(s.ctx, name)
	return b, err == nil
}

// Title is the site's title, once site.yaml has been read.
func (s *Server) Title() string {
	if cfg := s.dev.Config(); cfg != nil {
		return cfg.Title
	}
	return "the site"
}

// Serve serves handler (the dev server itself, or a mux around it) on addr
// and rebuilds on changes until ctx ends.
func (s *Server) Serve(ctx context.Context, addr string, handler http.Handler, ready func(url string)) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	werr := make(chan error, 1)
	go func() { werr <- s.Watch(ctx) }()
	err := hosting.Server(ctx, addr, handler, s.opts.Log, ready)
	cancel()
	if e := <-werr; err == nil {
		err = e
	}
	return err
}
