// Package build wires the pipeline: config → content → route → render → output.
// A build is a pure function of the source tree and its options: the same
// input gives byte-identical output.
//
// A warm build trusts only what the last build read. Every read of the
// site goes through one file layer (deps.FS, into a deps.Record) that records each
// file with the SHA-256 of its bytes, each folder listed with a digest of
// its entries, each path stated (its kind and size) or found absent;
// knownPages adds the page files it did not need to read, with the digest
// the build that read them found, and Record.AddOS the files esbuild's
// metafiles say it bundled (node_modules included) and their folders. The
// output's index keeps that record (deps.EncodeNotes); the next build does
// nothing only when inputDigest (options, date, sitegen's version and
// executable, and the record) is the one noted and every dependency still
// holds (deps.Verify): its lstat is the one noted,
// which is noted only when its change time was over two seconds old
// (trusted), or its bytes, listing, kind or absence are found again. When
// something changed, a page comes from the cache (pageCache.lookup) only
// under the same salt, whose build hash digests what the load read
// (deps.Record.LoadHash), and with every entry of its own trace (what its
// render read besides) the same. No list of folders decides what a site
// is; a dev session watches what the same record holds (Site.Sources).
package build

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"maps"
	"os"
	"path"
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
	"sitegen/pkg/htmlmin"
	"sitegen/pkg/i18n"
	"sitegen/pkg/images"
	"sitegen/pkg/internal/bufpool"
	"sitegen/pkg/islands"
	"sitegen/pkg/markdown"
	"sitegen/pkg/output"
	"sitegen/pkg/render"
	"sitegen/pkg/route"
	"sitegen/pkg/sitefs"
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
	Host    string // overrides site.yaml's host when set (output.HostNames)
	Drafts  bool
	// Date (YYYY-MM-DD) is the day announcements are judged against; empty
	// means today. It is the only clock a build reads.
	Date   string
	Minify bool
	// ImageCache is the folder of encoded image variants kept between
	// builds; empty means sitegen/images in the user cache folder (never
	// in the site).
	ImageCache string
	// ImageEncoders, when set, replace the image encoders (a test's gate
	// on them); nil means images.DefaultEncoders.
	ImageEncoders *images.Encoders
	// NoSiteImages leaves the site's folder of variants (site.yaml's
	// images.keepInSite) unread and unwritten: a benchmark's, to measure
	// the encodes, or to use encoders whose output is not the site's.
	NoSiteImages bool
	Logger       *slog.Logger
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
	// now, when set, is a test's clock for when a load begins (page files
	// changed more than two seconds before are not read again: knownPages).
	now func() time.Time
}

// Site is a loaded, validated site ready to render (used by build and serve).
type Site struct {
	Config   *config.Config
	source   *content.Source
	plan     *route.Plan
	renderer *render.Renderer
	Catalog  *i18n.Catalog
	Assets   *assets.Result
	Statics  map[string]bool
	Hash     string
	Islands  *islands.Bundle // nil when the site has no assets/islands/
	Images   *images.Processor
	// IslandsBundle is how long bundling the islands took.
	IslandsBundle time.Duration
	readTime      time.Duration     // reading and parsing the content files (front matter)
	rec           *deps.Record      // what the build read (see unchanged.go)
	cache         *cache.Store      // nil without Options.CacheDir
	pages         *pageCache        // nil without Options.CacheDir
	html          *htmlmin.Minifier // minifies the redirect pages (the renderer minifies the others); nil: off
	bundles       *esbuildcache.Cache
	cacheWarning  string
	fsys          fs.FS
	root          string
	beforeRender  func(*route.Entry)
	skip          map[string]bool      // source files with errors: their pages are not rendered
	files         []content.SourceFile // the parsed content files (loaded live, for the dev server)
	copts         content.Options      // how the content files were parsed
	imageFiles    map[string]bool      // the source images under assets/images (site paths)
	md            *markdown.Converter
	inlineHashes  []string     // CSP hashes of the <style>s and inline scripts the written pages carry (output.InlineHashes)
	formSet       siteForms    // the schemas of the site's forms (forms)
	dataBufs      bufpool.Pool // page data buffers of the pages written, for the next (forget)
	// recordDeps: record what each render used (a dev session's).
	recordDeps bool
	// stableURLs, in a dev session, are the URLs the pages link for each
	// asset entry (see bundleFiles).
	stableURLs map[string]string
	opts       Options // a dev session's (LoadLive), which Next keeps
	layout     *Layout // a dev session's (LoadLive, Next)
	// loadErrs and layoutErr are the errors of a dev session's site that
	// a build refuses (Refused): its load's, and its site-wide files'.
	loadErrs  diag.List
	layoutErr error
}

