// Package islands builds and server-renders the site's interactive islands:
// React components in <Root>/assets/islands/<Name>.jsx.
//
// Build bundles them twice with esbuild's Go API: one SSR bundle (IIFE, run in
// a pool of embedded QuickJS engines inside the Go process) and the client
// bundles (ESM, code splitting, content-hashed names) plus a small hydration
// loader. By default react, react-dom and the JSX runtime resolve to Preact
// (preact/compat) on both sides; Options.Library "react" uses React on both.
//
// Render returns an island's markup: the server-rendered HTML inside an
// <sg-island> wrapper that records the component, its client chunk and the
// hydration directive, followed by the props as an escaped JSON script
// element. The loader (Scripts) hydrates the wrappers; ModulePreloads lists
// exactly the chunks the page's islands need.
package islands

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"path"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"modernc.org/quickjs"

	"sitegen/pkg/diag"
	"sitegen/pkg/esbuildcache"
	"sitegen/pkg/sitepath"
)

// Options configures Build.
type Options struct {
	Root         string // site root: contains assets/islands/ and node_modules/
	Library      string // "preact" (default) or "react"
	PublicPrefix string // URL prefix of client files, default "/_assets/islands/"
	Minify       bool
	Workers      int // engine pool size; 0 = runtime.NumCPU()

	// RenderTimeout bounds one server render (default DefaultRenderTimeout).
	// After an island's first timeout, its other renders fail at once.
	RenderTimeout time.Duration
	// BuildBudget bounds the time all renders of the bundle take together,
	// summed over workers (default DefaultBuildBudget).
	BuildBudget time.Duration
	// MemoryLimit bounds the memory of each JS engine, so of one render
	// (default DefaultMemoryLimit): past it an allocation fails and the
	// render stops, however few instructions it ran.
	MemoryLimit int64

	// NodePaths are extra node_modules directories searched after
	// <Root>/node_modules (e.g. a shared install for test fixtures).
	NodePaths []string

	// Cache, when set, keeps the bundles between builds (pkg/esbuildcache).
	Cache *esbuildcache.Cache
}

// Defaults of the render limits.
const (
	DefaultRenderTimeout = 3 * time.Second
	DefaultBuildBudget   = 2 * time.Minute
	DefaultMemoryLimit   = 256 << 20
)

// Directives lists the hydration directives Render accepts ("media=(query)"
// stands for any media query in parentheses).
var Directives = []string{"load", "idle", "visible", "media=(query)", "none"}

// Bundle is the result of Build. It is safe for concurrent use.
type Bundle struct {
	opts       Options
	names      []string
	ssr        []byte // SSR bundle (IIFE)
	ssrMap     *sourceMap
	client     map[string][]byte // file name (no prefix) -> bytes
	entries    map[string]string // island -> entry chunk file name
	chunks     map[string][]string
	loader     string   // loader file name
	loaderDeps []string // loader's static imports (file names)
	hash       string
	inputs     []string // what esbuild read for the client bundle (see Inputs)

	pool *pool
	code *ssrCode // what the pool's engines load

	cacheMu sync.Mutex
	cache   map[string]*cacheEntry

	engineCalls atomic.Int64 // renders that reached an engine

	spent    atomic.Int64 // nanoseconds spent in engine renders
	failFast sync.Map     // island name -> error: it timed out, do not run it again
}

type cacheEntry struct {
	done chan struct{}
	html string
	err  error
}

