package devsession

import (
	"context"
	"io/fs"
	"iter"
	"maps"
	"path"
	"slices"
	"strings"

	"sitegen/pkg/build"
	"sitegen/pkg/content"
	"sitegen/pkg/images"
	"sitegen/pkg/output"
	"sitegen/pkg/render"
	"sitegen/pkg/route"
)

// state is one site of the session, the good one being served (or one a
// build refuses, whose pages render for their errors: refused.go): where
// each output path comes from (its build.Layout, and build.Site.PageAt),
// and the pages rendered since their inputs last changed. What only some requests or the next update
// need (every output path, the folders, the pages' signatures) is made
// when first needed, not with the state.
type state struct {
	site     *build.Site
	sigs     map[string]pageSig // by lang/id (pageSigs); nil: not made yet
	entries  []*route.Entry     // as a build renders them (Site.Entries)
	fallback map[string]string  // see Result.Fallback
	// wide are the site-wide files made with the layout, but the host's
	// rule files, whose names are ruleNames and whose bytes (rules) wait
	// for every page; redirects are the redirect pages, and sitemap the
	// names of the sitemap's files once made (later.go).
	wide      map[string][]byte
	ruleNames map[string]bool
	rules     map[string][]byte
	redirects map[string]route.Redirect
	sitemap   map[string]bool
	made      map[string]bool     // the site-wide files made on request since the state began (later.go)
	all       []string            // every output path, sorted (names); nil: not listed yet
	dirs      map[string]bool     // the folders of all (isDir); nil: not made yet
	pages     map[string]*pageRec // by entry URL
	hashes    map[string]int      // the inline hashes of pages, counted
	failed    int                 // pages with errors
	next      int                 // CheckNext's place in entries
}

// pageRec is what the session keeps of a page rendered: what the render
// used and what the hosting rules need, not its bytes (Session.out has
// them while they are used).
type pageRec struct {
	page     *content.Page
	fallback bool
	deps     []uint32 // depKeys ids, sorted
	styles   []string
	asked    bool        // rendered for a request (an open tab may show it)
	failed   *build.Page // its errors, when it has some
}

// newState serves a site laid out by build (LoadLive, Site.Next).
func newState(site *build.Site) *state {
	l := site.Layout()
	st := &state{site: site, entries: site.Entries(), fallback: map[string]string{}, wide: l.Wide, ruleNames: l.Rules,
		redirects: l.Redirects, made: map[string]bool{}, pages: map[string]*pageRec{}, hashes: map[string]int{}}
	for _, e := range st.entries {
		if !e.Fallback {
			continue
		}
		names, _ := site.PageNames(e)
		for _, name := range names {
			if strings.HasSuffix(name, ".html") {
				st.fallback[name] = e.Page.File
			}
		}
	}
	return st
}

// pageSigs are the signatures of the site's pages (sigsOf), which the
// next update compares.
func (st *state) pageSigs() map[string]pageSig {
	if st.sigs == nil {
		st.sigs = sigsOf(st.site.Plan())
	}
	return st.sigs
}

// names are the output paths of the site, sorted; the sitemap is made to
// name its files.
func (d *Session) names(st *state) ([]string, error) {
	if st.all != nil {
		return st.all, nil
	}
	if _, err := d.sitemap(st); err != nil {
		return nil, err
	}
	var names []string
	st.eachName(func(name string) { names = append(names, name) })
	names = slices.AppendSeq(names, maps.Keys(st.sitemap))
	slices.Sort(names)
	st.all = slices.Compact(names)
	return st.all, nil
}

// eachName calls fn with every output path but the sitemap's, in no
// order, some more than once.
func (st *state) eachName(fn func(name string)) {
	for _, e := range st.entries {
		names, _ := st.site.PageNames(e)
		for _, name := range names {
			fn(name)
		}
	}
	for _, set := range []iter.Seq[string]{maps.Keys(st.wide), maps.Keys(st.ruleNames), maps.Keys(st.redirects)} {
		for name := range set {
			fn(name)
		}
	}
	for p := range st.site.Statics {
		fn(strings.TrimPrefix(p, "/"))
	}
}

