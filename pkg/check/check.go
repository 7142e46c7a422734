// Package check is `sitegen check`: it builds the site in memory and checks
// what a build cannot see page by page: internal links and #anchors in every
// locale, redirects that lead nowhere, hreflang pairs that are not
// reciprocal, pages and strings missing in a locale, images without alt
// text, pages without title or description, duplicate titles in a locale,
// the byte budgets of site.yaml, and, with External, links to other sites.
package check

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"io"
	"io/fs"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"

	"sitegen/pkg/build"
	"sitegen/pkg/diag"
	"sitegen/pkg/output"
	"sitegen/pkg/route"
	"sitegen/pkg/sitepath"
)

// Kinds of problems a check finds (Diagnostic.Kind).
const (
	KindLink        = "broken-link"
	KindAnchor      = "broken-anchor"
	KindAlias       = "dangling-alias"
	KindHreflang    = "hreflang"
	KindMissingPage = "missing-page"
	KindMissingStr  = "missing-string"
	KindMissingData = "missing-data"
	KindAlt         = "image-alt"
	KindTitle       = "missing-title"
	KindDescription = "missing-description"
	KindDupTitle    = "duplicate-title"
	KindBudget      = "budget"
	KindExternal    = "external-link"
	KindSitemap     = "sitemap-noindex"
	KindMetadata    = "image-metadata" // a published photo tells where it was taken or who took it
	KindBuild       = "build"          // the site does not build
	KindHeadLinks   = "head-links"
	KindNotFound    = "no-404-page"
	KindFeed        = "feed" // a feed linked from a page is missing or breaks the feed rules
)

// textLine is the text form of one diagnostic of a check:
// file:line:col: severity: message (what CI annotators read).
func textLine(d diag.Diagnostic) string {
	return fmt.Sprintf("%s: %s: %s", d.Pos, d.Severity, d.Message)
}

// Options of a check.
type Options struct {
	Build    build.Options
	External *External // nil: external links are not checked
}

// Report is the result of a check: diagnostics (pkg/diag) with a severity
// and the kind of check that found them, in the order of their positions.
type Report struct {
	Diagnostics diag.List
	Errors      int
	Warnings    int
	Pages       int
	Feeds       int // the RSS and Atom feeds the pages link, each checked
}

// jsonDiag is one diagnostic in the JSON report (an element of "findings").
type jsonDiag struct {
	File     string        `json:"file"`
	Line     int           `json:"line,omitempty"`
	Col      int           `json:"col,omitempty"`
	Severity diag.Severity `json:"severity"`
	Kind     string        `json:"kind"`
	Message  string        `json:"message"`
	Page     string        `json:"page,omitempty"` // the URL of the rendered page
}

// Failed reports whether the check fails: on errors, or with strict on
// warnings too.
func (r *Report) Failed(strict bool) bool { return r.Errors > 0 || (strict && r.Warnings > 0) }

// WriteText writes file:line:col: severity: message lines (what CI
// annotators read) and a summary.
func (r *Report) WriteText(w io.Writer) {
	for _, d := range r.Diagnostics {
		fmt.Fprintln(w, textLine(d))
	}
	feeds := ""
	if r.Feeds > 0 {
		feeds = fmt.Sprintf(" and %d feeds", r.Feeds)
	}
	fmt.Fprintf(w, "checked %d pages%s: %d error(s), %d warning(s)\n", r.Pages, feeds, r.Errors, r.Warnings)
}

