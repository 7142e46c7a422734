// Package route computes the route plan: every page in every locale gets a URL
// (translated slug under the locale prefix), aliases and legacy short paths
// become redirects, and links naming pages by id resolve per locale. The plan
// is data, computed before rendering; the sitemap, hreflang links, the
// language switcher, redirects and page data are projections of it.
package route

import (
	"fmt"
	"path"
	"sort"
	"strings"

	"sitegen/pkg/config"
	"sitegen/pkg/content"
	"sitegen/pkg/diag"
	"sitegen/pkg/sitepath"
	"sitegen/pkg/yamlx"
)

// Entry is one page at one URL.
type Entry struct {
	ID   string
	Lang string // the locale the URL belongs to
	Page *content.Page
	// URL is the site path with a trailing slash: "/pl/o-nas/kontakt/", "/".
	URL string
	// PageData is the page-data name: "index" for "/", else the path without
	// leading and trailing slash.
	PageData string
	// Fallback is true when the page is shown from the default locale because
	// this locale lacks it.
	Fallback bool
	// Home is true for a locale's home page: the page with the empty slug,
	// at the locale's prefix. Root is true for "/", the default locale's
	// home shown at the site root.
	Home, Root bool
	// Error is true for the site's error pages (site.yaml errorPages),
	// NotFound for the one served for unknown paths.
	Error, NotFound bool
	// Generated is true for the pages the plan makes (lists.go): the
	// pages 2… of a paged list, a taxonomy's term list and term pages.
	Generated bool
	// Pager is set on every page of a paged list (page 1 is the list's
	// own entry) and on term pages; nil elsewhere.
	Pager *Pager
	// Taxonomy is set on a taxonomy's term list and term pages, Term on
	// a term's pages.
	Taxonomy *config.Taxonomy
	Term     *Term
}

// NoIndex reports whether the page stays out of the sitemap and search
// engines: the error pages, and pages with params.noindex.
func (e *Entry) NoIndex() bool {
	if e.Error {
		return true
	}
	v, _ := e.Page.Params["noindex"].(bool)
	return v
}

// Redirect sends one path to a page.
type Redirect struct {
	From string // "/solutions/support/"
	To   string // "/en/solutions/support/"
	Pos  diag.Pos
}

// Fallback records a page a locale lacks and takes from the default locale.
type Fallback struct {
	Lang, ID, From string
}

// Plan is the route plan of a site.
type Plan struct {
	Locales   []config.Locale
	Default   config.Locale
	Entries   []*Entry   // sorted by URL
	Redirects []Redirect // sorted by From
	Fallbacks []Fallback // sorted

	byID     map[string]map[string]*Entry // lang -> id -> entry
	byURL    map[string]*Entry
	redir    map[string]Redirect
	legacy   map[string]string // legacy path -> page id
	statics  map[string]bool
	prefixes []string

	terms      map[termKey][]*Term // (lang, taxonomy) -> terms by slug
	termBySlug map[termKey]*Term
}

