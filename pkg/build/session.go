package build

import (
	"context"
	"errors"
	"maps"
	"path"
	"slices"
	"strings"
	"time"

	"sitegen/pkg/assets"
	"sitegen/pkg/content"
	"sitegen/pkg/diag"
	"sitegen/pkg/islands"
	"sitegen/pkg/output"
	"sitegen/pkg/render"
	"sitegen/pkg/route"
	"sitegen/pkg/sitefs"
	"sitegen/pkg/sitepath"
)

// A dev session (pkg/devsession, under sitegen serve) keeps one site loaded
// and renders each page when it is asked for. This file is all it needs of
// a build, and it lays out and assembles nothing itself:
//
//   - LoadLive loads the site as a build does (load);
//   - Site.Next assembles it again after an edit from the parts the
//     session parsed or bundled again (Parts), through the same steps as
//     load (siteParts.assemble, Site.ready), with the same errors;
//   - LoadLive and Next lay out the site-wide files with siteFiles and
//     copyStatics, as Site.write does (Layout; Relayout after a body edit),
//     but for the redirect pages and the sitemap (RedirectPage, Sitemap);
//   - Site.RenderPage renders one page with renderEntry and checkForm and
//     lays out its files with pageFiles, as Site.write does for each page
//     (PageNames are the paths it may write, PageAt finds the page that
//     writes one);
//   - a site a build refuses is loaded all the same when its pages can
//     render (Refused), and Errors gives the errors a build reports from
//     those of its pages rendered so far (refusal, as errorsOnly);
//   - HostRules and HeaderRules make the host's rules once the session
//     knows the inline hashes of every page;
//   - the rest reads what the session compares between two sites (Plan,
//     Source) and parses or bundles again (ContentOptions, HasImage,
//     StaticFiles, BundleAssets, BundleIslands), and what it watches
//     (Sources, SourceFolders).

// Live is a site loaded for a dev session (LoadLive).
type Live struct {
	Site *Site
	// Files are the site's content files, parsed: the session parses
	// again only those that change (Parts.Files).
	Files []content.SourceFile
	// ReadContent is how long reading and parsing them took.
	ReadContent time.Duration
}

// LoadLive loads the site of fsys for a dev session: as a build loads it
// (load), but reading every file afresh (the session's files change), with
// what each render uses recorded (Page.Deps) and the site-wide files laid
// out (Layout). A site a build refuses whose pages can render is loaded
// all the same (Refused): the errors a build reports come as its pages
// render (Errors). When none can, the error has all of them.
func LoadLive(ctx context.Context, opts Options, fsys *sitefs.FS) (*Live, error) {
	site, errs := load(ctx, opts, &liveTree{fsys: fsys})
	if site == nil {
		return nil, errs.Err()
	}
	live := &Live{Site: site, Files: site.files, ReadContent: site.readTime}
	site.files = nil
	site.opts, site.recordDeps, site.stableURLs = opts, true, site.Assets.URLs
	if errs.Errors() > 0 {
		site.loadErrs = errs
	}
	site.layOutLive(ctx, nil)
	site.rec.TrackFolders()
	return live, nil
}

// Parts are what a dev session assembles its site from again after an edit
// (Site.Next); what a load fixed for the session (site.yaml, schema.yaml,
// the build hash, the source images) stays.
type Parts struct {
	Files   []content.SourceFile // the content files, parsed (ContentOptions)
	Statics map[string]bool      // the static files (StaticFiles)
	Assets  *assets.Result       // the bundles of assets/ (BundleAssets)
	Islands *islands.Bundle      // the islands' bundle (BundleIslands); nil: none
	// AssetsErr and IslandsErr say why assets/ or assets/islands did not
	// bundle again (Assets or Islands are then the last good ones): as in
	// a load, the site has that error and no page renders.
	AssetsErr, IslandsErr error
	// URLs are the URLs the pages link for each asset entry: the session
	// keeps those of its first load, so that a stylesheet edit renders no
	// page again (bundleFiles serves the new bytes there). Not changed
	// after the call.
	URLs map[string]string
	// Templates: the templates changed and are parsed again; otherwise
	// the new site renders with s's templates.
	Templates bool
}