// WriteJSON writes the report as JSON.
func (r *Report) WriteJSON(w io.Writer) error {
	out := struct {
		Diagnostics []jsonDiag `json:"findings"`
		Errors      int        `json:"errors"`
		Warnings    int        `json:"warnings"`
		Pages       int        `json:"pages"`
		Feeds       int        `json:"feeds,omitempty"`
	}{Diagnostics: []jsonDiag{}, Errors: r.Errors, Warnings: r.Warnings, Pages: r.Pages, Feeds: r.Feeds}
	for _, d := range r.Diagnostics {
		out.Diagnostics = append(out.Diagnostics, jsonDiag{File: d.Pos.File, Line: d.Pos.Line, Col: d.Pos.Col, Severity: d.Severity, Kind: d.Kind, Message: d.Message, Page: d.Page})
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

// Run builds the site in memory and checks it. The errors of a site that
// does not build are its diagnostics (kind "build"; a build's notes stay notes).
func Run(ctx context.Context, opts Options) (*Report, error) {
	dev, res, err := build.NewDev(ctx, opts.Build)
	if dev != nil {
		defer dev.Close()
	}
	if err != nil {
		var list diag.List
		var d diag.Diagnostic
		switch {
		case errors.As(err, &list):
		case errors.As(err, &d):
			list = diag.List{d}
		default:
			return nil, err
		}
		c := &checker{seen: map[diag.Diagnostic]bool{}}
		for _, d := range list {
			if d.Hint != "" {
				d.Message += " (hint: " + d.Hint + ")"
			}
			c.add(diag.Diagnostic{Pos: d.Pos, Severity: d.Severity, Kind: KindBuild, Message: d.Message})
		}
		return c.report(), nil
	}
	root := opts.Build.Source
	if root == "" {
		root = "."
	}
	c := &checker{site: dev.Checked(), out: res.Out, root: root, pages: map[string]*page{}, sources: map[string][]string{}, seen: map[diag.Diagnostic]bool{}, feedsDone: map[string]bool{}}
	c.run(ctx, opts.External)
	return c.report(), nil
}

type checker struct {
	site    *build.Checked
	out     map[string][]byte
	root    string
	pages   map[string]*page // by output path
	sources map[string][]string
	// templates are the site's template files, sorted (nil until read).
	templates []string
	diags     diag.List
	seen      map[diag.Diagnostic]bool
	// feedsDone are the feed files checked; feedCount how many.
	feedsDone map[string]bool
	feedCount int
}

func (c *checker) add(f diag.Diagnostic) {
	if !c.seen[f] {
		c.seen[f] = true
		c.diags = append(c.diags, f)
	}
}

// entries are the pages as the site serves them, "/" included.
func (c *checker) entries() []*route.Entry {
	es := append([]*route.Entry{}, c.site.Plan.Entries...)
	if r, ok := c.site.Plan.ByURL("/"); ok {
		es = append(es, r)
	}
	return es
}

func outPath(url string) string { return strings.TrimPrefix(url, "/") + "index.html" }

func (c *checker) page(rel string) *page {
	if p, ok := c.pages[rel]; ok {
		return p
	}
	b, ok := c.out[rel]
	if !ok {
		return nil
	}
	p := parsePage(b)
	c.pages[rel] = p
	return p
}

// at finds where a page's source says s (a link target, an image path): the
// first line holding it, else the page's id.
// at is where the text s of e's HTML was written: its line in the page's
// source, else in a template (the page's layout first, then base.html, then
// the others by name), else the page's id: line.
func (c *checker) at(e *route.Entry, s string) (string, int, int) {
	if s != "" {
		files := append([]string{e.Page.File}, c.templateFiles(e.Page.Layout)...)
		for _, file := range files {
			for i, l := range c.lines(file) {
				if j := strings.Index(l, s); j >= 0 {
					return file, i + 1, len([]rune(l[:j])) + 1
				}
			}
		}
	}
	return e.Page.File, e.Page.Pos.Line, e.Page.Pos.Col
}

// lines are the lines of the site's file (slash-separated, relative to the
// site root), read once.
func (c *checker) lines(file string) []string {
	lines, ok := c.sources[file]
	if ok {
		return lines
	}
	if f, err := os.Open(filepath.Join(c.root, filepath.FromSlash(file))); err == nil {
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 64*1024), 4<<20)
		for sc.Scan() {
			lines = append(lines, sc.Text())
		}
		f.Close()
	}
	c.sources[file] = lines
	return lines
}

// templateFiles are the site's template files in the order at searches
// them for a page of the given layout.
func (c *checker) templateFiles(layout string) []string {
	if c.templates == nil {
		c.templates = []string{}
		_ = filepath.WalkDir(filepath.Join(c.root, "templates"), func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.HasSuffix(p, ".html") {
				rel, _ := filepath.Rel(c.root, p)
				c.templates = append(c.templates, filepath.ToSlash(rel))
			}
			return nil
		})
		sort.Strings(c.templates)
	}
	if layout == "" {
		layout = "page"
	}
	first := []string{"templates/layouts/" + layout + ".html", "templates/base.html"}
	files := slices.Clone(first)
	for _, f := range c.templates {
		if !slices.Contains(first, f) {
			files = append(files, f)
		}
	}
	return files
}