// Build computes the plan. statics lists the site paths of static files (for
// checking links to files); it may be nil.
func Build(cfg *config.Config, src *content.Source, statics map[string]bool) (*Plan, error) {
	var errs diag.List
	def := cfg.DefaultLocale()
	p := &Plan{
		Locales: cfg.Locales, Default: def,
		byID:  map[string]map[string]*Entry{},
		byURL: map[string]*Entry{}, redir: map[string]Redirect{},
		legacy: cfg.LegacyPaths, statics: statics,
	}
	for _, l := range cfg.Locales {
		p.prefixes = append(p.prefixes, l.Prefix)
	}
	add := func(e *Entry) { p.add(cfg, &errs, e) }
	defPages := map[string]*content.Page{}
	if loc := src.Locales[def.Code]; loc != nil {
		for _, pg := range loc.Pages {
			defPages[pg.ID] = pg
		}
	}
	for _, l := range cfg.Locales {
		have := map[string]bool{}
		if loc := src.Locales[l.Code]; loc != nil {
			for _, pg := range loc.Pages {
				have[pg.ID] = true
				add(newEntry(l, pg, false))
			}
		}
		if l.Code == def.Code {
			continue
		}
		ids := make([]string, 0, len(defPages))
		for id := range defPages {
			if !have[id] {
				ids = append(ids, id)
			}
		}
		sort.Strings(ids)
		for _, id := range ids {
			add(newEntry(l, defPages[id], true))
			p.Fallbacks = append(p.Fallbacks, Fallback{Lang: l.Code, ID: id, From: defPages[id].File})
		}
	}
	p.planLists(cfg, src, &errs, add)
	if home, ok := p.Home(def.Code); ok {
		add(&Entry{ID: home.ID, Lang: def.Code, Page: home.Page, URL: "/", PageData: "index", Home: true, Root: true, Pager: home.Pager})
	}

	// Aliases, from pages in the locale they were written in.
	for _, e := range p.Entries {
		if e.Fallback || e.Generated {
			continue
		}
		for _, a := range e.Page.Aliases {
			p.addRedirect(&errs, Redirect{From: dirURL(a.Path), To: e.URL, Pos: a.Pos})
		}
	}
	p.addLegacy(&errs, cfg)
	p.checkNamed(cfg, &errs)
	sort.Slice(p.Entries, func(i, j int) bool { return p.Entries[i].URL < p.Entries[j].URL })
	sort.Slice(p.Redirects, func(i, j int) bool { return p.Redirects[i].From < p.Redirects[j].From })
	return p, errs.Err()
}

// add enters e into the plan, or reports why it cannot be at its URL.
func (p *Plan) add(cfg *config.Config, errs *diag.List, e *Entry) {
	e.Error, e.NotFound = cfg.ErrorPages.Is(e.ID), e.ID == cfg.ErrorPages.NotFound
	if prev, ok := p.byURL[e.URL]; ok {
		if e.Fallback {
			return // the conflict is reported where the original pages are
		}
		if e.Pager != nil && e.Pager.Number > 1 {
			errs.Add(diag.New(prev.Page.SlugPos, "page %q is at %s, where page %d of the paged list %q goes", prev.ID, e.URL, e.Pager.Number, e.Page.ID).
				WithHint("a paged list writes its pages 2… at <its URL>/2/…: give the page another slug").WithRelated(e.Page.Pos, "the list is"))
			return
		}
		errs.Add(diag.New(e.Page.Pos, "page %q and page %q are both at %s", e.ID, prev.ID, e.URL).
			WithHint("give one of them another slug").WithRelated(prev.Page.Pos, "the other page is at"))
		return
	}
	p.byURL[e.URL] = e
	if e.Root {
		return
	}
	if g := sitepath.Reserved(e.URL, p.prefixes); g != "" && !e.Fallback {
		errs.Add(diag.New(e.Page.SlugPos, "page %q would be published at %s, over the generated %s", e.ID, e.URL, g).
			WithHint("choose another slug"))
	}
	if f := strings.TrimSuffix(e.URL, "/"); p.statics[f] && !e.Fallback {
		errs.Add(diag.New(e.Page.SlugPos, "page %q would be published at %s, over the static file assets/static%s", e.ID, e.URL, f).
			WithHint("choose another slug"))
	}
	if p.byID[e.Lang] == nil {
		p.byID[e.Lang] = map[string]*Entry{}
	}
	p.byID[e.Lang][e.ID] = e
	p.Entries = append(p.Entries, e)
}

// checkNamed reports the pages site.yaml names (the offline page, the
// feeds' lists) that the default locale does not have.
func (p *Plan) checkNamed(cfg *config.Config, errs *diag.List) {
	def := cfg.DefaultLocale()
	if id := cfg.ServiceWorker.Offline; id != "" {
		if _, ok := p.byID[def.Code][id]; !ok {
			errs.Add(diag.New(cfg.ServiceWorker.OfflinePos, "serviceWorker.offlinePage names page id %q, which does not exist", id).
				WithHint("add the page to content/%s/, or leave offlinePage out when the site has no offline page", def.Code))
		}
	}
	for _, f := range cfg.Feeds {
		if f.List == "" {
			continue // terms: checked with the config
		}
		if _, ok := p.byID[def.Code][f.List]; !ok {
			errs.Add(diag.New(f.Pos, "feed list %q names no page of the default locale %s", f.List, def.Code).
				WithHint("list: is the id of the page whose pages below it the feed lists, like blog"))
		}
	}
}