// isDir reports whether name is a folder of the output ("." is the root):
// a page's URL is one, a file of the output is not (the output is a
// tree); for any other name, the folders of every output path are made
// once. The sitemap's files have none: they are at the root
// (sitepath.Sitemap, sitepath.SitemapPart).
func (d *Session) isDir(st *state, name string) bool {
	if name == "." {
		return true
	}
	if _, ok := st.site.PageAt(path.Join(name, "index.html")); ok {
		return true
	}
	if d.isFile(st, name) {
		return false
	}
	if st.dirs == nil {
		st.dirs = map[string]bool{}
		st.eachName(func(name string) {
			for dir := path.Dir(name); dir != "." && !st.dirs[dir]; dir = path.Dir(dir) {
				st.dirs[dir] = true
			}
		})
	}
	return st.dirs[name]
}

// isFile reports whether the output has a file at name.
func (d *Session) isFile(st *state, name string) bool {
	_, wide := st.wide[name]
	_, redirect := st.redirects[name]
	_, page := st.site.PageAt(name)
	if wide || redirect || page || st.ruleNames[name] || st.site.Statics["/"+name] {
		return true
	}
	_, sitemap, _ := d.sitemapFile(st, name)
	return sitemap
}

// set records a page's render, replacing the record it had.
func (st *state) set(url string, rec *pageRec) {
	st.drop(url)
	st.pages[url] = rec
	for _, h := range rec.styles {
		st.hashes[h]++
	}
	if rec.failed != nil {
		st.failed++
	}
}

func (st *state) drop(url string) {
	old, ok := st.pages[url]
	if !ok {
		return
	}
	delete(st.pages, url)
	for _, h := range old.styles {
		if st.hashes[h]--; st.hashes[h] == 0 {
			delete(st.hashes, h)
		}
	}
	if old.failed != nil {
		st.failed--
	}
}

// next assembles the site from the parts (build.Site.Next); with same, the
// last good site (content, routes, strings, renderer) is kept as it is,
// with the new bodies of its pages, and only its site-wide files are laid
// out again.
func (d *Session) next(ctx context.Context, p build.Parts, changed map[string]bool, same bool) (*state, error) {
	prev := d.good
	if same {
		if err := prev.site.Relayout(ctx); err != nil {
			return nil, err
		}
		return newState(prev.site), nil
	}
	p.Files = make([]content.SourceFile, 0, len(d.files))
	for _, f := range d.files {
		p.Files = append(p.Files, *f)
	}
	site, err := prev.site.Next(ctx, p)
	if err != nil {
		return nil, err
	}
	st := newState(site)
	diffSites(prev.site, site, prev.pageSigs(), st.pageSigs(), changed)
	return st, nil
}

// againLimit is how many forgotten pages still in the cache (the open
// tabs) an update renders again at once, so that their tabs reload only
// when their bytes changed; beyond it they render when asked for.
const againLimit = 16

// carry takes into st the records of prev's pages an update did not
// affect, forgets the others, and renders again the few a tab may show.
func (d *Session) carry(ctx context.Context, st *state, changed map[string]bool) *Result {
	prev := d.good
	res := d.result(st)
	var again []*route.Entry
	was := map[string][]byte{} // the cached bytes of the pages rendered again
	for _, url := range slices.Sorted(maps.Keys(prev.pages)) {
		rec := prev.pages[url]
		e, ok := st.site.Plan().ByURL(url)
		if ok && rec.failed == nil && e.Page == rec.page && e.Fallback == rec.fallback && !d.deps.any(rec.deps, changed) {
			st.set(url, rec)
			continue
		}
		pe, _ := prev.site.Plan().ByURL(url)
		names, written := prev.site.PageNames(pe)
		cached := map[string][]byte{}
		for _, name := range names {
			if b, in := d.out.Get(name); in {
				cached[name] = b
				d.out.Drop(name)
			}
		}
		switch {
		case ok && len(cached) > 0 && len(again) < againLimit:
			again = append(again, e)
			maps.Copy(was, cached)
			continue
		case !ok:
			res.Removed = append(res.Removed, url)
		default:
			res.Stale = append(res.Stale, url)
		}
		for i, name := range names {
			if _, in := cached[name]; in || rec.asked && i < written {
				res.Changed = append(res.Changed, name) // an open tab may show it
			}
		}
	}
	res.Rendered, res.Changed = d.renderAgain(ctx, st, again, was, res.Changed)
	for _, e := range st.entries {
		if _, ok := prev.site.Plan().ByURL(e.URL); !ok {
			res.Added = append(res.Added, e.URL)
		}
	}
	res.Changed = append(res.Changed, changedFiles(prev.wide, st.wide)...)
	res.Changed = append(res.Changed, d.remake(prev, st)...)
	return res
}

