package config

import (
	"gopkg.in/yaml.v3"

	"sitegen/pkg/diag"
	"sitegen/pkg/yamlx"
)

// Feed is a list the site publishes as an RSS 2.0 and an Atom feed, in
// every locale: the pages below the page List (as the pages function lists
// them), newest first.
type Feed struct {
	// List is the page id whose pages below it the feed lists ("blog").
	List string `yaml:"list" sg:"required"`
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
		if seen[f.List] {
			errs.Addf(f.Pos, "feeds: the list %q is named twice", f.List)
		}
		seen[f.List] = true
	}
	return errs
}