// pageDiag reports a finding on e at the text near. Found in a template, it
// is reported once for every page the template wrote it on, naming the first.
func (c *checker) pageDiag(e *route.Entry, near string, sev diag.Severity, kind, format string, args ...any) {
	file, line, col := c.at(e, near)
	d := diag.Diagnostic{Pos: diag.Pos{File: file, Line: line, Col: col}, Severity: sev, Kind: kind, Message: fmt.Sprintf(format, args...), Page: e.URL}
	if strings.HasPrefix(file, "templates/") {
		key := d
		key.Page = ""
		if c.seen[key] {
			return
		}
		c.seen[key] = true
	}
	c.add(d)
}

func (c *checker) run(ctx context.Context, ext *External) {
	cfg := c.site.Config
	titles := map[string]map[string]*route.Entry{} // lang -> title -> first page
	external := map[string][]*route.Entry{}
	inSitemap := c.sitemapURLs()
	for _, e := range c.entries() {
		p := c.page(outPath(e.URL))
		if p == nil {
			continue
		}
		if !e.Root {
			c.checkHead(e, p, titles)
		}
		if p.noindex && inSitemap[cfg.BaseURL+sitepath.URL(e.URL)] {
			c.add(diag.Diagnostic{Pos: diag.Pos{File: e.Page.File, Line: e.Page.Pos.Line, Col: e.Page.Pos.Col}, Kind: KindSitemap,
				Page: e.URL, Message: fmt.Sprintf("%s is in the sitemap, but its HTML asks search engines not to index it (robots noindex); "+
					"give the page noindex: true under params in its front matter, so the sitemap leaves it out, or drop the robots meta", e.URL)})
		}
		for _, src := range p.imgsNoAlt {
			c.pageDiag(e, src, diag.Error, KindAlt, "image %s has no alt text (use alt=\"\" for a decorative image)", src)
		}
		for _, href := range p.links {
			switch {
			case strings.HasPrefix(href, "http://"), strings.HasPrefix(href, "https://"):
				if !strings.HasPrefix(href, cfg.BaseURL+"/") && href != cfg.BaseURL {
					external[href] = append(external[href], e)
					continue
				}
				c.checkInternal(e, p, strings.TrimPrefix(href, cfg.BaseURL), href)
			case strings.Contains(href, ":") && !strings.HasPrefix(href, "/"):
				// mailto:, tel: and the like
			default:
				c.checkInternal(e, p, href, href)
			}
		}
		c.checkFeeds(e, p)
		c.checkHreflang(e, p)
		c.checkHeadLinks(e, p)
		c.checkBudgets(e, p)
	}
	c.checkRedirects()
	c.checkMissing()
	c.checkMetadata()
	c.checkNotFoundPages()
	if ext != nil {
		urls := make([]string, 0, len(external))
		for u := range external {
			urls = append(urls, u)
		}
		sort.Strings(urls)
		for _, r := range ext.Check(ctx, urls) {
			if r.Err == "" {
				continue
			}
			for _, e := range external[r.URL] {
				c.pageDiag(e, r.URL, diag.Error, KindExternal, "external link %s: %s", r.URL, r.Err)
			}
		}
	}
}

// checkMetadata warns of the photos published as they are (assets/static)
// that carry a GPS position or a person's name.
func (c *checker) checkMetadata() {
	for _, m := range build.StaticMetadata(c.site.Statics, func(p string) []byte { return c.out[strings.TrimPrefix(p, "/")] }) {
		c.add(diag.Diagnostic{Pos: diag.Pos{File: m.File}, Severity: diag.Warning, Kind: KindMetadata, Message: m.Message()})
	}
}

func (c *checker) checkHead(e *route.Entry, p *page, titles map[string]map[string]*route.Entry) {
	title := strings.TrimSpace(p.title)
	if title == "" {
		c.pageDiag(e, "", diag.Error, KindTitle, "page %s has no title", e.URL)
	}
	if p.description == nil || strings.TrimSpace(*p.description) == "" {
		c.pageDiag(e, "", diag.Error, KindDescription, "page %s has no meta description", e.URL)
	}
	if title == "" || e.Fallback || e.Pager != nil && e.Pager.Number > 1 {
		return // a fallback copy has its original's title by design, a list's page 2… its page 1's
	}
	if titles[e.Lang] == nil {
		titles[e.Lang] = map[string]*route.Entry{}
	}
	if first, dup := titles[e.Lang][title]; dup {
		c.pageDiag(e, "", diag.Warning, KindDupTitle, "title %q is also the title of %s (%s)", title, first.URL, first.Page.File)
		return
	}
	titles[e.Lang][title] = e
}