// Build bundles the islands under opts.Root/assets/islands.
func Build(ctx context.Context, opts Options) (*Bundle, error) {
	if opts.Library == "" {
		opts.Library = "preact"
	}
	if opts.Library != "preact" && opts.Library != "react" {
		return nil, diag.New(diag.Pos{}, "islands: unknown library %q", opts.Library).WithHint(`use "preact" or "react"`)
	}
	if opts.PublicPrefix == "" {
		opts.PublicPrefix = "/" + sitepath.Assets + "/islands/"
	}
	if !strings.HasSuffix(opts.PublicPrefix, "/") {
		opts.PublicPrefix += "/"
	}
	if opts.Workers <= 0 {
		opts.Workers = runtime.NumCPU()
	}
	if opts.RenderTimeout <= 0 {
		opts.RenderTimeout = DefaultRenderTimeout
	}
	if opts.BuildBudget <= 0 {
		opts.BuildBudget = DefaultBuildBudget
	}
	if opts.MemoryLimit <= 0 {
		opts.MemoryLimit = DefaultMemoryLimit
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	names, err := discover(opts.Root)
	if err != nil {
		return nil, err
	}
	b := &Bundle{opts: opts, names: names, cache: map[string]*cacheEntry{}}
	if len(names) == 0 {
		b.client = map[string][]byte{}
		b.hash = hashBytes(nil)
		return b, nil
	}
	if err := needPackages(opts); err != nil {
		return nil, err
	}
	// The server and client bundles are independent: esbuild makes them at
	// the same time.
	clientDone := make(chan error, 1)
	go func() { clientDone <- buildClient(opts, names, b) }()
	ssr, smap, err := buildSSR(opts, names, "es2020")
	if cerr := <-clientDone; err == nil {
		err = cerr
	}
	if err != nil {
		return nil, err
	}
	b.ssr = ssr
	if b.ssrMap, err = parseSourceMap(smap); err != nil {
		return nil, fmt.Errorf("islands: SSR source map: %w", err)
	}
	h := sha256.New()
	h.Write(ssr)
	for _, f := range sortedKeys(b.client) {
		h.Write([]byte(f))
		h.Write([]byte{0})
		h.Write(b.client[f])
	}
	b.hash = hex.EncodeToString(h.Sum(nil))[:16]
	b.code = &ssrCode{src: jsPrelude + string(b.ssr)}
	b.pool = newPool(opts.Workers, func() (engine, error) { return newQuickJSFrom(b.code, b.opts.MemoryLimit) })
	return b, nil
}

// Has reports whether an island of that name exists.
func (b *Bundle) Has(name string) bool {
	i := sort.SearchStrings(b.names, name)
	return i < len(b.names) && b.names[i] == name
}

// Names returns the island names, sorted.
func (b *Bundle) Names() []string { return append([]string(nil), b.names...) }

// Hash returns a content hash of both bundles.
func (b *Bundle) Hash() string { return b.hash }

// Inputs are the files esbuild read to bundle the islands for the browser
// (its metafile's inputs: slash paths relative to the site root, or
// outside it, and esbuild's own namespaced names such as "sitegen:loader").
func (b *Bundle) Inputs() []string { return slices.Clone(b.inputs) }

// EngineRenders returns how many renders ran an island's JS in an engine
// (the others were answered from the bundle's memo of identical renders).
func (b *Bundle) EngineRenders() int64 { return b.engineCalls.Load() }

// Close releases the engines.
func (b *Bundle) Close() error {
	if b.pool == nil {
		return nil
	}
	return b.pool.close()
}

// parseDirective is the one grammar of hydration directives: it validates a
// directive and returns its base name and media query (for "media=(query)",
// the query in parentheses).
func parseDirective(d string) (base, media string, err error) {
	switch d {
	case "load", "idle", "visible", "none":
		return d, "", nil
	}
	if q, ok := strings.CutPrefix(d, "media="); ok {
		q = strings.TrimSpace(q)
		if q == "" {
			return "", "", fmt.Errorf("directive %q: empty media query", d)
		}
		if !strings.HasPrefix(q, "(") || !strings.HasSuffix(q, ")") {
			return "", "", fmt.Errorf("directive %q: the media query goes in parentheses, like media=(max-width: 960px)", d)
		}
		return "media", q, nil
	}
	return "", "", fmt.Errorf("unknown directive %q", d)
}

// Placement returns how an island with a directive hydrates: the
// directive's kind (load, idle, visible, media or none), its media query
// and the island's entry chunk ("" when it does not hydrate).
func (b *Bundle) Placement(name, directive string) (kind, media, chunk string, err error) {
	kind, media, err = parseDirective(directive)
	if err != nil {
		return "", "", "", err
	}
	if kind != "none" {
		chunk = b.entries[name]
	}
	return kind, media, chunk, nil
}

// Render server-renders island name with propsJSON (a JSON object; null or
// empty means {}) and returns the island markup and whether it hydrates.
// childrenHTML (trusted HTML, e.g. from templates) is passed to the component
// as the prop childrenHtml; it must render it in an element carrying the
// data-sg-children attribute so that the client can pass it on at hydration.
func (b *Bundle) Render(ctx context.Context, name string, propsJSON []byte, directive string, childrenHTML string) (string, bool, error) {
	if !b.Has(name) {
		return "", false, diag.New(diag.Pos{}, "unknown island %q", name).WithHint("islands: %s (files in assets/islands/)", strings.Join(b.names, ", "))
	}
	base, media, chunk, err := b.Placement(name, directive)
	if err != nil {
		return "", false, diag.New(diag.Pos{}, "island %s: %v", name, err).WithHint("use one of %s", strings.Join(Directives, ", "))
	}
	props, err := normalizeProps(propsJSON)
	if err != nil {
		return "", false, diag.New(diag.Pos{}, "island %s: props: %v", name, err)
	}
	inner, err := b.renderInner(ctx, name, props, childrenHTML)
	if err != nil {
		return "", false, err
	}
	var s strings.Builder
	s.Grow(len(inner) + len(props) + 160)
	s.WriteString(`<sg-island data-island="`)
	s.WriteString(html.EscapeString(name))
	s.WriteString(`" data-directive="`)
	s.WriteString(base)
	s.WriteString(`"`)
	if media != "" {
		s.WriteString(` data-media="`)
		s.WriteString(html.EscapeString(media))
		s.WriteString(`"`)
	}
	hydrated := chunk != ""
	if hydrated {
		s.WriteString(` data-chunk="`)
		s.WriteString(html.EscapeString(chunk))
		s.WriteString(`"`)
	}
	s.WriteString(`>`)
	s.WriteString(inner)
	s.WriteString(`</sg-island>`)
	if hydrated {
		s.WriteString(`<script type="application/json" data-sg-props>`)
		s.WriteString(escapeJSON(props))
		s.WriteString(`</script>`)
	}
	return s.String(), hydrated, nil
}

// normalizeProps checks propsJSON is a JSON object (or empty/null) and drops
// insignificant whitespace.
func normalizeProps(p []byte) ([]byte, error) {
	t := strings.TrimSpace(string(p))
	if t == "" || t == "null" {
		return []byte("{}"), nil
	}
	if !json.Valid([]byte(t)) {
		return nil, fmt.Errorf("not valid JSON")
	}
	if t[0] != '{' {
		return nil, fmt.Errorf("must be a JSON object")
	}
	var buf strings.Builder
	if err := compactJSON(&buf, []byte(t)); err != nil {
		return nil, err
	}
	return []byte(buf.String()), nil
}

// renderInner returns the island's server HTML. Children are opaque to the
// component (it renders them only through dangerouslySetInnerHTML, in its
// data-sg-children element), so the engine renders an island once per props
// with a stand-in for the children, and each call's children are spliced in
// where the stand-in came out: a menu or a form whose per-page part comes as
// children runs its JS once per locale, not once per page. When the stand-in
// does not come out exactly once (the component did something else with its
// children) or that render fails, the island is rendered with the real
// children, as if there were no stand-in.
func (b *Bundle) renderInner(ctx context.Context, name string, props []byte, children string) (string, error) {
	if children == "" {
		return b.ssrRender(ctx, name, props, "")
	}
	standIn := "<!--sg-children " + b.hash + "-->"
	if html, err := b.ssrRender(ctx, name, props, standIn); err == nil {
		if i := strings.Index(html, standIn); i >= 0 && strings.LastIndex(html, standIn) == i {
			return html[:i] + children + html[i+len(standIn):], nil
		}
	} else if ctx.Err() != nil {
		return "", err
	}
	return b.ssrRender(ctx, name, props, children)
}

func (b *Bundle) ssrRender(ctx context.Context, name string, props []byte, children string) (string, error) {
	key := cacheKey(b.hash, name, props, children)
	b.cacheMu.Lock()
	for {
		e, ok := b.cache[key]
		if !ok {
			break
		}
		b.cacheMu.Unlock()
		select {
		case <-e.done:
		case <-ctx.Done():
			return "", ctx.Err()
		}
		if e.err == nil || !(errors.Is(e.err, context.Canceled) || errors.Is(e.err, context.DeadlineExceeded)) {
			return e.html, e.err
		}
		// The first caller was cancelled: render again with this ctx.
		b.cacheMu.Lock()
	}
	e := &cacheEntry{done: make(chan struct{})}
	b.cache[key] = e
	b.cacheMu.Unlock()

	e.html, e.err = b.renderEngine(ctx, name, props, children)
	if e.err != nil && ctx.Err() != nil {
		// Do not cache cancellations.
		b.cacheMu.Lock()
		if b.cache[key] == e {
			delete(b.cache, key)
		}
		b.cacheMu.Unlock()
	}
	close(e.done)
	return e.html, e.err
}

func (b *Bundle) renderEngine(ctx context.Context, name string, props []byte, children string) (string, error) {
	if err, ok := b.failFast.Load(name); ok {
		return "", err.(error)
	}
	limit, limitName := b.opts.RenderTimeout, "per-render limit"
	if rest := b.opts.BuildBudget - time.Duration(b.spent.Load()); rest <= limit {
		limit, limitName = rest, "budget"
		if rest <= 0 {
			return "", b.limitError(name, "", "budget")
		}
	}
	eng, err := b.pool.get(ctx)
	if err != nil {
		return "", err
	}
	b.engineCalls.Add(1)
	// Cancelling ctx or hitting the limit interrupts the engine; an engine
	// that was (or may have been) interrupted is discarded, not reused.
	rctx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()
	start := time.Now()
	stop := context.AfterFunc(rctx, eng.interrupt)
	res, err := eng.render(name, string(props), children)
	interrupted := !stop()
	b.spent.Add(int64(time.Since(start)))
	oom := outOfMemory(res, err)
	b.pool.put(eng, interrupted || oom || (err != nil && res == nil))
	if oom && !interrupted {
		stack := ""
		var qe *quickjs.Error
		if errors.As(err, &qe) {
			stack = qe.Stack
		} else if res != nil && res.Error != nil {
			stack = res.Error.Stack
		}
		lerr := b.limitError(name, stack, "memory")
		b.failFast.LoadOrStore(name, lerr)
		return "", lerr
	}
	if interrupted && ctx.Err() != nil {
		return "", fmt.Errorf("island %s: %w", name, ctx.Err())
	}
	if interrupted && rctx.Err() != nil {
		stack := ""
		var qe *quickjs.Error
		if errors.As(err, &qe) {
			stack = qe.Stack
		}
		lerr := b.limitError(name, stack, limitName)
		b.failFast.LoadOrStore(name, lerr)
		return "", lerr
	}
	if err != nil {
		return "", diag.New(diag.Pos{}, "island %s: engine: %v", name, err)
	}
	if res.Error != nil {
		return "", b.renderError(name, res.Error)
	}
	return res.HTML, nil
}

// limitError reports an island stopped by a limit, at the .jsx line it was
// running when the stack tells.
func (b *Bundle) limitError(name, stack, which string) error {
	var pos diag.Pos
	if stack != "" {
		_, pos = b.ssrMap.mapStack(shiftStack(stack, preludeLines))
	}
	if pos.File == "" {
		pos = diag.Pos{File: islandsDir + "/" + name + ".jsx"}
	}
	if which == "memory" {
		return diag.New(pos, "island %s: stopped: one server render used more than the memory limit of %d MB; its other renders were skipped", name, b.opts.MemoryLimit>>20).
			WithHint("a loop that keeps allocating? a server render builds one island's HTML and needs little memory")
	}
	if which == "budget" {
		return diag.New(pos, "island %s: stopped: island renders took more than the build's budget of %v", name, b.opts.BuildBudget).
			WithHint("islands.buildBudget in site.yaml raises it")
	}
	return diag.New(pos, "island %s: stopped: one server render took longer than the limit of %v; its other renders were skipped", name, b.opts.RenderTimeout).
		WithHint("an endless loop? islands.renderTimeout in site.yaml raises the limit")
}

// outOfMemory reports whether a render failed because the engine reached
// its memory limit (QuickJS throws "out of memory", which the bundle's
// render may catch and report as the component's error).
func outOfMemory(res *renderResult, err error) bool {
	if err != nil && strings.Contains(err.Error(), "out of memory") {
		return true
	}
	return res != nil && res.Error != nil && strings.Contains(res.Error.Message, "out of memory")
}

func cacheKey(bundle, name string, props []byte, children string) string {
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%s\x00", bundle, name)
	ph := sha256.Sum256(props)
	ch := sha256.Sum256([]byte(children))
	h.Write(ph[:])
	h.Write(ch[:])
	return string(h.Sum(nil))
}

// Scripts returns the module script URLs (the loader) a page with these
// hydrated islands needs; none when no island hydrates.
func (b *Bundle) Scripts(hydrated []string) []string {
	if len(b.known(hydrated)) == 0 || b.loader == "" {
		return nil
	}
	return []string{b.opts.PublicPrefix + b.loader}
}

// ModulePreloads returns the chunk URLs (entries and their static imports,
// and the loader's imports) the hydrated islands need, sorted.
func (b *Bundle) ModulePreloads(hydrated []string) []string {
	names := b.known(hydrated)
	if len(names) == 0 {
		return nil
	}
	set := map[string]bool{}
	for _, f := range b.loaderDeps {
		set[f] = true
	}
	for _, n := range names {
		for _, f := range b.chunks[n] {
			set[f] = true
		}
	}
	delete(set, b.loader)
	out := make([]string, 0, len(set))
	for _, f := range sortedKeys(set) {
		out = append(out, b.opts.PublicPrefix+f)
	}
	return out
}

func (b *Bundle) known(names []string) []string {
	var out []string
	for _, n := range names {
		if b.Has(n) {
			out = append(out, n)
		}
	}
	return out
}

// ClientFiles returns every client file, keyed by its path relative to the
// output root.
func (b *Bundle) ClientFiles() map[string][]byte {
	dir := b.opts.PublicPrefix
	if i := strings.Index(dir, "://"); i >= 0 { // absolute URL: keep its path
		rest := dir[i+3:]
		if j := strings.IndexByte(rest, '/'); j >= 0 {
			dir = rest[j:]
		} else {
			dir = "/"
		}
	}
	dir = strings.TrimPrefix(dir, "/")
	out := make(map[string][]byte, len(b.client))
	for f, data := range b.client {
		out[path.Join(dir, f)] = data
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

func hashBytes(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])[:16]
}
