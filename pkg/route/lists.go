package route

import (
	"fmt"
	"reflect"
	"sort"
	"strconv"
	"strings"

	"sitegen/pkg/config"
	"sitegen/pkg/content"
	"sitegen/pkg/diag"
)

// Lists the plan makes pages for: a page with paginate: in its front
// matter lists the pages below it that many to a page, at its own URL and
// then at <its URL>/2/, /3/…; a taxonomy of site.yaml gets, in every
// locale that has terms of it, a term list at <prefix>/<its slug>/ and a
// page per term at <term list>/<term slug>/, paged the same way. The number
// of pages follows the items: a list that shrinks loses its last pages.

// Pager is one page of a paged list.
type Pager struct {
	Number, Total int      // this page (from 1), and how many pages the list has
	Size          int      // items per page
	Items         []*Entry // the pages on this page (a list of pages)
	// Data names the data set a list of records pages through (front
	// matter paginateData); its records Lo to Hi (exclusive) are on this
	// page.
	Data   string
	Lo, Hi int
	All    int      // items of the whole list
	URLs   []string // page k's URL is URLs[k-1]; URLs[0] is the list's own
}

// Term is one term of a taxonomy in one locale.
type Term struct {
	Taxonomy *config.Taxonomy
	Name     string // as the first page listing it writes it
	Slug     string
	URL      string
	Pos      diag.Pos // where a page first lists it
	Pages    []*Entry // newest first, as Below orders them
}

// TermListID is the page id of a taxonomy's term list; TermID that of a
// term's page. Neither can be the id of a content page (ids have no ':'),
// and ref: resolves both: ref "taxonomy:tags".
func TermListID(taxonomy string) string   { return "taxonomy:" + taxonomy }
func TermID(taxonomy, slug string) string { return "taxonomy:" + taxonomy + "/" + slug }

// pagedID is the page id of page n (from 2) of the list id.
func pagedID(id string, n int) string { return id + "@" + strconv.Itoa(n) }

// Items are the entries a list entry lists: a term page's pages, or the
// pages below a page.
func (p *Plan) Items(list *Entry) []*Entry {
	if list.Term != nil {
		return list.Term.Pages
	}
	return p.Below(list)
}

// Terms lists a taxonomy's terms in lang, by slug.
func (p *Plan) Terms(lang, taxonomy string) []*Term {
	return p.terms[termKey{lang: lang, taxonomy: taxonomy}]
}

// TermsOf lists the terms e's page lists under taxonomy, as terms of e's
// locale, in the page's order.
func (p *Plan) TermsOf(e *Entry, taxonomy string) []*Term {
	var out []*Term
	for _, t := range e.Page.Terms.Of(taxonomy) {
		slug, _ := content.Slugify(t.Name)
		if term, ok := p.termBySlug[termKey{e.Lang, taxonomy, slug}]; ok {
			out = append(out, term)
		}
	}
	return out
}

type termKey struct{ lang, taxonomy, slug string }

// planLists adds the term pages and the pages 2… of every paged list
// (see above) with add, after the content's entries.
func (p *Plan) planLists(cfg *config.Config, src *content.Source, errs *diag.List, add func(*Entry)) {
	p.terms, p.termBySlug = map[termKey][]*Term{}, map[termKey]*Term{}
	work := len(cfg.Taxonomies) > 0
	for _, e := range p.Entries {
		work = work || e.Page.Paginate > 0 || len(e.Page.Terms) > 0 // terms: to check their taxonomies
	}
	if !work {
		return // nothing to plan: no copy or sort of a large site's entries
	}
	content := append([]*Entry(nil), p.Entries...)
	sort.SliceStable(content, func(i, j int) bool {
		if content[i].Fallback != content[j].Fallback {
			return !content[i].Fallback // a locale's own pages name its terms first
		}
		return content[i].URL < content[j].URL
	})
	// Paged lists of content pages come first: their items are content.
	for _, e := range content {
		switch {
		case e.Page.Paginate <= 0:
		case e.Page.PaginateData != "":
			n, err := dataLen(src, e.Lang, p.Default.Code, e.Page.PaginateData)
			if err != nil {
				if !e.Fallback {
					errs.Add(diag.New(e.Page.PaginatePos, "paginateData %q %v", e.Page.PaginateData, err).
						WithHint("data sets are <file>.<key> from content/<locale>/data/<file>.yaml, of a type with items:"))
				}
				continue
			}
			p.page(e, nil, n, e.Page.PaginateData, e.Page.Paginate, add)
		default:
			items := p.Below(e)
			p.page(e, items, len(items), "", e.Page.Paginate, add)
		}
	}
	p.planTerms(cfg, content, errs, add)
}