// saveCaches saves what the cache learned (closing it) and returns the
// warning when it, or the picture variants, could not be written into
// their folders (a full disk), or "": the build stands, but the next one
// will not find what this one made (issue 36: it said nothing).
func (s *Site) saveCaches() string {
	var warn []string
	if err := s.cache.Close(); err != nil {
		warn = append(warn, fmt.Sprintf("could not save the cache in %s: %s", s.cache.Dir(), strings.TrimPrefix(err.Error(), "cache: ")))
	}
	if s.Images != nil {
		if err := s.Images.CacheErr(); err != nil {
			warn = append(warn, fmt.Sprintf("could not keep the image variants in %s: %s", s.Images.CacheDir(), strings.TrimPrefix(err.Error(), "image cache: ")))
		}
	}
	if len(warn) == 0 {
		return ""
	}
	return strings.Join(warn, "; ") + "; the next build will make again what this one made"
}

// Close releases the island engines and saves what the cache learned.
func (s *Site) Close() error {
	err := s.cache.Close()
	if s.Islands != nil {
		err = errors.Join(err, s.Islands.Close())
	}
	return err
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
	// With a cache folder the previous output is reused: nothing is done
	// when nothing changed, and only the files that changed are written
	// otherwise (output.BeginOptions.Reuse).
	reuse := opts.CacheDir != "" && !opts.PrivateOut
	if reuse && opts.Date == "" { // one day for the digest and the render
		opts.Date = time.Now().Format("2006-01-02")
	}
	// The site loads while the last build's index is read, the digest is
	// made and the output is readied (checked, locked, its spare
	// verified): jobs that wait on the file system as much as on a core.
	loadCtx, stopLoad := context.WithCancel(ctx)
	defer stopLoad()
	loaded := make(chan loadResult, 1)
	go func() { loaded <- loadSite(loadCtx, opts) }()
	// The last build's notes are checked while the site loads: they tell
	// whether there is anything to do (see the trust model in unchanged.go).
	verified := make(chan string, 1)
	var last *output.Last
	if reuse {
		last = output.ReadLast(opts.Out)
	}
	if last != nil {
		go func() { verified <- verifiedInput(ctx, opts, sourceFS(opts), last.Notes()) }()
	}
	if last != nil && opts.AfterWrite == nil { // an output that may be current: wait for the check
		if rep, ok := unchangedReport(last.Report); ok && last.Current(<-verified) {
			stopLoad()
			if l := <-loaded; l.site != nil {
				l.site.Close()
			}
			if err := last.Guard(opts.Source); err != nil {
				return nil, err
			}
			rep.Duration = time.Since(start)
			log.Info("build done: nothing changed", "files", rep.Files, "ms", rep.Duration.Milliseconds())
			return rep, nil
		}
	}
	readied := make(chan treeResult, 1)
	go func() { readied <- readyOut(opts, reuse, last) }()
	l, ready := <-loaded, <-readied
	site, errs := l.site, l.errs
	if err := cmp.Or(ready.err, l.err, ctx.Err()); err != nil || site == nil || errs.Errors() > 0 {
		if ready.tree != nil { // a spare nothing was written to stays for the next build
			ready.tree.Abort()
		}
		if err != nil && site != nil {
			site.Close()
		}
		switch {
		case err != nil:
			return nil, stopped(ctx, err)
		case site == nil:
			return nil, attachSource(opts, errs.Err())
		}
	}
	defer site.Close()
	site.beforeRender = opts.beforeRender
	if errs.Errors() > 0 {
		return nil, attachSource(opts, site.errorsOnly(ctx, errs))
	}
	rep, err := site.commit(ctx, opts, ready.tree, reuse, last, log)
	if err != nil {
		return nil, err
	}
	rep.Duration = time.Since(start)
	log.Info("build done", "pages", rep.Pages, "files", rep.Files, "bytes", rep.Bytes, "ms", rep.Duration.Milliseconds())
	return rep, nil
}

