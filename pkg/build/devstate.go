package build

import (
	"context"
	"io/fs"
	"maps"
	"path"
	"slices"
	"strings"

	"sitegen/pkg/assets"
	"sitegen/pkg/content"
	"sitegen/pkg/diag"
	"sitegen/pkg/images"
	"sitegen/pkg/islands"
	"sitegen/pkg/output"
	"sitegen/pkg/render"
	"sitegen/pkg/route"
	"sitegen/pkg/sitepath"
)

// devState is one good site being served: where each output path comes
// from, the site-wide files, and the pages rendered since their inputs
// last changed.
type devState struct {
	site     *Site
	sigs     map[string]pageSig // by lang/id
	entries  []*route.Entry     // as a build renders them (Site.entries)
	byName   map[string]*route.Entry
	dirs     map[string]bool
	fallback map[string]string // see DevResult.Fallback
	// wide are the site-wide files but the host's rule files, whose
	// names are ruleNames and whose bytes (rules) wait for every page.
	wide      map[string][]byte
	ruleNames map[string]bool
	rules     map[string][]byte
	pages     map[string]*pageRec // by entry URL
	hashes    map[string]int      // the inline hashes of pages, counted
	failed    int                 // pages with errors
	next      int                 // CheckNext's place in entries
	// What the bundles came from.
	assets *assets.Result
	bundle *islands.Bundle
}

// pageRec is what the dev server keeps of a page rendered: what the render
// used and what the hosting rules need, not its bytes (Dev.out has them
// while they are used).
type pageRec struct {
	page     *content.Page
	fallback bool
	deps     []uint32 // depKeys ids, sorted
	styles   []string
	asked    bool      // rendered for a request (an open tab may show it)
	failed   *rendered // its errors, when it has some
}

// newState lays out a site for serving: the output paths of its pages,
// its site-wide files, and the errors a build reports before rendering
// (a static file colliding with a generated one, a redirect no host rule
// can hold).
func (d *Dev) newState(ctx context.Context, site *Site, prev *devState) (*devState, error) {
	st := &devState{site: site, sigs: sigsOf(site.plan), entries: site.entries(), byName: map[string]*route.Entry{},
		fallback: map[string]string{}, wide: map[string][]byte{}, ruleNames: map[string]bool{}, pages: map[string]*pageRec{},
		hashes: map[string]int{}, assets: d.assets, bundle: d.bundle}
	for _, e := range st.entries {
		for _, name := range site.pageNames(e) {
			st.byName[name] = e
			if e.Fallback && strings.HasSuffix(name, ".html") {
				st.fallback[name] = e.Page.File
			}
		}
	}
	sw, ok := []byte(nil), false
	if prev != nil && prev.assets == d.assets && maps.Equal(site.offlinePages(), prev.site.offlinePages()) {
		sw, ok = prev.wide[sitepath.Worker]
	}
	if !ok {
		var err error
		if sw, err = site.worker(); err != nil {
			return nil, err
		}
	}
	if err := site.siteFiles(ctx, siteWide{worker: sw, dev: true}, func(name string, b []byte) { st.wide[name] = b }); err != nil {
		return nil, err
	}
	if err := site.hostRules(func(name string, _ []byte) { st.ruleNames[name] = true }); err != nil {
		return nil, err
	}
	taken := func(rel string) bool { return st.byName[rel] != nil || st.wide[rel] != nil || st.ruleNames[rel] }
	if err := site.copyStatics(taken, func(string) ([]byte, error) { return nil, nil }, func(string, []byte) {}); err != nil {
		return nil, err
	}
	st.dirs = map[string]bool{".": true}
	for _, name := range st.names() {
		for dir := path.Dir(name); dir != "." && !st.dirs[dir]; dir = path.Dir(dir) {
			st.dirs[dir] = true
		}
	}
	return st, nil
}

// pageNames are the output paths a page's render may write (pageFiles):
// its island manifest and a home page's slices only when its render
// makes them.
func (s *Site) pageNames(e *route.Entry) []string {
	names := append(s.entryFiles(e), output.RSCPath(e))
	if e.Home && !e.Root {
		for _, slice := range output.SlicesMap(e.Lang) {
			names = append(names, output.SliceDataPath(slice))
		}
	}
	return names
}