func (p *Plan) planTerms(cfg *config.Config, entries []*Entry, errs *diag.List, add func(*Entry)) {
	before := len(*errs)
	for i := range cfg.Taxonomies {
		t := &cfg.Taxonomies[i]
		for _, l := range cfg.Locales {
			if why := content.SlugProblem(t.SlugIn(l.Code)); why != "" {
				pos, ok := t.SlugPos[l.Code]
				if !ok {
					pos = t.Pos
				}
				errs.Add(diag.New(pos, "taxonomies: %s: slug %q in %s %s", t.Name, t.SlugIn(l.Code), l.Code, why).WithHint(content.SlugRule))
			}
		}
	}
	if len(*errs) > before {
		return
	}
	p.collectTerms(cfg, entries, errs)
	p.addTermPages(cfg, add)
}

// collectTerms gathers each locale's terms from its entries' front matter
// (a locale's own pages first, so they name the terms), each with the
// pages that list it.
func (p *Plan) collectTerms(cfg *config.Config, entries []*Entry, errs *diag.List) {
	for _, e := range entries {
		for _, tt := range e.Page.Terms {
			tax, ok := cfg.Taxonomy(tt.Taxonomy)
			if !ok {
				if !e.Fallback {
					errs.Add(diag.New(tt.Pos, "terms: %q is not a taxonomy of site.yaml", tt.Taxonomy).WithHint("%s", taxonomyHint(cfg, tt.Taxonomy)))
				}
				continue
			}
			for _, term := range tt.Terms {
				slug, ok := content.Slugify(term.Name)
				if !ok {
					if !e.Fallback {
						errs.Add(diag.New(term.Pos, "terms: %s: %q has no letter or digit to make its slug of", tax.Name, term.Name).
							WithHint(content.SlugRule))
					}
					continue
				}
				k := termKey{e.Lang, tax.Name, slug}
				have, ok := p.termBySlug[k]
				if !ok {
					have = &Term{Taxonomy: tax, Name: term.Name, Slug: slug, Pos: term.Pos}
					p.termBySlug[k] = have
					lk := termKey{lang: e.Lang, taxonomy: tax.Name}
					p.terms[lk] = append(p.terms[lk], have)
				} else if !strings.EqualFold(have.Name, term.Name) && !e.Fallback { // "Go" and "go" are one term
					errs.Add(diag.New(term.Pos, "terms: %s: %q and %q are two terms with the same slug %q", tax.Name, term.Name, have.Name, slug).
						WithHint("write the term the same way on every page, or make the two differ in letters or digits").
						WithRelated(have.Pos, "the other is listed at"))
					continue
				}
				if len(have.Pages) == 0 || have.Pages[len(have.Pages)-1] != e {
					have.Pages = append(have.Pages, e)
				}
			}
		}
	}
}

// addTermPages adds, per locale and taxonomy with terms, the term list and
// each term's pages, paged by the taxonomy's paginate.
func (p *Plan) addTermPages(cfg *config.Config, add func(*Entry)) {
	for _, l := range cfg.Locales {
		for i := range cfg.Taxonomies {
			tax := &cfg.Taxonomies[i]
			terms := p.terms[termKey{lang: l.Code, taxonomy: tax.Name}]
			if len(terms) == 0 {
				continue
			}
			sort.Slice(terms, func(i, j int) bool { return terms[i].Slug < terms[j].Slug })
			listURL := l.Prefix + "/" + tax.SlugIn(l.Code) + "/"
			slugPos, ok := tax.SlugPos[l.Code]
			if !ok {
				slugPos = tax.Pos
			}
			list := p.generated(l.Code, TermListID(tax.Name), listURL, tax.TitleIn(l.Code), config.TermsLayout, tax.Pos, slugPos, slugPos)
			list.Taxonomy = tax
			add(list)
			for _, term := range terms {
				term.URL = listURL + term.Slug + "/"
				sortNewest(term.Pages)
				e := p.generated(l.Code, TermID(tax.Name, term.Slug), term.URL, term.Name, config.TermLayout, tax.Pos, term.Pos, term.Pos)
				e.Taxonomy, e.Term = tax, term
				add(e)
				p.page(e, term.Pages, len(term.Pages), "", tax.Paginate, add)
			}
		}
	}
}

