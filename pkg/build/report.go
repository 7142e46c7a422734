package build

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"fmt"
	"io/fs"
	"strings"
	"time"

	"sitegen/pkg/cache"
	"sitegen/pkg/i18n"
	"sitegen/pkg/images"
	"sitegen/pkg/output"
	"sitegen/pkg/route"
)

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
	// Metadata lists the photos published as they are that carry a GPS
	// position or a person's name (warnings).
	Metadata []Metadata
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
	// FilesWritten is how many of Files were written: a build that reuses
	// the previous output (with a cache folder) leaves the files whose
	// bytes did not change as they are. Unchanged says nothing changed
	// since the last build: its output is already in place, and this
	// report is that build's.
	FilesWritten int
	Reused       bool
	Unchanged    bool
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
	switch {
	case r.Unchanged:
		s += " (nothing changed since the last build: no file written)"
	case r.PageCache:
		s += fmt.Sprintf(" (pages: %d rendered, %d from cache", r.PagesRendered, r.PagesCached)
		if r.Reused {
			s += fmt.Sprintf("; files: %d written, %d unchanged", r.FilesWritten, r.Files-r.FilesWritten)
		}
		s += ")"
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

// newReport starts the report of a build from its rendered pages: pages
// per locale, and the largest JavaScript payload per layout.
func (s *Site) newReport(done []rendered, jsSize func([]string) int) *Report {
	rep := &Report{Pages: map[string]int{}, BuildHash: s.Hash, JS: map[string]PageJS{}}
	for _, l := range s.Config.Locales {
		rep.Locales = append(rep.Locales, l.Code)
	}
	for _, r := range done {
		e := r.entry
		if !e.Root {
			rep.Pages[e.Lang]++
		}
		if n := jsSize(s.renderer.PageScripts(r.islands)); n > rep.JS[e.Page.Layout].GzipBytes || rep.JS[e.Page.Layout].Page == "" {
			rep.JS[e.Page.Layout] = PageJS{GzipBytes: n, Islands: r.islands, Page: e.URL}
		}
	}
	rep.Redirects = len(s.plan.Redirects)
	rep.RedirectTable = output.RedirectTable(s.plan.Redirects)
	if u, ok := s.Assets.URLs[runtimeEntry]; ok {
		rep.Runtime = jsSize([]string{u})
	}
	return rep
}

// finishReport adds what the renderer, the cache and the pictures counted.
func (s *Site) finishReport(rep *Report) {
	rep.HeaderRules = output.HeaderRules(s.policy())
	rep.Images = s.Images.Stats()
	rep.Fallbacks = s.plan.Fallbacks
	rep.DataFallbacks = s.renderer.DataFallbacks()
	rep.StringMisses = s.Catalog.Misses()
	rep.Metadata = StaticMetadata(s.Statics, func(p string) []byte { b, _ := fs.ReadFile(s.fsys, StaticDir+p); return b })
	rep.IslandsBundle = s.IslandsBundle
	rep.SSRCalls, rep.SSRTime = s.renderer.SSRStats()
	if s.Islands != nil {
		rep.SSREngine = s.Islands.EngineRenders()
	}
	rep.CacheHits, rep.CacheMisses = s.renderer.CacheStats()
	rep.CacheWarning = s.cacheWarning
	rep.PageCache = s.pages != nil
	rep.PagesRendered, rep.Rendered, rep.PagesCached = s.pages.stats()
	rep.TemplateSets, rep.EsbuildRuns = s.renderer.TemplateSets(), s.bundles.Runs()
}
