package build

import (
	"context"
	"errors"
	"maps"
	"slices"
	"strings"

	"sitegen/pkg/assets"
	"sitegen/pkg/diag"
	"sitegen/pkg/islands"
	"sitegen/pkg/output"
	"sitegen/pkg/route"
	"sitegen/pkg/sitepath"
)

// siteWide says how siteFiles runs.
type siteWide struct {
	// worker is /sw.js (Site.worker), made beside the pages; nil: none.
	worker []byte
	// check: the pass that only looks for errors (a build with errors):
	// no picture is encoded, and a path that cannot become a hosting rule
	// was already reported where it was written.
	check bool
	// dev: a dev session's site-wide files, made before any page
	// renders (layOut), and only those that are few and may fail: no
	// picture variants (made on demand), no redirect pages and no
	// sitemap (one file per page or a list of them, which only the plan
	// makes: RedirectPage and Sitemap make them when asked for), and the
	// host's rule files only named, to rule (their CSP holds every
	// page's inline hashes: HostRules makes them once every page has
	// rendered).
	dev  bool
	rule func(name string)
	// planMade: the files made from the route plan alone (planFiles)
	// were made already, while the pages rendered (a build's).
	planMade bool
}

// siteFiles lays out the files of the site besides its pages: the redirect
// pages, the form schemas and hosting rules (rulesFiles), the service
// worker, the sitemaps, robots.txt, the app data, the bundles and the
// picture variants the pages asked for. It is how build and the dev server
// make them; the static files come after, with copyStatics.
func (s *Site) siteFiles(ctx context.Context, w siteWide, emit func(name string, b []byte)) error {
	if !w.planMade {
		if err := s.planFiles(emit, w.dev); err != nil {
			return err
		}
	}
	if err := s.formFiles(emit); err != nil && !w.check {
		return err
	}
	rules := emit
	if w.dev {
		rules = func(name string, _ []byte) { w.rule(name) } // made apart (HostRules)
	}
	if err := s.hostRules(rules); err != nil && !w.check {
		return err
	}
	if w.worker != nil {
		emit(sitepath.Worker, w.worker)
	}
	if err := s.feedFiles(emit); err != nil {
		return err
	}
	if err := s.templateFiles(emit); err != nil {
		return err
	}
	app, err := output.AppData(s.Hash)
	if err != nil {
		return err
	}
	emit(sitepath.PageData+"/app-data.json", app)
	bundles := bundleFiles(s.Assets, s.Islands, s.stableURLs)
	for _, name := range slices.Sorted(maps.Keys(bundles)) {
		emit(name, bundles[name])
	}
	if w.check || w.dev || s.Images == nil {
		return nil
	}
	return s.pictures(ctx, emit)
}

// planFiles lays out the site's files that depend on its route plan alone,
// not on what any page rendered: the redirect pages, the sitemaps and
// robots.txt. A build makes them while its pages render (50,000 pages:
// 0.3 s of one core that came after the last page); a dev session (lazy)
// makes the redirect pages and the sitemap when they are asked for
// (RedirectPage, Sitemap).
func (s *Site) planFiles(emit func(name string, b []byte), lazy bool) error {
	if !lazy {
		if err := s.redirectPages(emit); err != nil {
			return err
		}
		if err := output.Sitemaps(s.plan, s.Config.BaseURL, func(name string, b []byte) error {
			emit(name, b)
			return nil
		}); err != nil {
			return err
		}
	}
	emit(sitepath.Robots, output.Robots(s.Config.BaseURL))
	return nil
}

// redirectPages writes the HTML page published at each redirect's path,
// on a host that cannot redirect; where the host answers the redirect
// itself a page there would shadow the rule.
func (s *Site) redirectPages(emit func(name string, b []byte)) error {
	rds := s.pageRedirects()
	// Made on every core (each is a template run and a minification),
	// handed to emit in order.
	pages := make([][]byte, len(rds))
	errs := make([]error, len(rds))
	parallel(len(pages), func(i int) { pages[i], errs[i] = s.RedirectPage(rds[i]) })
	for i, rd := range rds {
		if errs[i] != nil {
			return errs[i]
		}
		emit(redirectFile(rd), pages[i])
	}
	return nil
}

// pageRedirects are the redirects the site publishes a page for: all of
// them on a host that cannot redirect, none where the host answers the
// redirect itself.
func (s *Site) pageRedirects() []route.Redirect {
	if !s.host().RedirectPages() {
		return nil
	}
	return s.plan.Redirects
}

// host is the software that serves the output (site.yaml's host, or
// --host); loading the config checked its name.
func (s *Site) host() *output.Host {
	h, err := output.ParseHost(s.Config.Host)
	if err != nil {
		return output.DefaultHost
	}
	return h
}

// serverErrorPages are the 500 pages per locale prefix, like notFoundPages.
func (s *Site) serverErrorPages() []output.NotFound {
	var out []output.NotFound
	def := s.Config.DefaultLocale()
	for _, e := range s.plan.Entries {
		if e.Error && !e.NotFound && !e.Root {
			l, _ := s.Config.Locale(e.Lang)
			out = append(out, output.NotFound{Prefix: l.Prefix, Page: l.Prefix + "/500.html"})
			if e.Lang == def.Code {
				out = append(out, output.NotFound{Page: "/500.html"})
			}
		}
	}
	return out
}