// names are the output paths of the site, sorted.
func (st *devState) names() []string {
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
func (st *devState) set(url string, rec *pageRec) {
	st.drop(url)
	st.pages[url] = rec
	for _, h := range rec.styles {
		st.hashes[h]++
	}
	if rec.failed != nil {
		st.failed++
	}
}

func (st *devState) drop(url string) {
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

// next assembles the site from the current parts; with same, the last good
// site (content, routes, strings, renderer) is kept as it is, with the new
// bodies of its pages. Every stage runs and all their errors come back
// together, as in load.
func (d *Dev) next(ctx context.Context, changed map[string]bool, same bool) (*devState, error) {
	prev := d.good
	if same {
		return d.newState(ctx, prev.site, prev)
	}
	files := make([]content.SourceFile, 0, len(d.files))
	for _, f := range d.files {
		files = append(files, *f)
	}
	var errs diag.List
	src, err := content.Assemble(d.copts, files)
	errs.AddErr(diag.Pos{File: content.Dir}, err)
	site, err := siteParts{cfg: d.cfg, src: src, statics: d.statics, hash: d.hash, assets: d.assets, islands: d.bundle, images: d.images,
		imageFiles: d.imageFiles, fsys: &recFS{fsys: d.fsys, rec: d.rec}, root: d.root, md: d.md, copts: d.copts}.assemble()
	errs.AddErr(diag.Pos{File: content.Dir}, err)
	site.recordDeps, site.stableURLs = true, d.assetURLs
	ropts := site.renderOptions(d.opts, d.assetURLs)
	site.html = ropts.HTML
	if site.renderer = d.renderer; site.renderer == nil {
		if site.renderer, err = render.New(ropts); err != nil {
			errs.AddErr(diag.Pos{File: render.TemplatesDir}, err)
			return nil, errs.Err()
		}
	} else {
		site.renderer.Rebind(ropts)
	}
	if errs.Merge(site.validate(errs)); len(errs) > 0 {
		return nil, errs.Err()
	}
	diffSites(prev.site, site, prev.sigs, sigsOf(site.plan), changed)
	st, err := d.newState(ctx, site, prev)
	if err == nil {
		d.renderer = site.renderer
	}
	return st, err
}

// sameFrontMatter reports whether two parses of a page file differ at most
// in the body.
func sameFrontMatter(a, b *content.SourceFile) bool {
	if a.Kind != content.KindPage || b.Kind != content.KindPage || a.Page == nil || b.Page == nil || len(a.Errs) > 0 || len(b.Errs) > 0 {
		return false
	}
	return a.Page.SameFrontMatter(b.Page)
}

// againLimit is how many forgotten pages still in the cache (the open
// tabs) an update renders again at once, so that their tabs reload only
// when their bytes changed; beyond it they render when asked for.
const againLimit = 16

// carry takes into st the records of prev's pages an update did not
// affect, forgets the others, and renders again the few a tab may show.
func (d *Dev) carry(ctx context.Context, st *devState, changed map[string]bool) *DevResult {
	prev := d.good
	res := d.result(st)
	var again []*route.Entry
	was := map[string][]byte{} // the cached bytes of the pages rendered again
	for _, url := range slices.Sorted(maps.Keys(prev.pages)) {
		rec := prev.pages[url]
		e, ok := st.site.plan.ByURL(url)
		if ok && rec.failed == nil && e.Page == rec.page && e.Fallback == rec.fallback && !d.deps.any(rec.deps, changed) {
			st.set(url, rec)
			continue
		}
		pe, _ := prev.site.plan.ByURL(url)
		names := prev.site.pageNames(pe)
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
		for _, name := range names {
			if _, in := cached[name]; in || rec.asked && slices.Contains(prev.site.entryFiles(pe), name) {
				res.Changed = append(res.Changed, name) // an open tab may show it
			}
		}
	}
	for _, e := range again {
		files, err := d.renderPage(ctx, st, e, true)
		res.Rendered = append(res.Rendered, e.URL)
		if err != nil { // its errors show over the last good page (Problems)
			for _, name := range st.site.pageNames(e) {
				if b, in := was[name]; in {
					d.out.Put(name, b)
				}
			}
			continue
		}
		for _, name := range st.site.pageNames(e) {
			if b, in := was[name]; (in || files[name] != nil) && string(b) != string(files[name]) {
				res.Changed = append(res.Changed, name)
			}
		}
	}
	for _, e := range st.entries {
		if _, ok := prev.site.plan.ByURL(e.URL); !ok {
			res.Added = append(res.Added, e.URL)
		}
	}
	res.Changed = append(res.Changed, changedFiles(prev.wide, st.wide)...)
	return res
}

// staleStatics forgets the static files at or below the changed site
// paths and returns their output paths.
func (d *Dev) staleStatics(changed []string, before map[string]bool) []string {
	var out []string
	for _, p := range changed {
		for _, set := range []map[string]bool{before, d.statics} {
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

func (d *Dev) result(st *devState) *DevResult {
	res := &DevResult{Pages: len(st.site.plan.Entries), RedirectTable: output.RedirectTable(st.site.plan.Redirects),
		Fallback: st.fallback, Images: d.images}
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
