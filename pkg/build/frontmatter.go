package build

import (
	"runtime/debug"

	"gopkg.in/yaml.v3"

	"sitegen/pkg/cache"
	"sitegen/pkg/yamlx"
)

// frontMatterCache keeps the pages' parsed front matter in the build cache
// (content.FrontMatterCache), by the text of the front matter, the YAML
// parser's version and sitegen's: a warm build decodes what it parsed
// before instead of parsing it again, several times faster.
type frontMatterCache struct {
	store *cache.Store
	salt  []byte
}

func newFrontMatterCache(store *cache.Store) *frontMatterCache {
	if store == nil {
		return nil
	}
	parser := "unknown"
	if info, ok := debug.ReadBuildInfo(); ok {
		for _, m := range info.Deps {
			if m.Path == "gopkg.in/yaml.v3" {
				parser = m.Version + " " + m.Sum
			}
		}
	}
	return &frontMatterCache{store: store, salt: []byte("front-matter-1 sitegen " + Version + " yaml.v3 " + parser)}
}

func (c *frontMatterCache) key(fm []byte) cache.Key { return cache.NewKey(c.salt, fm) }

// Get returns the front matter's tree when the cache has it.
func (c *frontMatterCache) Get(fm []byte) (*yaml.Node, bool) {
	b, ok := c.store.Get(c.key(fm))
	if !ok {
		return nil, false
	}
	doc, err := yamlx.DecodeNodes(b)
	return doc, err == nil
}

// Put keeps a front matter's tree as parsed (yamlx.EncodeNodes).
func (c *frontMatterCache) Put(fm []byte, encoded []byte) {
	c.store.Put(c.key(fm), encoded)
}
