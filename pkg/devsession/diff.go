package devsession

import (
	"path"
	"strings"

	"sitegen/pkg/build"
	"sitegen/pkg/render"
	"sitegen/pkg/route"
)

// pageSig is what other pages may show of a page: its URL, whether it is a
// fallback, and what listings and the sitemap show.
type pageSig struct {
	url, title, desc, date, summary, image, file string
	fallback, noindex                            bool
}

func sigsOf(p *route.Plan) map[string]pageSig {
	m := make(map[string]pageSig, len(p.Entries))
	for _, e := range p.Entries {
		m[e.Lang+"/"+e.ID] = pageSig{e.URL, e.Page.Title, e.Page.Description, e.Page.Date, e.Page.Summary, e.Page.Image.Path, e.Page.File, e.Fallback, e.NoIndex()}
	}
	return m
}

// diffSites adds to changed the dependency keys whose meaning differs
// between two sites: pages (URL, title and what listings show), paths that
// appeared or went away, listings that gained or lost pages, data sets and
// UI strings.
func diffSites(a, b *build.Site, sa, sb map[string]pageSig, changed map[string]bool) {
	type sig = pageSig
	touch := func(key string, x, y sig, exists bool) {
		lang, id, _ := strings.Cut(key, "/")
		changed[render.DepPage(lang, id)] = true
		if exists && x.url == y.url && x.fallback == y.fallback {
			return // the same page at the same path: listings and links stay
		}
		s := x
		changed[render.DepRoute(lang, id)] = true
		changed[render.DepURL(s.url)] = true
		for u := path.Dir(strings.TrimSuffix(s.url, "/")); ; u = path.Dir(u) {
			changed[render.DepList(lang, strings.TrimSuffix(u, "/")+"/")] = true
			if u == "/" || u == "." {
				break
			}
		}
	}
	for k, x := range sa {
		if y, ok := sb[k]; !ok || x != y {
			touch(k, x, y, ok)
		}
	}
	for k, y := range sb {
		if x, ok := sa[k]; !ok || x != y {
			touch(k, y, x, ok)
		}
	}
	redirs := func(p *route.Plan) map[string]string {
		m := map[string]string{}
		for _, r := range p.Redirects {
			m[r.From] = r.To
		}
		return m
	}
	// A paged list whose pages hold other pages or records (a page moved
	// below it, a term given or taken away) renders again.
	pagers := func(p *route.Plan) map[string]string {
		m := map[string]string{}
		for _, e := range p.Entries {
			if e.Pager != nil {
				m[render.DepPager(e.Lang, e.URL)] = e.Pager.String()
			}
		}
		return m
	}
	pa, pb := pagers(a.Plan()), pagers(b.Plan())
	for k, s := range pa {
		if pb[k] != s {
			changed[k] = true
		}
	}
	for k, s := range pb {
		if pa[k] != s {
			changed[k] = true
		}
	}
	ra, rb := redirs(a.Plan()), redirs(b.Plan())
	for f, to := range ra {
		if rb[f] != to {
			changed[render.DepURL(f)] = true
		}
	}
	for f, to := range rb {
		if ra[f] != to {
			changed[render.DepURL(f)] = true
		}
	}
	for lang, la := range a.Source().Locales {
		lb := b.Source().Locales[lang]
		if lb == nil {
			continue
		}
		for n, s := range la.Data {
			if lb.Data[n] != s {
				changed[render.DepData(lang, n)] = true
			}
		}
		for n := range lb.Data {
			if _, ok := la.Data[n]; !ok {
				changed[render.DepData(lang, n)] = true
			}
		}
		for k, v := range la.Strings {
			if w, ok := lb.Strings[k]; !ok || w != v {
				changed[render.DepString(lang, k)] = true
			}
		}
		for k := range lb.Strings {
			if _, ok := la.Strings[k]; !ok {
				changed[render.DepString(lang, k)] = true
			}
		}
	}
}
