package devsession

import (
	"context"
	"errors"
	"io/fs"
	"maps"
	"slices"

	"sitegen/pkg/build"
	"sitegen/pkg/diag"
	"sitegen/pkg/output"
	"sitegen/pkg/route"
)

// File returns the bytes a build writes at name (a slash path below the
// output root), rendering the page that writes it when the cache does not
// have them. A page with errors gives its errors (a diag.List); a path the
// site does not have, an fs.ErrNotExist. Picture variants are encoded on
// demand (from the image cache when there).
func (d *Session) File(ctx context.Context, name string) ([]byte, error) {
	d.mu.Lock()
	if isPicture(name) && d.good != nil && d.good.wide[name] == nil {
		p := d.good.site.Images
		d.mu.Unlock() // an encoding takes seconds: other requests go on
		if p != nil {
			if b, ok, err := p.Variant(ctx, "/"+name); ok {
				return b, err
			}
		}
		return nil, notExist(name)
	}
	defer d.mu.Unlock()
	st := d.good
	if st == nil {
		return nil, notExist(name)
	}
	if b, ok := st.wide[name]; ok {
		return b, nil
	}
	if b, ok := d.out.Get(name); ok {
		return b, nil
	}
	if e, ok := st.site.PageAt(name); ok {
		files, err := d.renderPage(ctx, st, e, true)
		if err != nil {
			return nil, err
		}
		if b, ok := files[name]; ok {
			return b, nil
		}
		return nil, notExist(name)
	}
	if st.site.Statics["/"+name] {
		b, err := fs.ReadFile(d.fsys, build.StaticDir+"/"+name)
		if err == nil {
			d.out.Put(name, b)
		}
		return b, err
	}
	if st.ruleNames[name] {
		if err := d.makeRules(ctx, st); err != nil {
			return nil, err
		}
		return st.rules[name], nil
	}
	if b, ok, err := d.later(st, name); ok {
		return b, err
	}
	return nil, notExist(name)
}

// IsDir reports whether name is a folder of the output ("." is the root).
func (d *Session) IsDir(name string) bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.good != nil && d.isDir(d.good, name)
}

// Names lists the output paths of the site, sorted; a page's island
// manifest and a home page's slices are listed though only its render
// says whether it has them (File). Picture variants are not listed.
func (d *Session) Names() []string {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.good == nil {
		return nil
	}
	names, _ := d.names(d.good) // the sitemap's error is File's
	return slices.Clone(names)
}

// SiteWide lists the site-wide files made with the site's layout
// (build.Layout.Wide: the bundles, the form schemas, robots.txt...),
// sorted.
func (d *Session) SiteWide() []string {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.good == nil {
		return nil
	}
	return slices.Sorted(maps.Keys(d.good.wide))
}

// renderPage renders a page (build.Site.RenderPage), records it in st and,
// asked for a request, keeps its files in the cache. It returns the page's
// files, and its errors.
func (d *Session) renderPage(ctx context.Context, st *state, e *route.Entry, asked bool) (map[string][]byte, error) {
	p := st.site.RenderPage(ctx, e)
	if err := ctx.Err(); err != nil {
		return nil, err // stopped: nothing learnt
	}
	rec := &pageRec{page: e.Page, fallback: e.Fallback, deps: d.deps.ids(p.Deps), styles: p.Styles, asked: asked}
	if old := st.pages[e.URL]; old != nil && old.asked {
		rec.asked = true
	}
	if p.Failed() {
		rec.failed = p
	}
	st.set(e.URL, rec)
	if p.Failed() {
		return nil, p.Err()
	}
	if asked {
		for _, name := range slices.Sorted(maps.Keys(p.Files)) {
			d.out.Put(name, p.Files[name])
		}
	}
	return p.Files, nil
}

// CheckNext renders the next page never rendered since its inputs changed,
// for its errors only (its bytes are not kept), and reports whether it
// rendered one and whether the site's errors changed (Problems).
func (d *Session) CheckNext(ctx context.Context) (rendered, errorsChanged bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	st := d.current()
	if st == nil {
		return false, false
	}
	for st.next < len(st.entries) {
		e := st.entries[st.next]
		st.next++
		if _, ok := st.pages[e.URL]; ok {
			continue
		}
		before := st.failed
		_, err := d.renderPage(ctx, st, e, false)
		return ctx.Err() == nil, err != nil || st.failed != before
	}
	return false, false
}

// Problems are the errors a build of the site of the last load or update
// reports, as far as they are known: when it failed, its errors (those
// its pages have as they render, when they can: CheckNext), else those of
// the pages rendered since their inputs last changed.
func (d *Session) Problems() diag.List {
	d.mu.Lock()
	defer d.mu.Unlock()
	if st := d.current(); st != nil && d.failed == nil {
		return st.problems()
	}
	return d.failed
}

// problems are the errors a build of st's site reports, its pages' being
// those of the pages rendered (build.Site.Errors).
func (st *state) problems() diag.List {
	if st.failed == 0 && !st.site.Refused() {
		return nil
	}
	var failed []*build.Page
	for _, e := range st.entries {
		if rec := st.pages[e.URL]; rec != nil && rec.failed != nil {
			failed = append(failed, rec.failed)
		}
	}
	return st.site.Errors(failed)
}

// HeaderRules are the headers the host sets (output.HeaderRules), with
// the inline hashes of the pages rendered so far in the CSP.
func (d *Session) HeaderRules() []output.HeaderRule {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.good == nil {
		return nil
	}
	return d.good.site.HeaderRules(slices.Collect(maps.Keys(d.good.hashes)))
}

// makeRules makes the host's rule files, once every page has rendered
// (their CSP holds the inline hashes of all of them).
func (d *Session) makeRules(ctx context.Context, st *state) error {
	if st.rules != nil {
		return nil
	}
	for _, e := range st.entries {
		if _, ok := st.pages[e.URL]; !ok {
			if _, err := d.renderPage(ctx, st, e, false); err != nil && ctx.Err() != nil {
				return err
			}
		}
	}
	if st.failed > 0 {
		return st.problems().Err()
	}
	rules, err := st.site.HostRules(slices.Collect(maps.Keys(st.hashes)))
	if err != nil {
		return err
	}
	st.rules = rules
	return nil
}

// Sources are what the session's site is made of beyond the folders a site
// always has (build.Site.Sources), sorted: the dev server watches their
// folders. Pages render on demand, so the list grows: SourceFolders tells
// when it holds a new folder.
func (d *Session) Sources() []string {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.good == nil {
		return nil
	}
	return d.good.site.Sources()
}

// SourceFolders is how many folders the session's sources are in: when it
// grows, Sources holds a folder to watch that it did not before.
func (d *Session) SourceFolders() int {
	d.mu.Lock()
	good := d.good
	d.mu.Unlock()
	if good == nil {
		return 0
	}
	return good.site.SourceFolders()
}

// IsNotExist reports whether err says a path does not exist.
func IsNotExist(err error) bool { return errors.Is(err, fs.ErrNotExist) }
