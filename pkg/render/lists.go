package render

import (
	"reflect"

	"sitegen/pkg/route"
)

// Paginator is one page of a paged list (route.Pager) as a layout sees it:
// .Paginator on the pages of a list page with paginate: in its front
// matter, and on term pages; nil elsewhere.
type Paginator struct {
	Pages []PageLink // the items of this page, newest first
	// Records are the records of this page when the list pages through a
	// data set (front matter paginateData), as data gives them.
	Records    []any
	Number     int // this page, from 1
	Total      int // how many pages the list has
	Size       int // items per page
	TotalItems int // items of the whole list
	// URLs of the first, previous, next and last page ("" for previous on
	// the first page and next on the last).
	First, Prev, Next, Last string
	Links                   []PagerLink // one per page, for numbered links
}

// PagerLink is one page of a paged list, for numbered links.
type PagerLink struct {
	Number  int
	URL     string
	Current bool
}

// TermLink is a term of a taxonomy: its name as written, its slug, its
// page's URL and how many pages list it.
type TermLink struct {
	Taxonomy, Name, Slug, URL string
	Count                     int
}

// TaxonomyInfo is a taxonomy in the page's locale: .Taxonomy on its term
// list and term pages.
type TaxonomyInfo struct {
	Name, Title, URL string
	Terms            []TermLink // by slug
}

func (r *Renderer) paginator(d Deps, lang string, pg *route.Pager) *Paginator {
	if pg == nil {
		return nil
	}
	d.add(DepPager(lang, pg.URLs[pg.Number-1]))
	p := &Paginator{Number: pg.Number, Total: pg.Total, Size: pg.Size, TotalItems: pg.All,
		First: pg.URLs[0], Last: pg.URLs[len(pg.URLs)-1]}
	if pg.Number > 1 {
		p.Prev = pg.URLs[pg.Number-2]
	}
	if pg.Number < pg.Total {
		p.Next = pg.URLs[pg.Number]
	}
	for i, u := range pg.URLs {
		p.Links = append(p.Links, PagerLink{Number: i + 1, URL: u, Current: i+1 == pg.Number})
	}
	p.Pages = make([]PageLink, 0, len(pg.Items))
	for _, e := range pg.Items {
		p.Pages = append(p.Pages, r.pageLink(d, e))
	}
	if pg.Data != "" {
		if set, ok := r.data(d, lang, pg.Data); ok {
			if v := reflect.ValueOf(set.Value); v.Kind() == reflect.Slice && pg.Hi <= v.Len() {
				for i := pg.Lo; i < pg.Hi; i++ {
					p.Records = append(p.Records, v.Index(i).Interface())
				}
			}
		}
	}
	return p
}

func termLink(t *route.Term) TermLink {
	return TermLink{Taxonomy: t.Taxonomy.Name, Name: t.Name, Slug: t.Slug, URL: t.URL, Count: len(t.Pages)}
}

// taxonomy is the taxonomy name in lang; ok is false when lang has no
// term of it.
func (r *Renderer) taxonomy(lang, name string) (TaxonomyInfo, bool) {
	tax, ok := r.opts.Config.Taxonomy(name)
	if !ok {
		return TaxonomyInfo{}, false
	}
	ti := TaxonomyInfo{Name: name, Title: tax.TitleIn(lang)}
	if e, ok := r.opts.Plan.Lookup(lang, route.TermListID(name)); ok {
		ti.URL = e.URL
	}
	for _, t := range r.opts.Plan.Terms(lang, name) {
		ti.Terms = append(ti.Terms, termLink(t))
	}
	return ti, true
}

// termsOf are the terms e's page lists, per taxonomy of the site (a
// taxonomy the page lists none of is left out), as links of e's locale.
func (r *Renderer) termsOf(e *route.Entry) map[string][]TermLink {
	if len(e.Page.Terms) == 0 {
		return nil
	}
	out := map[string][]TermLink{}
	for _, tax := range r.opts.Config.Taxonomies {
		for _, t := range r.opts.Plan.TermsOf(e, tax.Name) {
			out[tax.Name] = append(out[tax.Name], termLink(t))
		}
	}
	return out
}
