package build

import (
	"context"
	"errors"
	"io/fs"
	"maps"
	"slices"

	"sitegen/pkg/diag"
	"sitegen/pkg/output"
	"sitegen/pkg/route"
)

// File returns the bytes a build writes at name (a slash path below the
// output root), rendering the page that writes it when the cache does not
// have them. A page with errors gives its errors (a diag.List); a path the
// site does not have, an fs.ErrNotExist. Picture variants are encoded on
// demand (from the image cache when there).
func (d *Dev) File(ctx context.Context, name string) ([]byte, error) {
	d.mu.Lock()
	if isPicture(name) && d.good != nil && d.good.wide[name] == nil {
		p := d.images
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
	if e, ok := st.byName[name]; ok {
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
		b, err := fs.ReadFile(d.fsys, StaticDir+"/"+name)
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
	return nil, notExist(name)
}

// IsDir reports whether name is a folder of the output ("." is the root).
func (d *Dev) IsDir(name string) bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.good != nil && d.good.dirs[name]
}

// Names lists the output paths of the site, sorted; a page's island
// manifest and a home page's slices are listed though only its render
// says whether it has them (File). Picture variants are not listed.
func (d *Dev) Names() []string {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.good == nil {
		return nil
	}
	return d.good.names()
}

// renderPage renders a page, records it in st and, asked for a request,
// keeps its files in the cache. It returns the page's files, and its
// errors.
func (d *Dev) renderPage(ctx context.Context, st *devState, e *route.Entry, asked bool) (map[string][]byte, error) {
	s := st.site
	r := s.renderEntry(ctx, e)
	if err := ctx.Err(); err != nil {
		return nil, err // stopped: nothing learnt
	}
	s.checkForm(&r)
	files := map[string][]byte{}
	if r.err == nil {
		r.sliceErrs = s.pageFiles(&r, func(name string, b []byte) { files[name] = b })
	}
	rec := &pageRec{page: e.Page, fallback: e.Fallback, deps: d.deps.ids(r.deps), styles: r.styles, asked: asked}
	if old := st.pages[e.URL]; old != nil && old.asked {
		rec.asked = true
	}
	errs := pageErrors([]rendered{r})
	if len(errs) > 0 {
		kept := rendered{entry: e, err: r.err, formDiags: r.formDiags, sliceErrs: r.sliceErrs}
		rec.failed = &kept
	}
	st.set(e.URL, rec)
	if len(errs) > 0 {
		return nil, errs.Err()
	}
	if asked {
		for _, name := range slices.Sorted(maps.Keys(files)) {
			d.out.Put(name, files[name])
		}
	}
	return files, nil
}

// CheckNext renders the next page never rendered since its inputs changed,
// for its errors only (its bytes are not kept), and reports whether it
// rendered one and whether the site's errors changed (Problems).
func (d *Dev) CheckNext(ctx context.Context) (rendered, errorsChanged bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	st := d.good
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

// Problems are the errors of the pages rendered since their inputs last
// changed, as a build reports them.
func (d *Dev) Problems() diag.List {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.good == nil {
		return nil
	}
	return d.good.problems()
}

func (st *devState) problems() diag.List {
	if st.failed == 0 {
		return nil
	}
	var failed []rendered
	for _, e := range st.entries {
		if rec := st.pages[e.URL]; rec != nil && rec.failed != nil {
			failed = append(failed, *rec.failed)
		}
	}
	return pageErrors(failed)
}

// HeaderRules are the headers the host sets (output.HeaderRules), with
// the inline hashes of the pages rendered so far in the CSP.
func (d *Dev) HeaderRules() []output.HeaderRule {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.good == nil {
		return nil
	}
	return output.HeaderRules(withInline(sitePolicy(d.good.site.Config), slices.Collect(maps.Keys(d.good.hashes))))
}

// makeRules makes the host's rule files, once every page has rendered
// (their CSP holds the inline hashes of all of them).
func (d *Dev) makeRules(ctx context.Context, st *devState) error {
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
	st.site.inlineHashes = slices.Collect(maps.Keys(st.hashes))
	rules := map[string][]byte{}
	if err := st.site.hostRules(func(name string, b []byte) { rules[name] = b }); err != nil {
		return err
	}
	st.rules = rules
	return nil
}

// IsNotExist reports whether err says a path does not exist.
func IsNotExist(err error) bool { return errors.Is(err, fs.ErrNotExist) }
