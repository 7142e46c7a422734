package build

import (
	"context"
	"reflect"
	"sort"

	"sitegen/pkg/content"
	"sitegen/pkg/diag"
	"sitegen/pkg/output"
	"sitegen/pkg/render"
	"sitegen/pkg/route"
)

// render assembles the site from the current parts and renders the pages
// affected by changed (every page when prev is nil).
func (d *Dev) render(ctx context.Context, changed map[string]bool, prev *devState) (*devState, *DevResult, error) {
	return d.renderWith(ctx, changed, prev, false)
}

// sameFrontMatter reports whether two parses of a page file differ at most
// in the body (and so in the digest of the whole file, Sum).
func sameFrontMatter(a, b *content.SourceFile) bool {
	if a.Kind != content.KindPage || b.Kind != content.KindPage || a.Page == nil || b.Page == nil || len(a.Errs) > 0 || len(b.Errs) > 0 {
		return false
	}
	x, y := *a.Page, *b.Page
	x.Body, y.Body = nil, nil
	x.Sum, y.Sum = [32]byte{}, [32]byte{}
	return reflect.DeepEqual(x, y)
}

// renderWith is render; with same, prev's site (content, routes, strings,
// renderer) is reused as it is.
func (d *Dev) renderWith(ctx context.Context, changed map[string]bool, prev *devState, same bool) (*devState, *DevResult, error) {
	if same && prev != nil {
		return d.renderSite(ctx, prev.site, prev.sigs, changed, prev)
	}
	files := make([]content.SourceFile, 0, len(d.files))
	for _, f := range d.files {
		files = append(files, *f)
	}
	// As load: every stage runs and all their errors come back together.
	var errs diag.List
	src, err := content.Assemble(d.copts, files)
	errs.AddErr(diag.Pos{File: content.Dir}, err)
	site, err := siteParts{cfg: d.cfg, src: src, statics: d.statics, hash: d.hash, assets: d.assets, islands: d.bundle, images: d.images,
		imageFiles: d.imageFiles, fsys: d.fsys, root: d.root, md: d.md, copts: d.copts}.assemble()
	errs.AddErr(diag.Pos{File: content.Dir}, err)
	site.recordDeps, site.stableURLs = true, d.assetURLs
	ropts := site.renderOptions(d.opts, d.assetURLs)
	ropts.Bodies = d.bodies
	site.html = ropts.HTML
	if site.Renderer = d.renderer; site.Renderer == nil {
		if site.Renderer, err = render.New(ropts); err != nil {
			errs.AddErr(diag.Pos{File: render.TemplatesDir}, err)
			return nil, nil, errs.Err()
		}
	} else {
		site.Renderer.Rebind(ropts)
	}
	if errs.Merge(site.validate(errs)); len(errs) > 0 {
		return nil, nil, errs.Err()
	}
	plan := site.Plan
	sigs := sigsOf(plan)
	if prev != nil {
		diffSites(prev.site, site, prev.sigs, sigs, changed)
	}
	d.bodies.drop(plan, changed)
	return d.renderSite(ctx, site, sigs, changed, prev)
}

// renderSite renders the pages of site affected by changed (every page
// when prev is nil) and lays out the output.
func (d *Dev) renderSite(ctx context.Context, site *Site, sigs map[string]pageSig, changed map[string]bool, prev *devState) (*devState, *DevResult, error) {
	plan := site.Plan
	var err error
	entries := site.entries()
	st := &devState{site: site, pages: make(map[string]*rendered, len(entries)), sigs: sigs,
		assets: d.assets, bundle: d.bundle, staticsGen: d.staticsGen}
	var todo []*route.Entry
	for _, e := range entries {
		if prev != nil {
			if p, ok := prev.pages[e.URL]; ok && !affected(p, e, changed) {
				kept := *p
				kept.entry = e
				st.pages[e.URL] = &kept
				continue
			}
		}
		todo = append(todo, e)
	}
	done, err := site.renderEntries(ctx, todo, func(*rendered) {})
	if err != nil {
		return nil, nil, err
	}
	if errs := pageErrors(done); len(errs) > 0 {
		return nil, nil, errs.Err()
	}
	for i := range done {
		st.pages[todo[i].URL] = &done[i]
	}
	res := &DevResult{Pages: len(plan.Entries)}
	for _, e := range todo {
		res.Rendered = append(res.Rendered, e.URL)
	}
	sort.Strings(res.Rendered)
	if prev == nil {
		st.out, st.fallback, err = d.assemble(ctx, st)
	} else {
		for u := range prev.pages {
			if _, ok := st.pages[u]; !ok {
				res.Removed = append(res.Removed, u)
			}
		}
		sort.Strings(res.Removed)
		res.Changed, err = d.patch(ctx, st, prev, todo, res.Removed)
	}
	if err != nil {
		return nil, nil, err
	}
	d.renderer = site.Renderer
	res.Out, res.Fallback = st.out, st.fallback
	res.RedirectTable = output.RedirectTable(site.Plan.Redirects)
	res.HeaderRules = output.HeaderRules(site.policy())
	if d.picturesPending {
		res.Images = d.images
	}
	return st, res, nil
}

// affected reports whether a page must render again.
func affected(p *rendered, e *route.Entry, changed map[string]bool) bool {
	if p.entry.Page != e.Page || p.entry.Fallback != e.Fallback {
		return true // its own file was parsed again
	}
	for k := range changed {
		if _, ok := p.deps[k]; ok {
			return true
		}
	}
	return false
}
