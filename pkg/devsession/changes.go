package devsession

import (
	"context"
	"io/fs"
	"maps"
	"slices"
	"strings"

	"sitegen/pkg/assets"
	"sitegen/pkg/build"
	"sitegen/pkg/config"
	"sitegen/pkg/content"
	"sitegen/pkg/islands"
	"sitegen/pkg/render"
	"sitegen/pkg/schema"
)

// changes are the pending source changes, by kind.
type changes struct {
	images    []string                       // site paths of source images edited in place
	templates []string                       // template files
	statics   []string                       // site paths under assets/static
	islands   bool                           // assets/islands changed
	assets    bool                           // the bundled assets changed
	reparse   []*content.SourceFile          // content files to parse again
	before    map[string]*content.SourceFile // content files as they were
}

// sortPending sorts the pending changes by kind; full says they need the
// site loaded again (site.yaml, schema.yaml, or a photo added or removed).
func (d *Session) sortPending() (ch changes, full bool) {
	full = d.good == nil || d.pending[config.FileName] || d.pending[schema.FileName]
	ch.before = map[string]*content.SourceFile{}
	under := func(p, dir string) bool { return p == dir || strings.HasPrefix(p, dir+"/") }
	for p := range d.pending {
		switch {
		case full:
			return ch, true
		case under(p, build.ImageDir):
			site := strings.TrimPrefix(p, build.ImageDir)
			if st, err := fs.Stat(d.fsys, p); err == nil && st.Mode().IsRegular() && d.good.site.HasImage(site) {
				ch.images = append(ch.images, site)
			} else {
				full = true // a photo added or removed: read them all again
			}
		case under(p, content.Dir):
			ch.reparse = append(ch.reparse, d.refreshContent(p, ch.before)...)
		case under(p, render.TemplatesDir):
			ch.templates = append(ch.templates, p)
		case under(p, islands.Dir):
			ch.islands = true
		case under(p, build.StaticDir):
			ch.statics = append(ch.statics, strings.TrimPrefix(p, build.StaticDir))
		case under(p, assets.Dir):
			ch.assets = true
		default:
			// Another file the site read (Sources: an icon of a folder
			// site.yaml names, a file of an island's npm package):
			// everything is loaded again.
			full = true
		}
	}
	return ch, full
}

// forgetImages: the pages showing an edited photo render again with its new
// variants.
func (d *Session) forgetImages(edited []string, changed map[string]bool) {
	for _, p := range edited {
		changed[render.DepImage(p)] = true
		sources, _ := d.good.site.Images.Forget(p)
		for _, s := range sources {
			changed[render.DepImage(s)] = true
		}
	}
}

// rebundleAssets bundles assets/ again, with the asset URLs the pages link
// (a new map when they change); scripts says a bundle other than a
// stylesheet is part of it.
func (d *Session) rebundleAssets(changed map[string]bool) (_ *assets.Result, urls map[string]string, scripts bool, _ error) {
	good := d.good.site
	b, err := good.BundleAssets()
	if err != nil {
		return nil, nil, false, err
	}
	urls = maps.Clone(d.urls)
	for name, u := range b.URLs {
		if _, ok := urls[name]; !ok {
			changed[render.DepAsset(name)] = true // a new entry: pages asking for it render again
			urls[name] = u
		}
		if !strings.HasSuffix(name, ".css") {
			scripts = true
		}
	}
	for name := range urls {
		if _, ok := b.URLs[name]; !ok {
			// An entry gone (its file renamed or deleted): the pages
			// asking for it fail, as in a build.
			delete(urls, name)
			changed[render.DepAsset(name)] = true
		}
	}
	// Pages with a stylesheet written inline render again when its text
	// changed.
	was := good.Assets.InlineStyles()
	for name, css := range b.InlineStyles() {
		if was[name] != css {
			changed[render.DepStyle(name)] = true
		}
	}
	return b, urls, scripts, nil
}

// rebuildIslands bundles the islands again; the pages of the islands whose
// scripts changed render again.
func (d *Session) rebuildIslands(ctx context.Context, changed map[string]bool) (*islands.Bundle, error) {
	old := d.good.site.Islands
	b, err := d.good.site.BundleIslands(ctx)
	if err != nil {
		return nil, err
	}
	names := map[string]bool{}
	if old != nil {
		for _, n := range old.Names() {
			names[n] = true
		}
	}
	for _, n := range b.Names() {
		names[n] = true
	}
	for n := range names {
		if old == nil || !old.Has(n) || !b.Has(n) ||
			!slices.Equal(old.ModulePreloads([]string{n}), b.ModulePreloads([]string{n})) ||
			!slices.Equal(old.Scripts([]string{n}), b.Scripts([]string{n})) {
			changed[render.DepIsland(n)] = true
		}
	}
	return b, nil
}

// refreshStatics lists assets/static again after the files at paths (site
// paths) changed.
func (d *Session) refreshStatics(paths []string, changed map[string]bool) (map[string]bool, error) {
	statics, err := d.good.site.StaticFiles()
	if err != nil {
		return nil, err
	}
	for _, p := range paths {
		changed[render.DepStatic(p)] = true
		changed[render.DepURL(p)] = true
	}
	return statics, nil
}

// bodiesOnly reports whether only page bodies changed (the front matter of
// every edited page is as it was): the site's routes, content and strings
// are the same, so the edited pages keep their identity and take their new
// bodies, and render again; nothing else is assembled or compared.
func (d *Session) bodiesOnly(ch changes, changed map[string]bool) bool {
	if len(ch.templates) > 0 || ch.islands || ch.assets || len(ch.statics) > 0 ||
		(len(ch.reparse) == 0 && len(ch.images) == 0) || len(ch.reparse) != len(ch.before) {
		return false
	}
	for _, f := range ch.reparse {
		if old := ch.before[f.Path]; old == nil || !sameFrontMatter(old, f) {
			return false
		}
	}
	for _, f := range ch.reparse {
		old := ch.before[f.Path]
		old.Page.TakeBody(f.Page)
		d.files[f.Path] = old
		changed[render.DepFile(f.Path)] = true
	}
	return true
}

// sameFrontMatter reports whether two parses of a page file differ at most
// in the body.
func sameFrontMatter(a, b *content.SourceFile) bool {
	if a.Kind != content.KindPage || b.Kind != content.KindPage || a.Page == nil || b.Page == nil || len(a.Errs) > 0 || len(b.Errs) > 0 {
		return false
	}
	return a.Page.SameFrontMatter(b.Page)
}

// refreshContent updates the file list for a changed path under content/
// and returns the files to parse again (reset, so they are parsed once).
func (d *Session) refreshContent(p string, before map[string]*content.SourceFile) []*content.SourceFile {
	var out []*content.SourceFile
	// Whatever was at or below p is gone unless it is found again below.
	if f, ok := d.files[p]; ok {
		before[p] = f
		delete(d.files, p)
	}
	prefix := p + "/"
	for k, f := range d.files {
		if strings.HasPrefix(k, prefix) {
			before[k] = f
			delete(d.files, k)
		}
	}
	st, err := fs.Stat(d.fsys, p)
	if err != nil {
		return nil
	}
	langs := d.good.site.ContentOptions().Langs
	add := func(fp string) {
		if f, ok := content.Classify(fp, langs); ok {
			d.files[fp] = &f
			out = append(out, &f)
		}
	}
	if !st.IsDir() {
		add(p)
		return out
	}
	fs.WalkDir(d.fsys, p, func(fp string, e fs.DirEntry, err error) error {
		if err == nil && !e.IsDir() {
			add(fp)
		}
		return nil
	})
	return out
}