// addLegacy adds site.yaml's legacy short paths: each redirects to the
// default locale's page of its id.
func (p *Plan) addLegacy(errs *diag.List, cfg *config.Config) {
	keys := make([]string, 0, len(cfg.LegacyPaths))
	for k := range cfg.LegacyPaths {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		id := cfg.LegacyPaths[k]
		e, ok := p.byID[p.Default.Code][id]
		if !ok {
			errs.Add(diag.New(cfg.LegacyPos[k], "legacy path %s names page id %q, which does not exist", k, id))
			continue
		}
		p.addRedirect(errs, Redirect{From: dirURL(k), To: e.URL, Pos: cfg.LegacyPos[k]})
	}
}

func (p *Plan) addRedirect(errs *diag.List, r Redirect) {
	if g := sitepath.Reserved(r.From, p.prefixes); g != "" {
		errs.Add(diag.New(r.Pos, "alias %s would be published over the generated %s", strings.TrimSuffix(r.From, "/"), g).
			WithHint("sitemap.xml (and its parts sitemap-N.xml), robots.txt, the error pages, _headers, _redirects, page-data/ and the asset folders are written by the build"))
		return
	}
	if f := strings.TrimSuffix(r.From, "/"); p.statics[f] {
		errs.Add(diag.New(r.Pos, "alias %s is the path of the static file assets/static%s", f, f).
			WithHint("an alias must not shadow a file"))
		return
	}
	if e, ok := p.byURL[r.From]; ok {
		errs.Add(diag.New(r.Pos, "alias %s is the path of page %q", strings.TrimSuffix(r.From, "/"), e.ID).
			WithHint("an alias must not shadow a page").WithRelated(e.Page.Pos, "the page is at"))
		return
	}
	if prev, ok := p.redir[r.From]; ok {
		if prev.To != r.To {
			errs.Add(diag.New(r.Pos, "alias %s already redirects to %s", strings.TrimSuffix(r.From, "/"), prev.To).WithRelated(prev.Pos, "declared at"))
		}
		return
	}
	p.redir[r.From] = r
	p.Redirects = append(p.Redirects, r)
}

func newEntry(l config.Locale, pg *content.Page, fallback bool) *Entry {
	url := l.Prefix + "/"
	if pg.Path() != "" {
		url += pg.Path() + "/"
	}
	return &Entry{ID: pg.ID, Lang: l.Code, Page: pg, URL: url, PageData: strings.Trim(url, "/"), Fallback: fallback, Home: pg.Path() == ""}
}

// dirURL normalizes a site path to the directory form with a trailing slash.
func dirURL(p string) string {
	p = path.Clean(p)
	if p == "/" {
		return p
	}
	return p + "/"
}

// Lookup returns the entry of page id in lang.
func (p *Plan) Lookup(lang, id string) (*Entry, bool) {
	e, ok := p.byID[lang][id]
	return e, ok
}

// Home returns lang's home page: the page at the locale's prefix (the one
// with the empty slug), whatever its id.
func (p *Plan) Home(lang string) (*Entry, bool) {
	for _, l := range p.Locales {
		if l.Code == lang {
			e, ok := p.byURL[l.Prefix+"/"]
			return e, ok
		}
	}
	return nil, false
}

// ByURL returns the entry at a site path.
func (p *Plan) ByURL(url string) (*Entry, bool) {
	e, ok := p.byURL[url]
	return e, ok
}

// Variants returns the page id's entry in every locale that has it, in the
// order of the config.
func (p *Plan) Variants(id string) []*Entry {
	var out []*Entry
	for _, l := range p.Locales {
		if e, ok := p.byID[l.Code][id]; ok {
			out = append(out, e)
		}
	}
	return out
}

