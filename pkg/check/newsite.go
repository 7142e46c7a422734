package check

import (
	"fmt"

	"sitegen/pkg/diag"
	"sitegen/pkg/route"
)

// checkHeadLinks warns when a page of a site with several locales lacks
// <link rel="canonical"> or its hreflang alternates: search engines then
// cannot tell the translations apart from duplicates. Fallback copies and
// error pages are not indexed and are left alone.
func (c *checker) checkHeadLinks(e *route.Entry, p *page) {
	cfg := c.site.Config
	if len(cfg.Locales) < 2 || e.Root || e.Fallback || cfg.ErrorPages.Is(e.ID) {
		return
	}
	if p.canonical == "" {
		c.pageDiag(e, "", diag.Warning, KindHeadLinks, "%s", `page has no <link rel="canonical">; in base.html: <link rel="canonical" href="{{ .Page.Permalink }}">`)
	}
	if len(p.alternates) == 0 && len(c.site.Plan.Variants(e.ID)) > 1 {
		c.pageDiag(e, "", diag.Warning, KindHeadLinks, "%s", `page has no hreflang alternates; in base.html: {{ range .Alternates }}<link rel="alternate" hreflang="{{ .Lang }}" href="{{ .Permalink }}">{{ end }}`)
	}
}

// checkNotFoundPages warns about each locale without a page for unknown
// addresses (the error page id, 404 by default). A locale showing the
// default locale's page instead is reported as a missing page.
func (c *checker) checkNotFoundPages() {
	cfg := c.site.Config
	id := cfg.ErrorPages.NotFound
	for _, l := range cfg.Locales {
		if _, ok := c.site.Plan.Lookup(l.Code, id); ok {
			continue
		}
		c.add(diag.Diagnostic{Pos: diag.Pos{File: "content/" + l.Code}, Severity: diag.Warning, Kind: KindNotFound,
			Message: fmt.Sprintf("locale %s has no %s page: unknown addresses under %s/ get the server's bare 404; add content/%s/%s.md (id: %q, layout of your choice)", l.Code, id, l.Prefix, l.Code, id, id)})
	}
}