// resolve turns an href on the page at base into an output path and a
// fragment; ok is false when nothing is served there.
func (c *checker) resolve(base, href string) (target, frag string, ok bool) {
	href, frag, _ = strings.Cut(href, "#")
	// A browser matches the fragment percent-decoded: #%D1%96 finds id="і".
	if f, err := url.PathUnescape(frag); err == nil {
		frag = f
	}
	href, _, _ = strings.Cut(href, "?")
	if href == "" {
		return outPath(base), frag, true
	}
	// The output holds files under their decoded (UTF-8) names: a server
	// decodes /ja/%E3%83%96/ before it looks.
	if h, err := url.PathUnescape(href); err == nil {
		href = h
	}
	if !strings.HasPrefix(href, "/") {
		href = path.Join(base, href)
		if strings.HasSuffix(href, "/") || path.Ext(href) == "" {
			href += "/"
		}
	}
	clean := path.Clean(href)
	rel := strings.TrimPrefix(clean, "/")
	if _, ok := c.out[rel]; ok && rel != "" {
		return rel, frag, true
	}
	idx := strings.TrimPrefix(strings.TrimSuffix(clean, "/")+"/index.html", "/")
	if _, ok := c.out[idx]; ok {
		return idx, frag, true
	}
	return "", frag, false
}

func (c *checker) checkInternal(e *route.Entry, p *page, href, written string) {
	if strings.HasPrefix(href, "//") {
		return
	}
	target, frag, ok := c.resolve(e.URL, href)
	if !ok {
		c.pageDiag(e, written, diag.Error, KindLink, "link to %s: no page, redirect or file there", href)
		return
	}
	if frag == "" || frag == "top" {
		return
	}
	// Follow a redirect page to the page it sends to.
	if to, ok := c.redirectTarget(target); ok {
		if t, _, ok := c.resolve("/", to); ok {
			target = t
		}
	}
	tp := c.page(target)
	if tp == nil || !strings.HasSuffix(target, ".html") {
		return
	}
	if !tp.ids[frag] {
		c.pageDiag(e, "#"+frag, diag.Error, KindAnchor, "link to %s: no element with id %q on %s", href, frag, "/"+strings.TrimSuffix(target, "index.html"))
	}
}

// checkFeeds: every feed a page links is written, and passes the feed
// rules (output.CheckFeed); each feed file is checked once.
func (c *checker) checkFeeds(e *route.Entry, p *page) {
	base := c.site.Config.BaseURL
	for _, href := range p.feeds {
		target, _, ok := c.resolve("/", strings.TrimPrefix(href, base))
		if !ok {
			c.pageDiag(e, href, diag.Error, KindFeed, "feed %s: no file there", href)
			continue
		}
		if c.feedsDone[target] {
			continue
		}
		c.feedsDone[target] = true
		c.feedCount++
		for _, err := range output.CheckFeed(c.out[target]) {
			c.pageDiag(e, href, diag.Error, KindFeed, "feed %s: %v", href, err)
		}
	}
}

// redirectTarget returns where a redirect page sends to.
func (c *checker) redirectTarget(rel string) (string, bool) {
	from := "/" + strings.TrimSuffix(rel, "index.html")
	for _, r := range c.site.Plan.Redirects {
		if r.From == from {
			return r.To, true
		}
	}
	return "", false
}

// checkRedirects: every redirect of the route plan (the aliases and legacy
// paths, whatever form the host's rules give them) leads to something
// served.
func (c *checker) checkRedirects() {
	for _, r := range c.site.Plan.Redirects {
		if strings.Contains(r.To, "://") {
			continue
		}
		if _, _, ok := c.resolve("/", r.To); ok {
			continue
		}
		c.add(diag.Diagnostic{Pos: r.Pos, Severity: diag.Error, Kind: KindAlias,
			Message: fmt.Sprintf("redirect %s leads to %s, where nothing is served", r.From, r.To)})
	}
}

// sitemapURLs are the <loc>s of sitemap.xml and its parts.
func (c *checker) sitemapURLs() map[string]bool {
	urls := map[string]bool{}
	for name, b := range c.out {
		if name != sitepath.Sitemap && !sitepath.IsSitemapPart(name) {
			continue
		}
		for _, m := range locRE.FindAllSubmatch(b, -1) {
			urls[html.UnescapeString(string(m[1]))] = true
		}
	}
	return urls
}