func taxonomyHint(cfg *config.Config, name string) string {
	names := cfg.TaxonomyNames()
	if len(names) == 0 {
		return "declare it in site.yaml: taxonomies: [{name: " + name + "}]"
	}
	return "site.yaml declares " + strings.Join(names, ", ")
}

// generated is the entry of a page the plan makes (a term list, a term):
// a page of layout, written in lang, whose layout is declared at
// layoutPos (the taxonomy in site.yaml), that comes from pos (where the
// term is first listed, or the taxonomy) and whose slug from slugPos.
func (p *Plan) generated(lang, id, url, title, layout string, layoutPos, pos, slugPos diag.Pos) *Entry {
	slug := strings.Trim(strings.TrimPrefix(url, p.prefix(lang)), "/")
	pg := &content.Page{ID: id, Slug: &slug, Title: title, Description: title, Layout: layout, Lang: lang,
		File: pos.File, Pos: pos, SlugPos: slugPos, LayoutPos: layoutPos, Body: []byte{}}
	return &Entry{ID: id, Lang: lang, Page: pg, URL: url, PageData: strings.Trim(url, "/"), Generated: true}
}

func (p *Plan) prefix(lang string) string {
	for _, l := range p.Locales {
		if l.Code == lang {
			return l.Prefix
		}
	}
	return ""
}

// page makes list a paged list of n items, size to a page (0: all on
// one): the pages items, or the records of the data set data. list is page
// 1, and pages 2… are added with add at <list URL>/2/….
func (p *Plan) page(list *Entry, items []*Entry, n int, data string, size int, add func(*Entry)) {
	if size <= 0 {
		size = max(1, n)
	}
	total := max(1, (n+size-1)/size)
	urls := make([]string, total)
	urls[0] = list.URL
	for n := 2; n <= total; n++ {
		urls[n-1] = list.URL + strconv.Itoa(n) + "/"
	}
	at := func(k int) *Pager {
		lo, hi := (k-1)*size, min(k*size, n)
		pg := &Pager{Number: k, Total: total, Size: size, Data: data, Lo: lo, Hi: hi, All: n, URLs: urls}
		if items != nil {
			pg.Items = items[lo:hi]
		}
		return pg
	}
	list.Pager = at(1)
	for k := 2; k <= total; k++ {
		e := *list
		e.ID, e.URL, e.PageData = pagedID(list.ID, k), urls[k-1], strings.Trim(urls[k-1], "/")
		e.Home, e.Root, e.Generated, e.Pager = false, false, true, at(k)
		add(&e)
	}
}

// sortNewest orders entries newest first (by page date, then URL), as
// Below does.
func sortNewest(out []*Entry) {
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Page.Date != out[j].Page.Date {
			return out[i].Page.Date > out[j].Page.Date
		}
		return out[i].URL < out[j].URL
	})
}

// String names a pager for diagnostics and cache salts: its page and items.
func (pg *Pager) String() string {
	ids := make([]string, len(pg.Items))
	for i, e := range pg.Items {
		ids[i] = e.ID
	}
	return fmt.Sprintf("%d/%d %v %q[%d:%d]", pg.Number, pg.Total, ids, pg.Data, pg.Lo, pg.Hi)
}

// dataLen is how many records the data set name has in lang (or, when
// lang lacks it, in the default locale, as templates read it).
func dataLen(src *content.Source, lang, def, name string) (int, error) {
	var set *content.DataSet
	for _, l := range []string{lang, def} {
		if loc := src.Locales[l]; loc != nil && set == nil {
			set = loc.Data[name]
		}
	}
	if set == nil {
		return 0, fmt.Errorf("names no data set")
	}
	v := reflect.ValueOf(set.Value)
	if v.Kind() != reflect.Slice {
		return 0, fmt.Errorf("is one record (item:), not a list of records (items:)")
	}
	return v.Len(), nil
}
