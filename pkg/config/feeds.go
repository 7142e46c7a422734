package config

import (
	"gopkg.in/yaml.v3"

	"sitegen/pkg/diag"
	"sitegen/pkg/yamlx"
)

// Feed is a list the site publishes as an RSS 2.0 and an Atom feed, in
// every locale: the pages below the page List (as the pages function lists
// them), or the pages of each term of the taxonomy Terms, newest first.
type Feed struct {
	// List is the page id whose pages below it the feed lists ("blog").
	List string `yaml:"list"`
	// Terms names a taxonomy: each of its terms gets a feed of its pages,
	// in its term page's folder. A feed has List or Terms, not both.
	Terms string `yaml:"terms"`
	// Items is how many of the newest pages the feed lists (default
	// DefaultFeedItems).
	Items int `yaml:"items"`
	// Pos is where site.yaml names the feed.
	Pos diag.Pos `yaml:"-"`
}

// DefaultFeedItems is how many items a feed lists unless it says.
const DefaultFeedItems = 20

// validateFeeds fills in the feeds' defaults and positions.
func (c *Config) validateFeeds(root *yaml.Node) diag.List {
	var errs diag.List
	node := yamlx.Field(root, "feeds")
	seen := map[string]bool{}
	for i := range c.Feeds {
		f := &c.Feeds[i]
		f.Pos = yamlx.Pos(FileName, yamlx.Index(node, i))
		if f.Items == 0 {
			f.Items = DefaultFeedItems
		}
		if f.Items < 0 {
			errs.Addf(f.Pos, "feeds: items %d must be positive", f.Items)
		}
		if (f.List == "") == (f.Terms == "") {
			errs.Add(diag.New(f.Pos, "feeds: a feed names a list (a page id) or terms (a taxonomy), one of them").
				WithHint("like {list: blog} or {terms: tags}"))
			continue
		}
		if f.Terms != "" {
			if _, ok := c.Taxonomy(f.Terms); !ok {
				errs.Add(diag.New(f.Pos, "feeds: terms %q names no taxonomy of site.yaml", f.Terms).
					WithHint("declare it under taxonomies: (%s)", yamlx.Closest(f.Terms, c.TaxonomyNames())))
			}
		}
		key := f.List + "\x00" + f.Terms
		if seen[key] {
			errs.Addf(f.Pos, "feeds: the list %q is named twice", f.List+f.Terms)
		}
		seen[key] = true
	}
	return errs
}
