package build

import (
	"sync"

	"sitegen/pkg/content"
	"sitegen/pkg/route"
)

// bodyCache keeps converted page bodies between updates: a template or data
// edit renders many pages again, but their Markdown stays as it was.
type bodyCache struct {
	mu sync.Mutex
	m  map[bodyKey]cachedBody
}

type bodyKey struct {
	page *content.Page
	lang string
}

type cachedBody struct {
	html string
	deps []string
}

func (c *bodyCache) Body(e *route.Entry) (string, []string, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	b, ok := c.m[bodyKey{e.Page, e.Lang}]
	return b.html, b.deps, ok
}

func (c *bodyCache) PutBody(e *route.Entry, html string, deps []string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.m[bodyKey{e.Page, e.Lang}] = cachedBody{html, deps}
}

// forget drops the bodies of a page.
func (c *bodyCache) forget(p *content.Page) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for k := range c.m {
		if k.page == p {
			delete(c.m, k)
		}
	}
}

// drop forgets the bodies of pages no longer in the plan and those whose
// links changed meaning.
func (c *bodyCache) drop(plan *route.Plan, changed map[string]bool) {
	live := make(map[*content.Page]bool, len(plan.Entries))
	for _, e := range plan.Entries {
		live[e.Page] = true
	}
	for k, b := range c.m {
		if !live[k.page] {
			delete(c.m, k)
			continue
		}
		for _, dep := range b.deps {
			if changed[dep] {
				delete(c.m, k)
				break
			}
		}
	}
}