var locRE = regexp.MustCompile(`<loc>([^<]*)</loc>`)

// checkHreflang: if page A names B as its version in a language, B names A.
func (c *checker) checkHreflang(e *route.Entry, p *page) {
	base := c.site.Config.BaseURL
	self := p.alternates[e.Lang]
	if self == "" {
		return // a fallback copy lists no alternates of its own language
	}
	for lang, href := range p.alternates {
		if lang == "x-default" || lang == e.Lang {
			continue
		}
		target, _, ok := c.resolve("/", strings.TrimPrefix(href, base))
		if !ok {
			c.pageDiag(e, href, diag.Error, KindHreflang, "hreflang %s alternate %s: no page there", lang, href)
			continue
		}
		tp := c.page(target)
		if tp == nil {
			continue
		}
		if back := tp.alternates[e.Lang]; back != self {
			got := "none"
			if back != "" {
				got = back
			}
			c.pageDiag(e, href, diag.Error, KindHreflang, "hreflang pair not reciprocal: %s names %s as its %s version, which names %s as its %s version", self, href, lang, got, e.Lang)
		}
	}
}

func gzipLen(b []byte) int {
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	zw.Write(b)
	zw.Close()
	return buf.Len()
}

func (c *checker) checkBudgets(e *route.Entry, p *page) {
	b := c.site.Config.Budgets
	sum := func(urls []string) int {
		n, seen := 0, map[string]bool{}
		for _, u := range urls {
			if seen[u] || !strings.HasPrefix(u, "/") || strings.HasPrefix(u, "//") {
				continue
			}
			seen[u] = true
			n += gzipLen(c.out[strings.TrimPrefix(u, "/")])
		}
		return n
	}
	over := func(what string, n, budget int) {
		if budget > 0 && n > budget {
			c.pageDiag(e, "", diag.Error, KindBudget, "page %s loads %d bytes of %s (gzip), over the budget of %d set in site.yaml", e.URL, n, what, budget)
		}
	}
	if b.HTML > 0 {
		over("HTML", gzipLen(c.out[outPath(e.URL)]), b.HTML)
	}
	if b.CSS > 0 {
		over("CSS", sum(p.styles), b.CSS)
	}
	if b.JS > 0 {
		over("JavaScript", sum(p.scripts), b.JS)
	}
}

// checkMissing reports what a locale lacks and takes from the default one.
func (c *checker) checkMissing() {
	plan := c.site.Plan
	def := plan.Default.Code
	for _, f := range plan.Fallbacks {
		pos := diag.Pos{File: f.From}
		if e, ok := plan.Lookup(def, f.ID); ok {
			pos = e.Page.Pos
		}
		c.add(diag.Diagnostic{Pos: pos, Severity: diag.Warning, Kind: KindMissingPage,
			Message: fmt.Sprintf("page %q has no %s version; %s shows the %s one", f.ID, f.Lang, f.Lang, def)})
	}
	for _, m := range c.site.StringMisses {
		file := "content/" + m.Lang + "/i18n.yaml"
		if m.Found {
			c.add(diag.Diagnostic{Pos: diag.Pos{File: file}, Severity: diag.Warning, Kind: KindMissingStr,
				Message: fmt.Sprintf("UI string %q is missing in %s; pages show the %s one", m.Key, m.Lang, def)})
		} else {
			c.add(diag.Diagnostic{Pos: diag.Pos{File: "content/" + def + "/i18n.yaml"}, Severity: diag.Warning, Kind: KindMissingStr,
				Message: fmt.Sprintf("UI string %q is in no locale; pages show the key or the template's default", m.Key)})
		}
	}
	for _, d := range c.site.DataFallbacks {
		c.add(diag.Diagnostic{Pos: diag.Pos{File: "content/" + d[0] + "/data"}, Severity: diag.Warning, Kind: KindMissingData,
			Message: fmt.Sprintf("data set %q is missing in %s; pages show the %s one", d[1], d[0], def)})
	}
}

func (c *checker) report() *Report {
	slices.SortStableFunc(c.diags, diag.ComparePos)
	r := &Report{Diagnostics: c.diags, Feeds: c.feedCount}
	if c.site != nil {
		r.Pages = len(c.site.Plan.Entries)
	}
	for _, d := range r.Diagnostics {
		switch d.Severity {
		case diag.Error:
			r.Errors++
		case diag.Warning:
			r.Warnings++
		}
	}
	return r
}
