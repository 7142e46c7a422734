package build

import (
	"context"
	"io/fs"
	"maps"
	"slices"
	"strings"

	"sitegen/pkg/diag"
	"sitegen/pkg/output"
	"sitegen/pkg/route"
	"sitegen/pkg/sitepath"
)

// patch makes the output of st from prev's: the pages rendered again, the
// pages gone, and the site-wide files whose inputs changed, each laid out
// as a build lays it out (pageFiles, redirectPages, rulesFiles,
// bundleFiles, pictures, copyStatics). It returns the paths whose bytes
// changed, sorted.
func (d *Dev) patch(ctx context.Context, st, prev *devState, todo []*route.Entry, removed []string, changed map[string]bool) ([]string, error) {
	s := st.site
	out := maps.Clone(prev.out)
	fallback := maps.Clone(prev.fallback)
	diff := map[string]bool{}
	set := func(name string, b []byte) {
		if o, ok := out[name]; !ok || string(o) != string(b) {
			diff[name] = true
		}
		out[name] = b
	}
	del := func(name string) {
		if _, ok := out[name]; ok {
			diff[name] = true
			delete(out, name)
		}
		delete(fallback, name)
	}
	for _, u := range removed {
		for _, name := range s.pageFileNames(prev.pages[u]) {
			del(name)
		}
	}
	var errs diag.List
	for _, e := range todo {
		if old, ok := prev.pages[e.URL]; ok {
			for _, name := range s.pageFileNames(old) {
				del(name)
			}
		}
		errs.Merge(s.pageFiles(st.pages[e.URL], func(name string, b []byte) {
			set(name, b)
			if e.Fallback && strings.HasSuffix(name, ".html") {
				fallback[name] = e.Page.File
			}
		}))
	}
	if len(errs) > 0 {
		return nil, errs.Err()
	}
	// Deleting and setting the same path again counts only if the bytes
	// differ from before.
	for name := range diff {
		if o, ok := prev.out[name]; ok {
			if b, ok := out[name]; ok && string(o) == string(b) {
				delete(diff, name)
			}
		}
	}
	if !slices.EqualFunc(prev.site.Plan.Redirects, s.Plan.Redirects, sameRedirect) {
		for _, rd := range prev.site.Plan.Redirects {
			del(redirectFile(rd))
		}
		if err := s.redirectPages(set); err != nil {
			return nil, err
		}
	}
	// The form schemas and hosting rules depend on the redirects, the
	// locales with a 404 page, the forms' data and strings and the pages'
	// inline hashes.
	s.inlineHashes = pageHashes(st.pages)
	if err := s.rulesFiles(set); err != nil {
		return nil, err
	}
	if s != prev.site || st.assets != prev.assets {
		sw, err := s.worker()
		if err != nil {
			return nil, err
		}
		if sw == nil {
			del(sitepath.Worker)
		} else {
			set(sitepath.Worker, sw)
		}
	}
	sitemap := false
	for k := range changed {
		if strings.HasPrefix(k, "route:") || strings.HasPrefix(k, "page:") {
			sitemap = true
			break
		}
	}
	if sitemap {
		sm, err := output.Sitemap(s.Plan, s.Config.BaseURL)
		if err != nil {
			return nil, err
		}
		for name := range out { // parts of a split sitemap the site no longer needs
			if sitepath.IsSitemapPart(name) && sm[name] == nil {
				del(name)
			}
		}
		for name, b := range sm {
			set(name, b)
		}
	}
	if st.assets != prev.assets || st.bundle != prev.bundle {
		old, now := bundleFiles(prev.assets, prev.bundle, d.assetURLs), bundleFiles(st.assets, st.bundle, d.assetURLs)
		for name := range old {
			if _, ok := now[name]; !ok {
				del(name)
			}
		}
		for name, b := range now {
			set(name, b)
		}
	}
	for _, name := range d.staleImages {
		del(name)
	}
	if err := s.pictures(ctx, set); err != nil {
		return nil, err
	}
	for _, name := range d.staleImages { // a photo saved as it was
		if o, ok := prev.out[name]; ok && string(o) == string(out[name]) && out[name] != nil {
			delete(diff, name)
		}
	}
	if st.staticsGen != prev.staticsGen {
		for p := range prev.site.Statics {
			if !s.Statics[p] {
				del(strings.TrimPrefix(p, "/"))
			}
		}
		taken := func(rel string) bool {
			_, ok := out[rel]
			return ok && !prev.site.Statics["/"+rel]
		}
		if err := s.copyStatics(taken, d.static, set); err != nil {
			return nil, err
		}
	}
	st.out, st.fallback = out, fallback
	return slices.Sorted(maps.Keys(diff)), nil
}

// pageHashes are the CSP hashes of the pages' inline styles and scripts.
func pageHashes(pages map[string]*rendered) []string {
	var out []string
	for _, p := range pages {
		out = append(out, p.styles...)
	}
	return out
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

func sameRedirect(a, b route.Redirect) bool { return a.From == b.From && a.To == b.To }

// static returns the bytes of a static file (site path), cached.
func (d *Dev) static(p string) ([]byte, error) {
	if b, ok := d.staticCache[p]; ok {
		return b, nil
	}
	b, err := fs.ReadFile(d.fsys, StaticDir+p)
	if err != nil {
		return nil, err
	}
	d.staticCache[p] = b
	return b, nil
}

// assemble lays out the whole output with the steps a build writes it
// with (pageFiles, siteFiles, copyStatics), into memory.
func (d *Dev) assemble(ctx context.Context, st *devState) (map[string][]byte, map[string]string, error) {
	s := st.site
	out := make(map[string][]byte, 2*len(st.pages)+len(s.Plan.Redirects)+64)
	emit := func(name string, b []byte) { out[name] = b }
	fallback := map[string]string{}
	var errs diag.List
	for _, p := range st.pages {
		errs.Merge(s.pageFiles(p, func(name string, b []byte) {
			out[name] = b
			if p.entry.Fallback && strings.HasSuffix(name, ".html") {
				fallback[name] = p.entry.Page.File
			}
		}))
	}
	if len(errs) > 0 {
		return nil, nil, errs.Err()
	}
	s.inlineHashes = pageHashes(st.pages)
	sw, err := s.worker()
	if err != nil {
		return nil, nil, err
	}
	if err := s.siteFiles(ctx, siteWide{worker: sw}, emit); err != nil {
		return nil, nil, err
	}
	taken := func(rel string) bool { _, ok := out[rel]; return ok }
	if err := s.copyStatics(taken, d.static, emit); err != nil {
		return nil, nil, err
	}
	return out, fallback, nil
}