// Next assembles the site of p the way load does, with s's configuration,
// schema, build hash and images, and lays out its site-wide files. Every
// stage runs; a site a build refuses whose pages can render is given all
// the same (Refused), with a renderer of its own, and when none can, the
// error has every error a build of the same files reports. s stays as it
// was, ready to render.
func (s *Site) Next(ctx context.Context, p Parts) (*Site, error) {
	var errs diag.List
	src, err := content.Assemble(s.copts, p.Files)
	errs.AddErr(diag.Pos{File: content.Dir}, err)
	next, err := siteParts{cfg: s.Config, src: src, statics: p.Statics, hash: s.Hash, assets: p.Assets, islands: p.Islands, images: s.Images,
		imageFiles: s.imageFiles, fsys: s.fsys, root: s.root, md: s.md, copts: s.copts}.assemble()
	errs.AddErr(diag.Pos{File: content.Dir}, err)
	next.rec, next.opts, next.recordDeps, next.stableURLs = s.rec, s.opts, true, p.URLs
	noRender := bundling{assetsErr: p.AssetsErr, islandsErr: p.IslandsErr}.failed(&errs)
	ready := next.ready(&errs, noRender, next.bindRenderer(s, p.Templates))
	if ready != nil {
		if errs.Errors() > 0 {
			next.loadErrs = errs
		}
		next.layOutLive(ctx, s)
	}
	if next.renderer == s.renderer && (ready == nil || next.Refused()) {
		// s's renderer goes back to s: next renders nothing, or its
		// pages render for their errors while s's are served.
		s.renderer.Rebind(s.renderOptions(s.opts, s.stableURLs))
		next.renderer = nil
	}
	if ready == nil {
		return nil, errs.Err()
	}
	if next.renderer == nil {
		if err := next.bindRenderer(s, true); err != nil { // they parsed for s: no error
			return nil, err
		}
	}
	return next, nil
}

// layOutLive lays out a site for its session (layOut), keeping the error
// of its site-wide files: a build reports it when the pages have none
// (Errors). A site with errors is laid out as the build's pass that only
// looks for errors does (siteWide.check).
func (s *Site) layOutLive(ctx context.Context, prev *Site) {
	s.layout, s.layoutErr = s.layOut(ctx, prev, len(s.loadErrs) > 0)
}

// Refused reports whether a build refuses the site whatever its pages
// render: its load or its site-wide files have errors.
func (s *Site) Refused() bool { return len(s.loadErrs) > 0 || s.layoutErr != nil }

// Errors are the errors a build of the site reports, its pages' being
// those of the pages given (those rendered so far, in the order a build
// renders them; every page once all have rendered): the load's, then the
// pages' or, when they have none, its site-wide files' (a build lays them
// out after the pages), and how many pages were not rendered (refusal).
// They are none for a site a build takes.
func (s *Site) Errors(pages []*Page) diag.List {
	var rest error
	if errs := PageErrors(pages); len(errs) > 0 {
		rest = errs.Err()
	} else {
		rest = s.layoutErr
	}
	var list diag.List
	errors.As(s.refusal(s.loadErrs, rest), &list)
	return list
}

// bindRenderer gives s a renderer: prev's, with its parsed templates, bound
// to s, or with parse, one that parses the templates again.
func (s *Site) bindRenderer(prev *Site, parse bool) error {
	ropts := s.renderOptions(s.opts, s.stableURLs)
	s.html = ropts.HTML
	if !parse {
		s.renderer = prev.renderer
		s.renderer.Rebind(ropts)
		return nil
	}
	var err error
	s.renderer, err = render.New(ropts)
	return err
}

// Layout is where a dev session finds the site-wide files of a site's
// output (those besides its pages and static files), as a build writes
// them. The pages' files are found by name (PageAt, PageNames).
type Layout struct {
	// Wide are the site-wide files (siteFiles) made with the layout: all
	// but the picture variants (made on demand: images.Processor.Variant),
	// the redirect pages and the sitemap (made when asked for: Redirects,
	// Sitemap) and the host's rule files, whose names are Rules: their
	// CSP holds the inline hashes of every page (HostRules).
	Wide  map[string][]byte
	Rules map[string]bool
	// Redirects are the redirect pages by output path (RedirectPage).
	Redirects map[string]route.Redirect
	more      []*route.Entry // the pages with files PageAt finds by name (moreFiles)
}

// Layout is the site's layout for its dev session (LoadLive, Next and
// Relayout make it).
func (s *Site) Layout() *Layout { return s.layout }

// Relayout lays out the site-wide files again after the bodies of some of
// its pages changed in place (content.Page.TakeBody): a feed shows them.
// On error the site keeps its layout.
func (s *Site) Relayout(ctx context.Context) error {
	l, err := s.layOut(ctx, s, false)
	if err == nil {
		s.layout = l
	}
	return err
}