// commit writes the site into tree (Site.write) and makes it the output,
// with what the next build needs to reuse it.
func (s *Site) commit(ctx context.Context, opts Options, tree *output.Tree, reuse bool, last *output.Last, log *slog.Logger) (*Report, error) {
	tree.AbortOn(ctx) // Ctrl+C removes the temporary tree at once
	committed := false
	defer func() {
		if !committed { // a panic unwinding: leave no temporary tree behind
			tree.Abort()
		}
	}()
	rep, err := s.write(ctx, tree)
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
	if reuse {
		rep.Reused, rep.FilesWritten = true, tree.Written()
		input, notes, why := s.recorded(opts, last)
		if why != "" {
			log.Info("the next build will not reuse this one's inputs", "why", why)
		}
		tree.Record(input, encodeReport(rep), notes)
	} else {
		rep.FilesWritten = rep.Files
	}
	if err := tree.Commit(); err != nil {
		return nil, err
	}
	// The build succeeded, so every picture the site shows was named: the
	// site's folder of variants loses the rest (a failed build returned
	// above and pruned nothing).
	removed, pruneErr := s.Images.Prune()
	rep.Images.Pruned = int64(len(removed))
	var pruneWarn string
	if pruneErr != nil {
		pruneWarn = "could not remove the unused image variants: " + strings.TrimPrefix(pruneErr.Error(), "image folder: ")
	}
	rep.CacheWarning = strings.Join(slices.DeleteFunc([]string{rep.CacheWarning, s.saveCaches(), pruneWarn}, func(s string) bool { return s == "" }), "; ")
	return rep, nil
}

// recorded returns the input digest of what the build read and the notes
// for the next build; none when the record cannot be trusted (the next
// build then does all the work). last, when set, is the last build's output
// (its notes spare reading esbuild's inputs again).
func (s *Site) recorded(opts Options, last *output.Last) (input string, notes []byte, why string) {
	if s.bundles == nil || s.rec == nil {
		return "", nil, "no build cache"
	}
	prev := map[deps.Key]deps.Dep{}
	for _, e := range deps.DecodeNotes(last.Notes()) {
		if e.Kind == deps.OSFile || e.Kind == deps.OSDir {
			prev[e.Key] = e.Dep
		}
	}
	s.rec.AddOS(s.bundles.Inputs(), prev)
	es, bad := s.rec.Entries()
	if bad != "" {
		return "", nil, bad
	}
	return inputDigest(opts, s.rec.Root(), es), deps.EncodeNotes(s.rec.Began(), es), ""
}

// sourceFS is the site's file system as a build reads it, without a
// record (nil for a site not in a folder).
func sourceFS(opts Options) fs.FS {
	if opts.FS != nil {
		return nil
	}
	root := opts.Source
	if root == "" {
		root = "."
	}
	f, err := sitefs.New(root)
	if err != nil {
		return nil
	}
	return f
}

type loadResult struct {
	site *Site
	errs diag.List
	err  error // a panic while loading (*InternalError)
}

