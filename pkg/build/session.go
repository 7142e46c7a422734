package build

import (
	"context"
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
//   - LoadLive loads the site as a build does (load; a site with errors
//     gives every error a build reports: errorsOnly);
//   - Site.Next assembles it again after an edit from the parts the
//     session parsed or bundled again (Parts), through the same steps as
//     load (siteParts.assemble, Site.ready), with the same errors;
//   - LoadLive and Next lay out the site-wide files with siteFiles and
//     copyStatics, as Site.write does (Layout; Relayout after a body edit);
//   - Site.RenderPage renders one page with renderEntry and checkForm and
//     lays out its files with pageFiles, as Site.write does for each page
//     (PageNames are the paths it may write), and PageErrors reports the
//     pages' errors as a build does;
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
// out (Layout). A site with errors gives all of them, as a build reports
// them.
func LoadLive(ctx context.Context, opts Options, fsys *sitefs.FS) (*Live, error) {
	site, errs := load(ctx, opts, &liveTree{fsys: fsys})
	if site == nil {
		return nil, errs.Err()
	}
	if errs.Errors() > 0 {
		defer site.Close()
		return nil, site.errorsOnly(ctx, errs)
	}
	live := &Live{Site: site, Files: site.files, ReadContent: site.readTime}
	site.files = nil
	site.opts, site.recordDeps, site.stableURLs = opts, true, site.Assets.URLs
	if err := site.layOutLive(ctx, nil); err != nil {
		site.Close()
		return nil, err
	}
	site.rec.trackFolders()
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
// stage runs, and a site with errors gives all of them, those its pages
// find as they render included (errorsOnly), as a build of the same files
// reports them; s stays as it was, ready to render.
func (s *Site) Next(ctx context.Context, p Parts) (*Site, error) {
	var errs diag.List
	src, err := content.Assemble(s.copts, p.Files)
	errs.AddErr(diag.Pos{File: content.Dir}, err)
	next, err := siteParts{cfg: s.Config, src: src, statics: p.Statics, hash: s.Hash, assets: p.Assets, islands: p.Islands, images: s.Images,
		imageFiles: s.imageFiles, fsys: s.fsys, root: s.root, md: s.md, copts: s.copts}.assemble()
	errs.AddErr(diag.Pos{File: content.Dir}, err)
	next.rec, next.opts, next.recordDeps, next.stableURLs = s.rec, s.opts, true, p.URLs
	noRender := bundling{assetsErr: p.AssetsErr, islandsErr: p.IslandsErr}.failed(&errs)
	switch ready := next.ready(&errs, noRender, next.bindRenderer(s, p.Templates)); {
	case ready == nil:
		err = errs.Err()
	case errs.Errors() > 0:
		err = next.errorsOnly(ctx, errs)
	default:
		err = next.layOutLive(ctx, s)
	}
	if err == nil {
		return next, nil
	}
	if next.renderer == s.renderer { // back to s's site
		s.renderer.Rebind(s.renderOptions(s.opts, s.stableURLs))
	}
	return nil, err
}

// layOutLive lays out a site that loaded without errors for its session
// (layOut). When a site-wide file fails, the error is the one a build
// reports: its pages' errors, when they have some (Site.write renders the
// pages first), or else that file's.
func (s *Site) layOutLive(ctx context.Context, prev *Site) error {
	lerr := s.layOut(ctx, prev)
	if lerr == nil {
		return nil
	}
	done, err := s.renderEntries(ctx, s.entries(), func(*rendered) {})
	if err != nil {
		return err
	}
	if err := pageErrors(done).Err(); err != nil {
		return err
	}
	return lerr
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

// Layout is where a dev session finds the files of a site's output besides
// the static files: the page whose render writes each, and the site-wide
// files, as a build writes them.
type Layout struct {
	Pages map[string]*route.Entry // output path -> the entry whose render may write it (PageNames)
	// Wide are the site-wide files (siteFiles) but the picture variants
	// (made on demand: images.Processor.Variant) and the host's rule files,
	// whose names are Rules: their CSP holds the inline hashes of every
	// page (HostRules).
	Wide  map[string][]byte
	Rules map[string]bool
}

// Layout is the site's layout for its dev session (LoadLive, Next and
// Relayout make it).
func (s *Site) Layout() *Layout { return s.layout }

// Relayout lays out the site-wide files again after the bodies of some of
// its pages changed in place (content.Page.TakeBody): a feed shows them.
func (s *Site) Relayout(ctx context.Context) error { return s.layOut(ctx, s) }

// layOut makes s.layout; the static files may not collide with a page's
// or a site-wide file. The service worker is prev's when nothing it
// depends on changed (an esbuild run).
func (s *Site) layOut(ctx context.Context, prev *Site) error {
	l := &Layout{Pages: map[string]*route.Entry{}, Wide: map[string][]byte{}, Rules: map[string]bool{}}
	for _, e := range s.entries() {
		names, _ := s.PageNames(e)
		for _, name := range names {
			l.Pages[name] = e
		}
	}
	sw, ok := []byte(nil), false
	if prev != nil && prev.layout != nil && prev.Assets == s.Assets && maps.Equal(s.offlinePages(), prev.offlinePages()) {
		sw, ok = prev.layout.Wide[sitepath.Worker]
	}
	if !ok {
		var err error
		if sw, err = s.worker(); err != nil {
			return err
		}
	}
	if err := s.siteFiles(ctx, siteWide{worker: sw, dev: true}, func(name string, b []byte) { l.Wide[name] = b }); err != nil {
		return err
	}
	if err := s.hostRules(func(name string, _ []byte) { l.Rules[name] = true }); err != nil {
		return err
	}
	taken := func(rel string) bool { return l.Pages[rel] != nil || l.Wide[rel] != nil || l.Rules[rel] }
	if err := s.copyStatics(taken, func(string) ([]byte, error) { return nil, nil }, func(string, []byte) {}); err != nil {
		return err
	}
	s.layout = l
	return nil
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
	out := s.rec.paths()
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
func (s *Site) SourceFolders() int { return s.rec.folderCount() }