// layOut lays out s (check: as the pass of a build that only looks for
// errors); the static files may not collide with a page's or a site-wide
// file. With an error, the layout has what was laid out before it. The service worker is prev's when nothing it
// depends on changed (an esbuild run). What the plan alone makes and
// grows with the pages (the redirect pages, the sitemap) is only named,
// and the pages' files are found by name (PageAt): the sitemap is made
// here only when a static file may be one of its parts (sitemapHas).
func (s *Site) layOut(ctx context.Context, prev *Site, check bool) (*Layout, error) {
	l := &Layout{Wide: map[string][]byte{}, Rules: map[string]bool{}, Redirects: map[string]route.Redirect{}, more: s.moreFiles()}
	for _, rd := range s.pageRedirects() {
		l.Redirects[redirectFile(rd)] = rd
	}
	sw, ok := []byte(nil), false
	if prev != nil && prev.layout != nil && prev.Assets == s.Assets && maps.Equal(s.offlinePages(), prev.offlinePages()) {
		sw, ok = prev.layout.Wide[sitepath.Worker]
	}
	if !ok {
		var err error
		if sw, err = s.worker(); err != nil {
			return l, err
		}
	}
	wide := siteWide{worker: sw, check: check, dev: true, rule: func(name string) { l.Rules[name] = true }}
	if err := s.siteFiles(ctx, wide, func(name string, b []byte) { l.Wide[name] = b }); err != nil {
		return l, err
	}
	taken := func(rel string) bool {
		if l.Wide[rel] != nil || l.Rules[rel] || s.sitemapHas(rel) {
			return true
		}
		_, page := s.pageAt(l.more, rel)
		_, redirect := l.Redirects[rel]
		return page || redirect
	}
	return l, s.copyStatics(taken, func(string) ([]byte, error) { return nil, nil }, func(string, []byte) {})
}

// Sitemap is the site's sitemap (output.Sitemaps): one file, or its parts
// and their index, by output path.
func (s *Site) Sitemap() (map[string][]byte, error) { return output.Sitemap(s.plan, s.Config.BaseURL) }

// sitemapHas reports whether the sitemap has a file at rel: sitemap.xml
// always; a part only the sitemap made says.
func (s *Site) sitemapHas(rel string) bool {
	if rel == sitepath.Sitemap {
		return true
	}
	if !sitepath.IsSitemapPart(rel) {
		return false
	}
	files, _ := s.Sitemap()
	_, ok := files[rel]
	return ok
}

// PageAt is the page whose render may write the output path name
// (PageNames), of a site laid out (Layout), found from the name itself: a
// page's HTML by its URL, its page data and island manifest by its
// page-data folder, its other files (an error page's copies, a home
// page's slices) among the few pages that have such files (moreFiles).
func (s *Site) PageAt(name string) (*route.Entry, bool) { return s.pageAt(s.layout.more, name) }

func (s *Site) pageAt(more []*route.Entry, name string) (*route.Entry, bool) {
	var urls []string
	if dir, ok := strings.CutSuffix(name, "index.html"); ok {
		urls = append(urls, "/"+dir)
	}
	if dir, ok := strings.CutPrefix(path.Dir(name), sitepath.PageData+"/"); ok {
		urls = append(urls, "/"+dir+"/", "/") // the root's page data is "index"
	}
	candidates := slices.Clone(more)
	for _, u := range urls {
		if e, ok := s.plan.ByURL(u); ok {
			candidates = append(candidates, e)
		}
	}
	for _, e := range candidates {
		if names, _ := s.PageNames(e); !s.skip[e.Page.File] && slices.Contains(names, name) {
			return e, true
		}
	}
	return nil, false
}

// moreFiles are the pages that write files named neither by their URL
// nor by their page-data folder (PageNames): the error pages and the
// locales' home pages.
func (s *Site) moreFiles() []*route.Entry {
	var out []*route.Entry
	for _, e := range s.entries() {
		names, _ := s.PageNames(e)
		for _, name := range names {
			if !strings.HasSuffix(name, "index.html") && !strings.HasPrefix(name, sitepath.PageData+"/") {
				out = append(out, e)
				break
			}
		}
	}
	return out
}

// PageNames are the output paths a page's render may write (pageFiles):
// the first n always; then its island manifest and a home page's slices,
// which only its render says whether it makes.
func (s *Site) PageNames(e *route.Entry) (names []string, n int) {
	names = s.entryFiles(e)
	n = len(names)
	names = append(names, output.RSCPath(e))
	if e.Home && !e.Root {
		for _, slice := range output.SlicesMap(e.Lang) {
			names = append(names, output.SliceDataPath(slice))
		}
	}
	return names, n
}

