package build

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"

	"sitegen/pkg/diag"
	"sitegen/pkg/formschema"
	"sitegen/pkg/markdown"
	"sitegen/pkg/output"
	"sitegen/pkg/render"
	"sitegen/pkg/route"
)

// rendered is one entry rendered: its bytes and what the build reports and
// keeps of it. build and the dev server render every entry with
// renderEntry and check its form with checkForm.
type rendered struct {
	entry    *route.Entry
	html     []byte
	main     string // the <main> HTML the page data holds
	mainAt   int    // where main starts in html; -1: not a part of it (render.Result.MainAt)
	data     []byte
	rsc      []byte // the island manifest, when <main> has islands
	islands  []string
	err      error
	deps     render.Deps // what the render used (for the page cache and the dev server)
	pictures []render.PictureUse
	// mainIslands are the islands rendering recorded in <main> (the page
	// cache keeps them for the island manifest).
	mainIslands []render.MainIsland
	// formErr: the page's form does not match the handler's schema;
	// formChecked is the digest of the schema its form was found to match.
	formErr     error
	formDiags   []diag.Diagnostic // each form that disagrees, at its template line
	formChecked string
	styles      []string  // CSP hashes of the page's <style>s and inline scripts (output.InlineHashes)
	sliceErrs   diag.List // laying out the locale's header and footer slices (home pages)
	// sums, when known (a page cache), are its files' digests and sizes;
	// pageData, for a page taken from the cache, makes data and rsc, which
	// placePage asks for only when it writes them.
	sums     *pageSums
	pageData func() (data, rsc []byte, err error)
	// kept: a page from the cache whose files the spare holds, all kept
	// (pageCache.keep); it has no bytes and nothing to write.
	kept bool
	// res is the render html and main come from, whose buffer a build
	// gives back once the page is written (forget); nil for a page from
	// the cache.
	res *render.Result
}

// renderEntry renders one entry with its page data, island manifest and
// inline hashes. A panic is returned as an *InternalError naming the page.
// What the render used is recorded when a page cache or the dev server
// keeps it.
func (s *Site) renderEntry(ctx context.Context, e *route.Entry) (out rendered) {
	file := e.Page.File
	defer func() {
		if v := recover(); v != nil {
			out = rendered{entry: e, err: diag.New(diag.Pos{File: file}, "%v", &InternalError{Doing: "rendering " + e.URL, Value: v})}
		}
	}()
	if s.beforeRender != nil {
		s.beforeRender(e)
	}
	if ctx.Err() != nil {
		return rendered{entry: e, err: ctx.Err()}
	}
	var deps render.Deps
	if s.pages != nil || s.recordDeps {
		deps = make(render.Deps, pageDeps) // made once at its size, not grown
	}
	res, err := s.renderer.RenderDeps(ctx, e, deps)
	if err != nil {
		return rendered{entry: e, err: err}
	}
	data, rsc, err := s.pageData(e, res)
	return rendered{entry: e, html: res.HTML, main: res.Main, mainAt: res.MainAt, data: data, rsc: rsc, islands: res.Islands, err: err,
		deps: deps, pictures: res.Pictures, mainIslands: res.MainIslands, styles: output.InlineHashes(res.HTML), res: res}
}

// pageDeps is room for what a page's render records: about twenty keys
// for a page of the benchmark's (its links, templates, translations).
const pageDeps = 32

// pageData returns a rendered page's page data and, when its <main> has
// islands, its -rsc island manifest (nil otherwise).
func (s *Site) pageData(e *route.Entry, res *render.Result) (data, rsc []byte, err error) {
	manifest := make([]output.RSCIsland, len(res.MainIslands))
	for i, u := range res.MainIslands {
		manifest[i] = output.RSCIsland{Component: u.Name, Directive: u.Directive, Media: u.Media, Chunk: u.Chunk}
	}
	names := output.IslandNames(manifest)
	pd := output.NewPageData(s.plan, e, s.Hash, output.ParseHead(res.HTML), res.Main, names)
	data = pd.AppendJSON(s.dataBufs.Get(len(res.Main) + len(res.Main)/8 + 1024))
	if len(manifest) > 0 && s.Islands != nil {
		m := output.RSC{Path: e.URL, Modules: s.Islands.ModulePreloads(names), Islands: manifest}
		if l := s.Islands.Scripts(names); len(l) > 0 {
			m.Loader = l[0]
		}
		rsc, err = output.JSON(m)
	}
	return data, rsc, err
}