func redirectFile(rd route.Redirect) string { return strings.TrimPrefix(rd.From, "/") + "index.html" }

// RedirectPage is the HTML page published at a redirect's path
// (redirectFile), minified like every page when minification is on.
func (s *Site) RedirectPage(rd route.Redirect) ([]byte, error) {
	b, err := output.RedirectPage(rd, s.Config.BaseURL)
	if err != nil || s.html == nil {
		return b, err
	}
	return s.html.HTML(b)
}

// formFiles writes the schema of every form the site declares.
func (s *Site) formFiles(emit func(name string, b []byte)) error {
	set, _, err := s.forms()
	if err != nil {
		return err
	}
	schemas, err := set.Files()
	if err != nil {
		return err
	}
	for _, name := range slices.Sorted(maps.Keys(schemas)) {
		emit(name, schemas[name])
	}
	return nil
}

// hostRules writes the host's rule files (_redirects, _headers, the nginx
// snippet...). The CSP holds the hashes of the inline styles and scripts of
// the pages rendered (Site.inlineHashes): it comes after them.
func (s *Site) hostRules(emit func(name string, b []byte)) error {
	files, err := s.host().RuleFiles(output.HostInput{Version: Version, Headers: output.HeaderRules(s.policy()),
		Redirects: s.plan.Redirects, NotFound: s.notFoundPages(), ServerError: s.serverErrorPages()})
	if err == nil {
		for _, name := range slices.Sorted(maps.Keys(files)) {
			emit(name, files[name])
		}
		return nil
	}
	var pe *output.RulePathError
	if errors.As(err, &pe) && pe.Redirect != nil {
		return diag.New(pe.Redirect.Pos, "redirect %s -> %s: %v", pe.Redirect.From, pe.Redirect.To, err)
	}
	return err
}

// policy is the site's CSP (sitePolicy) with the hashes of the <style>s
// and inline scripts its pages carry (collected as they are written).
func (s *Site) policy() output.CSP {
	return sitePolicy(s.Config).WithInline(s.inlineHashes)
}

// notFoundPages are each locale's 404 page, and the default locale's at
// /404.html, for the hosting rules.
func (s *Site) notFoundPages() []output.NotFound {
	var out []output.NotFound
	def := s.Config.DefaultLocale()
	own := map[string][]string{} // lang -> its error pages' own URLs
	for _, e := range s.plan.Entries {
		if e.Error && !e.Root {
			own[e.Lang] = append(own[e.Lang], e.URL)
		}
	}
	for _, e := range s.plan.Entries {
		if !e.Error || !e.NotFound || e.Root {
			continue
		}
		l, _ := s.Config.Locale(e.Lang)
		out = append(out, output.NotFound{Prefix: l.Prefix, Page: l.Prefix + "/404.html", Own: own[e.Lang]})
		if e.Lang == def.Code {
			out = append(out, output.NotFound{Page: "/404.html"})
		}
	}
	return out
}

// bundleFiles are the files of the asset bundles and the island client
// bundles. stable, when set, maps an asset entry to the URL its pages
// link (the dev server keeps the URLs of its first build, so pages need not
// render again when only a stylesheet changed).
func bundleFiles(a *assets.Result, b *islands.Bundle, stable map[string]string) map[string][]byte {
	out := map[string][]byte{}
	moved := map[string]string{}
	for name, u := range a.URLs {
		if s, ok := stable[name]; ok {
			moved[strings.TrimPrefix(u, "/")] = strings.TrimPrefix(s, "/")
		}
	}
	for name, data := range a.Files {
		if to, ok := moved[name]; ok {
			name = to
		}
		out[name] = data
	}
	if b != nil {
		maps.Copy(out, b.ClientFiles())
	}
	return out
}

// pictures encodes the picture variants the renders asked for (the
// processor keeps what it encoded).
func (s *Site) pictures(ctx context.Context, emit func(name string, b []byte)) error {
	files, err := s.Images.Run(ctx, 0)
	if err != nil {
		return err
	}
	for _, f := range files {
		emit(f.Path, f.Data)
	}
	return nil
}

// copyStatics copies the files of assets/static to the output; read reads
// one by its site path. A static file may not take the path of a generated
// one (taken) nor of the build's manifest.
func (s *Site) copyStatics(taken func(rel string) bool, read func(p string) ([]byte, error), emit func(name string, b []byte)) error {
	var errs diag.List
	for _, p := range slices.Sorted(maps.Keys(s.Statics)) {
		rel := strings.TrimPrefix(p, "/")
		if rel == output.ManifestName || taken(rel) {
			errs.Add(diag.New(diag.Pos{File: StaticDir + p}, "static file collides with a generated file at %s", p))
			continue
		}
		b, err := read(p)
		if err != nil {
			return err
		}
		emit(rel, b)
	}
	return errs.Err()
}