// renderAgain renders again the pages of open tabs an update affected,
// whose cached bytes were; it adds to changed the paths whose bytes
// changed, and returns the pages' URLs. A page with errors keeps its last
// good bytes in the cache (its errors show over them: Problems).
func (d *Session) renderAgain(ctx context.Context, st *state, again []*route.Entry, was map[string][]byte, changed []string) (rendered, _ []string) {
	for _, e := range again {
		files, err := d.renderPage(ctx, st, e, true)
		rendered = append(rendered, e.URL)
		names, _ := st.site.PageNames(e)
		if err != nil {
			for _, name := range names {
				if b, in := was[name]; in {
					d.out.Put(name, b)
				}
			}
			continue
		}
		for _, name := range names {
			if b, in := was[name]; (in || files[name] != nil) && string(b) != string(files[name]) {
				changed = append(changed, name)
			}
		}
	}
	return rendered, changed
}

// staleStatics forgets the static files at or below the changed site
// paths (in the site before or after) and returns their output paths.
func (d *Session) staleStatics(changed []string, before, after map[string]bool) []string {
	var out []string
	for _, p := range changed {
		for _, set := range []map[string]bool{before, after} {
			for s := range set {
				if s == p || strings.HasPrefix(s, p+"/") {
					d.out.Drop(strings.TrimPrefix(s, "/"))
					out = append(out, strings.TrimPrefix(s, "/"))
				}
			}
		}
	}
	return out
}

func (d *Session) result(st *state) *Result {
	plan := st.site.Plan()
	res := &Result{Pages: len(plan.Entries), RedirectTable: output.RedirectTable(plan.Redirects), Fallback: st.fallback, Images: st.site.Images}
	for _, l := range st.site.Config.Locales {
		res.Prefixes = append(res.Prefixes, l.Prefix)
	}
	return res
}

// changedFiles lists, sorted, the paths whose bytes differ between two
// outputs, or that only one has.
func changedFiles(a, b map[string][]byte) []string {
	var out []string
	for name, x := range a {
		if y, ok := b[name]; !ok || string(x) != string(y) {
			out = append(out, name)
		}
	}
	for name := range b {
		if _, ok := a[name]; !ok {
			out = append(out, name)
		}
	}
	slices.Sort(out)
	return out
}

// depKeys numbers the dependency keys of renders: a page keeps its
// dependencies as a sorted list of numbers.
type depKeys map[string]uint32

func (k depKeys) ids(deps render.Deps) []uint32 {
	out := make([]uint32, 0, len(deps))
	for key := range deps {
		id, ok := k[key]
		if !ok {
			id = uint32(len(k))
			k[key] = id
		}
		out = append(out, id)
	}
	slices.Sort(out)
	return out
}

// any reports whether ids holds one of the changed keys.
func (k depKeys) any(ids []uint32, changed map[string]bool) bool {
	for key := range changed {
		if id, ok := k[key]; ok {
			if _, found := slices.BinarySearch(ids, id); found {
				return true
			}
		}
	}
	return false
}

// notExist is the error of a path the site does not have.
func notExist(name string) error { return &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist} }

// isPicture reports whether name is where picture variants go.
func isPicture(name string) bool { return strings.HasPrefix("/"+name, images.URLPrefix) }