// forget drops a written page's bytes, keeping what the report needs, and
// gives its buffers back for the next pages to be rendered into (no
// output.Writer keeps the bytes it was given, nor does the cache).
func (s *Site) forget(r *rendered) {
	if r.res != nil {
		r.res.Release()
	}
	s.dataBufs.Put(r.data)
	r.html, r.data, r.rsc, r.main, r.res = nil, nil, nil, "", nil
	r.deps, r.pictures, r.mainIslands, r.pageData, r.sums = nil, nil, nil, nil, nil
}

// siteForms is the schema of every form the site declares, for the
// handler, and its digest; made once per site.
type siteForms struct {
	once   sync.Once
	set    formschema.Set
	digest string
	err    error
}

// forms returns the schemas of the site's forms.
func (s *Site) forms() (formschema.Set, string, error) {
	f := &s.formSet
	f.once.Do(func() {
		f.set, f.err = formschema.BuildAll(formschema.SiteInput{Config: s.Config, Source: s.source, Plan: s.plan, Catalog: s.Catalog,
			Markdown: markdown.New(markdown.Options{})})
		if f.err == nil {
			f.digest, f.err = f.set.Digest()
		}
	})
	return f.set, f.digest, f.err
}

// checkForm checks a rendered page's forms against their schemas (once per
// page and schemas: a page from the cache was checked when it was stored).
func (s *Site) checkForm(r *rendered) {
	set, digest, err := s.forms()
	if err != nil || r.err != nil || r.kept || (r.formChecked != "" && r.formChecked == digest) {
		return // an error of the schemas is reported where they are written
	}
	if !set.HasForm(r.html) {
		r.formChecked = digest // nothing to check against these schemas
		return
	}
	e := r.entry
	for _, fe := range set.CheckPageForms(r.html, e.Lang) {
		if r.formErr == nil {
			r.formErr = fe
		}
		// At the template line that writes the <form>, with the page.
		if at, ok := s.formTemplatePos(fe.ID, r.deps); ok {
			r.formDiags = append(r.formDiags, diag.New(at, "the form on %s: %v", e.URL, fe.Err).WithRelated(e.Page.Pos, "on the page"))
			continue
		}
		r.formDiags = append(r.formDiags, diag.New(e.Page.Pos, "the form on %s: %v", e.URL, fe.Err))
	}
	if r.formErr == nil {
		r.formChecked = digest
	}
}

// pageErrors reports the errors of rendered pages. One template error
// usually fails many pages: it is reported once, with the first page (in
// the fixed entry order) and how many more.
func pageErrors(pages []rendered) diag.List {
	var errs diag.List
	failed := map[diag.Diagnostic][]string{}
	var order []diag.Diagnostic
	for _, r := range pages {
		e := r.entry
		if r.err != nil {
			var pe render.PageError
			if errors.As(r.err, &pe) {
				if _, seen := failed[pe.Diagnostic]; !seen {
					order = append(order, pe.Diagnostic)
				}
				failed[pe.Diagnostic] = append(failed[pe.Diagnostic], pe.Page)
			} else {
				errs.AddErr(e.Page.Pos, r.err)
			}
			continue
		}
		for _, d := range r.formDiags {
			errs.Add(d)
		}
		errs.Merge(r.sliceErrs)
	}
	for _, d := range order {
		pages := slices.Compact(slices.Sorted(slices.Values(failed[d])))
		note := "rendering"
		if len(pages) > 1 {
			note = fmt.Sprintf("rendering %d pages, the first", len(pages))
		}
		errs.Add(d.WithRelated(diag.Pos{File: pages[0]}, note))
	}
	return errs
}
