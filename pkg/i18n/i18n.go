// Package i18n looks up UI strings with the specification's semantics (§1): a
// lookup returns the string of the locale, else the default locale's, else the
// key itself, a given default, or null.
package i18n

import (
	"sort"
	"sync"
)

// Catalog holds the UI strings of every locale. Lookups are safe for
// concurrent use; it records which keys fell back so a build can report them.
type Catalog struct {
	strings    map[string]map[string]string
	defaultTag string

	mu       sync.Mutex
	fellBack map[Miss]bool
}

// Miss is a key looked up in a locale that lacks it.
type Miss struct {
	Lang, Key string
	// Found is true when the default locale had the key.
	Found bool
}

// New returns a catalog of strings per locale code; def is the default locale.
func New(strings map[string]map[string]string, def string) *Catalog {
	return &Catalog{strings: strings, defaultTag: def, fellBack: map[Miss]bool{}}
}

// Lookup returns the string for key in lang, falling back to the default
// locale; ok is false when neither has it.
func (c *Catalog) Lookup(lang, key string) (string, bool) {
	if s, ok := c.strings[lang][key]; ok {
		return s, true
	}
	s, ok := c.strings[c.defaultTag][key]
	c.mu.Lock()
	c.fellBack[Miss{Lang: lang, Key: key, Found: ok}] = true
	c.mu.Unlock()
	return s, ok
}

// Own returns the string for key in lang alone: no fallback, and nothing
// recorded as a miss (for texts the caller has its own defaults of).
func (c *Catalog) Own(lang, key string) (string, bool) {
	s, ok := c.strings[lang][key]
	return s, ok
}

// T returns the string, or the key itself when it is missing everywhere.
func (c *Catalog) T(lang, key string) string {
	if s, ok := c.Lookup(lang, key); ok {
		return s
	}
	return key
}

// TDefault returns the string, or def when it is missing everywhere.
func (c *Catalog) TDefault(lang, key, def string) string {
	if s, ok := c.Lookup(lang, key); ok {
		return s
	}
	return def
}

// TNull returns the string, or nil when it is missing everywhere.
func (c *Catalog) TNull(lang, key string) *string {
	if s, ok := c.Lookup(lang, key); ok {
		return &s
	}
	return nil
}

// Misses returns the keys that were looked up and fell back, sorted.
func (c *Catalog) Misses() []Miss {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make([]Miss, 0, len(c.fellBack))
	for m := range c.fellBack {
		out = append(out, m)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Lang != out[j].Lang {
			return out[i].Lang < out[j].Lang
		}
		return out[i].Key < out[j].Key
	})
	return out
}
