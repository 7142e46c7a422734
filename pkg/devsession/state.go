package devsession

import (
	"context"
	"io/fs"
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

// state is one good site being served: where each output path comes from
// (its build.Layout), and the pages rendered since their inputs last
// changed.
type state struct {
	site     *build.Site
	sigs     map[string]pageSig // by lang/id
	entries  []*route.Entry     // as a build renders them (Site.Entries)
	byName   map[string]*route.Entry
	dirs     map[string]bool
	fallback map[string]string // see Result.Fallback
	// wide are the site-wide files but the host's rule files, whose
	// names are ruleNames and whose bytes (rules) wait for every page.
	wide      map[string][]byte
	ruleNames map[string]bool
	rules     map[string][]byte
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
	st := &state{site: site, sigs: sigsOf(site.Plan()), entries: site.Entries(), byName: l.Pages, fallback: map[string]string{},
		wide: l.Wide, ruleNames: l.Rules, pages: map[string]*pageRec{}, hashes: map[string]int{}}
	for name, e := range l.Pages {
		if e.Fallback && strings.HasSuffix(name, ".html") {
			st.fallback[name] = e.Page.File
		}
	}
	st.dirs = map[string]bool{".": true}
	for _, name := range st.names() {
		for dir := path.Dir(name); dir != "." && !st.dirs[dir]; dir = path.Dir(dir) {
			st.dirs[dir] = true
		}
	}
	return st
}

// names are the output paths of the site, sorted.
func (st *state) names() []string {
	names := slices.Collect(maps.Keys(st.byName))
	names = slices.AppendSeq(names, maps.Keys(st.wide))
	names = slices.AppendSeq(names, maps.Keys(st.ruleNames))
	for p := range st.site.Statics {
		names = append(names, strings.TrimPrefix(p, "/"))
	}
	slices.Sort(names)
	return slices.Compact(names)
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
	diffSites(prev.site, site, prev.sigs, sigsOf(site.Plan()), changed)
	return newState(site), nil
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