// loadSite loads the site for a build (load), on its own goroutine.
func loadSite(ctx context.Context, opts Options) (r loadResult) {
	defer recoverAs(&r.err, "loading the site")
	r.site, r.errs = load(ctx, opts, nil)
	return r
}

type treeResult struct {
	tree *output.Tree
	err  error
}

// readyOut checks the output folder (unless it is the caller's own) and
// begins the tree that will replace it, on its own goroutine; last is what
// was read of the output's index, if anything.
func readyOut(opts Options, reuse bool, last *output.Last) (r treeResult) {
	defer recoverAs(&r.err, "readying the output folder")
	if !opts.PrivateOut {
		if err := output.GuardLast(opts.Source, opts.Out, last); err != nil {
			return treeResult{err: err}
		}
	}
	tree, err := output.BeginWith(opts.Out, Version, output.BeginOptions{Reuse: reuse, Last: last})
	return treeResult{tree, err}
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

// runtimeEntry is the client runtime's entry under assets/.
const runtimeEntry = "runtime/runtime.js"

// worker builds /sw.js: the caching worker with an offline page per
// locale, or the retiring worker when site.yaml asks for it.
func (s *Site) worker() ([]byte, error) {
	for _, src := range []string{assets.WorkerSource, assets.RetireSource} { // looked up on disk: recorded here
		fs.Stat(s.fsys, path.Join(assets.Dir, src))
	}
	return assets.Worker(s.root, assets.WorkerOptions{Minify: true, Retire: s.Config.ServiceWorker.Retire, Build: s.Hash, Pages: s.offlinePages(), Cache: s.bundles})
}

// offlinePages are the URLs of the locales' offline pages, by locale
// prefix: what the worker depends on besides site.yaml, assets/ and the
// build hash.
func (s *Site) offlinePages() map[string]string {
	pages := map[string]string{}
	id := s.Config.ServiceWorker.Offline
	for _, l := range s.Config.Locales {
		if e, ok := s.plan.Lookup(l.Code, id); ok && id != "" && !e.Fallback {
			pages[l.Prefix] = e.URL
		}
	}
	return pages
}

// Entries are the pages a build renders, the root page first.
func (s *Site) Entries() []*route.Entry { return s.entries() }

// Renderer is the site's template renderer (for tools and tests; a build
// renders through Write).
func (s *Site) Renderer() *render.Renderer { return s.renderer }

// RenderURL renders the page at a site path.
func (s *Site) RenderURL(ctx context.Context, url string) (_ []byte, _ bool, err error) {
	defer recoverAs(&err, "rendering "+url)
	e, ok := s.plan.ByURL(url)
	if !ok {
		return nil, false, nil
	}
	res, err := s.renderer.Render(ctx, e)
	if err != nil {
		return nil, true, err
	}
	return res.HTML, true, nil
}

// errorsOnly renders a site that loaded with errors into no output, for
// the errors found there, and returns them all after errs.
func (s *Site) errorsOnly(ctx context.Context, errs diag.List) error {
	_, err := s.write(ctx, nil)
	return s.refusal(errs, err)
}

// refusal is what a build of a site with errors reports: the load's
// errors, then what rendering and laying out the site found (rest: the
// pages' errors or else its site-wide files', as write reports them), and
// how many pages were not rendered because of the load's.
func (s *Site) refusal(load diag.List, rest error) error {
	var errs diag.List
	errs.Merge(load)
	errs.AddErr(diag.Pos{}, rest)
	if n := s.skipped(); n > 0 {
		errs.Add(diag.Notef(diag.Pos{}, "%d page(s) were not rendered because of the errors above", n))
	}
	return errs.Err()
}

// skipped counts the pages not rendered because their source has errors.
func (s *Site) skipped() int {
	n := 0
	for _, e := range s.plan.Entries {
		if s.skip[e.Page.File] && !e.Fallback {
			n++
		}
	}
	return n
}