// Resolve turns a link target written in lang's content into a URL:
//   - "ref:<id>[#anchor]": the page's URL in lang;
//   - a legacy short path of site.yaml ("/contact"): that page in lang;
//   - "#anchor": as is;
//   - an absolute site path: it must be a page, a redirect or a static file;
//   - "https:", "http:", "mailto:", "tel:" URLs: as is.
func (p *Plan) Resolve(lang, target string) (string, error) {
	switch {
	case target == "":
		return "", fmt.Errorf("empty link")
	case strings.HasPrefix(target, "#"):
		return target, nil
	case strings.HasPrefix(target, "ref:"):
		id, frag := cutFragment(strings.TrimPrefix(target, "ref:"))
		e, ok := p.byID[lang][id]
		if !ok {
			return "", diag.Diagnostic{Message: fmt.Sprintf("link to unknown page id %q", id), Hint: p.suggest(lang, id)}
		}
		return e.URL + frag, nil
	case strings.HasPrefix(target, "//"):
		return "", fmt.Errorf("protocol-relative link %q: write https://", target)
	case strings.HasPrefix(target, "/"):
		pth, frag := cutFragment(target)
		pth, query, _ := strings.Cut(pth, "?")
		if query != "" {
			query = "?" + query
		}
		if id, ok := p.legacy[pth]; ok {
			if e, ok := p.byID[lang][id]; ok {
				return e.URL + query + frag, nil
			}
		}
		if p.statics[pth] {
			return pth + query + frag, nil
		}
		u := dirURL(pth)
		if _, ok := p.byURL[u]; ok {
			return u + query + frag, nil
		}
		if _, ok := p.redir[u]; ok {
			return u + query + frag, nil
		}
		return "", fmt.Errorf("no page, redirect or file at %s", pth)
	}
	scheme, _, ok := strings.Cut(target, ":")
	if ok {
		switch strings.ToLower(scheme) {
		case "https", "http", "mailto", "tel":
			return target, nil
		}
	}
	return "", diag.Diagnostic{Message: fmt.Sprintf("relative link %q", target), Hint: "use ref:<page-id>, an absolute path or a full URL"}
}

// suggest is the hint for an unknown page id: the locale that has it, or
// the nearest id of lang's pages (a typo: "fed" for "feed").
func (p *Plan) suggest(lang, id string) string {
	for _, e := range p.Variants(id) {
		return fmt.Sprintf("page %q exists only in %s", id, e.Lang)
	}
	ids := make([]string, 0, len(p.byID[lang]))
	for known := range p.byID[lang] {
		ids = append(ids, known)
	}
	sort.Strings(ids) // the same hint every run when two ids are as near
	// A short id is near every other short id: at most one edit in three.
	if c := yamlx.Closest(id, ids); c != "" && yamlx.Distance(id, c) <= max(1, len(id)/3) {
		return fmt.Sprintf("did you mean %q?", c)
	}
	return "page ids are the id: fields of the Markdown files"
}

func cutFragment(s string) (string, string) {
	if i := strings.IndexByte(s, '#'); i >= 0 {
		return s[:i], s[i:]
	}
	return s, ""
}

// belowInSource reports whether the fallback entry e lies below parent's
// page in the locale e is shown from.
func (p *Plan) belowInSource(e, parent *Entry) bool {
	if !e.Fallback {
		return false
	}
	orig, ok := p.byID[e.Page.Lang][e.ID]
	list, ok2 := p.byID[e.Page.Lang][parent.ID]
	return ok && ok2 && orig != list && strings.HasPrefix(orig.URL, list.URL)
}

// Below lists the entries of parent's locale that lie below it (the pages
// a list page lists), newest first (by page date, then URL). A page is
// below the list when its URL is below the list's in this locale, or, for
// a page shown from the default locale (a fallback, which keeps the
// default locale's slug), when it is below the list there: so a list finds
// the same pages in every locale, whatever its slug in each ("blog",
// "ブログ").
func (p *Plan) Below(parent *Entry) []*Entry {
	var out []*Entry
	for _, e := range p.Entries {
		if e.Lang != parent.Lang || e == parent || e.Root || e.Generated || e.ID == parent.ID {
			continue
		}
		if !strings.HasPrefix(e.URL, parent.URL) && !p.belowInSource(e, parent) {
			continue
		}
		out = append(out, e)
	}
	sortNewest(out)
	return out
}
