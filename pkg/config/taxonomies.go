package config

import (
	"regexp"

	"gopkg.in/yaml.v3"

	"sitegen/pkg/diag"
	"sitegen/pkg/yamlx"
)

// Taxonomy is a way the site groups its pages (tags, categories, series…):
// pages list their terms under its name in front matter (terms: {tags:
// [go]}), and the build writes, in every locale, a page listing its terms
// (layout TermsLayout) and a page per term listing its pages (layout
// TermLayout), paged by Paginate.
type Taxonomy struct {
	// Name is the taxonomy's key in front matter terms: and in templates.
	Name string `yaml:"name" sg:"required"`
	// Slug is the path of the term list below each locale's prefix, per
	// locale code; a locale not listed uses Name.
	Slug map[string]string `yaml:"slug"`
	// Title is the term list's title per locale; a locale not listed uses
	// Name.
	Title map[string]string `yaml:"title"`
	// Paginate is how many pages a term page shows per page (0: all on one).
	Paginate int `yaml:"paginate"`

	Pos         diag.Pos            `yaml:"-"` // where site.yaml declares it
	PaginatePos diag.Pos            `yaml:"-"`
	SlugPos     map[string]diag.Pos `yaml:"-"` // per locale code
}

// The layouts of a taxonomy's pages (templates/layouts/<name>.html).
const (
	TermsLayout = "terms" // the list of a taxonomy's terms
	TermLayout  = "term"  // the pages of one term
)

// SlugIn is the taxonomy's slug in a locale.
func (t *Taxonomy) SlugIn(lang string) string {
	if s, ok := t.Slug[lang]; ok {
		return s
	}
	return t.Name
}

// TitleIn is the taxonomy's title in a locale.
func (t *Taxonomy) TitleIn(lang string) string {
	if s, ok := t.Title[lang]; ok {
		return s
	}
	return t.Name
}

// Taxonomy returns the taxonomy declared with name.
func (c *Config) Taxonomy(name string) (*Taxonomy, bool) {
	for i := range c.Taxonomies {
		if c.Taxonomies[i].Name == name {
			return &c.Taxonomies[i], true
		}
	}
	return nil, false
}

// TaxonomyNames lists the taxonomies' names, in site.yaml's order.
func (c *Config) TaxonomyNames() []string {
	out := make([]string, len(c.Taxonomies))
	for i, t := range c.Taxonomies {
		out[i] = t.Name
	}
	return out
}

var taxonomyNameRE = regexp.MustCompile(`^[a-z][a-z0-9_-]{0,39}$`)

// validateTaxonomies checks the taxonomies' names, locales and page sizes
// (their slugs are checked by the route plan, against the slug rule).
func (c *Config) validateTaxonomies(root *yaml.Node) diag.List {
	var errs diag.List
	node := yamlx.Field(root, "taxonomies")
	seen := map[string]bool{}
	for i := range c.Taxonomies {
		t := &c.Taxonomies[i]
		item := yamlx.Index(node, i)
		t.Pos = yamlx.Pos(FileName, item)
		t.PaginatePos = t.Pos
		given := false
		if n := yamlx.Field(item, "paginate"); n != nil {
			t.PaginatePos = yamlx.Pos(FileName, n)
			given = n.Tag == "!!int"
		}
		if !taxonomyNameRE.MatchString(t.Name) {
			errs.Add(diag.New(t.Pos, "taxonomies: name %q must be a-z, then a-z, 0-9, _ or -", t.Name).WithHint("like tags or categories"))
		}
		if seen[t.Name] {
			errs.Addf(t.Pos, "taxonomies: %q is declared twice", t.Name)
		}
		seen[t.Name] = true
		if t.Paginate < 0 || given && t.Paginate == 0 {
			errs.Add(diag.New(t.PaginatePos, "taxonomies: %s: paginate %d must be a positive number of pages per page", t.Name, t.Paginate).
				WithHint("leave paginate out to show every page of a term on one page"))
		}
		t.SlugPos = map[string]diag.Pos{}
		for _, field := range []string{"slug", "title"} {
			m := yamlx.Field(item, field)
			if m == nil || m.Kind != yaml.MappingNode {
				continue
			}
			for j := 0; j+1 < len(m.Content); j += 2 {
				k := m.Content[j]
				if _, ok := c.Locale(k.Value); !ok {
					errs.Add(diag.New(yamlx.Pos(FileName, k), "taxonomies: %s: %s names locale %q, which site.yaml does not declare", t.Name, field, k.Value).
						WithHint("the keys are the codes under locales:%s", c.localeCodesHint()))
				}
				if field == "slug" {
					t.SlugPos[k.Value] = yamlx.Pos(FileName, m.Content[j+1])
				}
			}
		}
	}
	return errs
}