// Page is one page rendered for a dev session (Site.RenderPage).
type Page struct {
	// Files are what a build writes for the page, by output path; nil
	// when it has errors.
	Files  map[string][]byte
	Deps   render.Deps // what its render used
	Styles []string    // the CSP hashes of its inline styles and scripts
	failed *rendered   // its errors, without its bytes
}

// RenderPage renders one page the way a build does (renderEntry, checkForm)
// and lays out its files (pageFiles).
func (s *Site) RenderPage(ctx context.Context, e *route.Entry) *Page {
	r := s.renderEntry(ctx, e)
	s.checkForm(&r)
	p := &Page{Deps: r.deps, Styles: r.styles}
	if r.err == nil {
		p.Files = map[string][]byte{}
		r.sliceErrs = s.pageFiles(&r, func(name string, b []byte) { p.Files[name] = b })
	}
	if len(pageErrors([]rendered{r})) > 0 {
		p.Files = nil
		p.failed = &rendered{entry: e, err: r.err, formDiags: r.formDiags, sliceErrs: r.sliceErrs}
	}
	return p
}

// Failed reports whether the page has errors.
func (p *Page) Failed() bool { return p.failed != nil }

// Err is the page's errors (PageErrors), or nil.
func (p *Page) Err() error { return PageErrors([]*Page{p}).Err() }

// PageErrors reports the errors of rendered pages as a build does: one
// template error failing many pages once, with the first page (in the
// order given) and how many more.
func PageErrors(pages []*Page) diag.List {
	var failed []rendered
	for _, p := range pages {
		if p.failed != nil {
			failed = append(failed, *p.failed)
		}
	}
	return pageErrors(failed)
}

// HostRules are the host's rule files (hostRules), their CSP allowing the
// inline hashes of every page (Page.Styles).
func (s *Site) HostRules(inline []string) (map[string][]byte, error) {
	s.inlineHashes = inline
	rules := map[string][]byte{}
	err := s.hostRules(func(name string, b []byte) { rules[name] = b })
	return rules, err
}

// HeaderRules are the headers the host sets (output.HeaderRules), the CSP
// allowing the inline hashes given.
func (s *Site) HeaderRules(inline []string) []output.HeaderRule {
	return output.HeaderRules(sitePolicy(s.Config).WithInline(inline))
}

// Plan is the site's route plan.
func (s *Site) Plan() *route.Plan { return s.plan }

// Source is the site's content: pages, data sets and UI strings by locale.
func (s *Site) Source() *content.Source { return s.source }

// ContentOptions say how the site's content files are parsed
// (content.Classify, content.SourceFile.Parse).
func (s *Site) ContentOptions() content.Options { return s.copts }

// HasImage reports whether the site path p (below ImageDir) is one of the
// source images the site was loaded with.
func (s *Site) HasImage(p string) bool { return s.imageFiles[p] }

// StaticFiles lists the site paths of the files under StaticDir again.
func (s *Site) StaticFiles() (map[string]bool, error) { return staticFiles(unrecorded(s.fsys)) }

// BundleAssets bundles assets/ again, as a load does.
func (s *Site) BundleAssets() (*assets.Result, error) {
	return assets.Bundle(s.root, s.opts.Minify, s.Config.Assets.Entries...)
}

// BundleIslands bundles assets/islands again, as a load does.
func (s *Site) BundleIslands(ctx context.Context) (*islands.Bundle, error) {
	return islands.Build(ctx, islandOptions(s.root, s.Config, s.opts.Minify))
}

// Sources are what the site is made of beyond the folders a site always
// has: the slash paths below the site root that its load and the pages
// rendered since read, listed or looked up and did not find (its record),
// and the files esbuild read to bundle the islands (node_modules
// included), sorted. A dev session watches their folders, so that a
// change of any reaches it (an icon in a folder site.yaml names, a file
// of an island's npm package). Pages render on demand, so the record
// grows: SourceFolders tells when it holds a new folder.
func (s *Site) Sources() []string {
	out := s.rec.Paths()
	if s.Islands != nil {
		for _, in := range s.Islands.Inputs() {
			if p := path.Clean(in); !path.IsAbs(p) && !strings.HasPrefix(p, "../") && !strings.Contains(p, ":") {
				out = append(out, p)
			}
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// SourceFolders is how many folders the site's record holds: when it
// grows, Sources holds a folder it did not before.
func (s *Site) SourceFolders() int { return s.rec.FolderCount() }
