package devsession

import (
	"maps"
	"slices"

	"sitegen/pkg/sitepath"
)

// The site-wide files a session makes when they are asked for, not with
// its layout (build.Layout): the redirect pages and the sitemap, which
// grow with the pages and which only the plan makes. Their bytes go into
// the cache, as a page's do; an update makes again those still there, to
// tell open tabs whether they changed (remake).

// later returns the bytes of a site-wide file made when asked for, and
// whether name is one.
func (d *Session) later(st *state, name string) ([]byte, bool, error) {
	if rd, ok := st.redirects[name]; ok {
		b, err := st.site.RedirectPage(rd)
		if err != nil {
			return nil, true, err
		}
		st.made[name] = true
		d.out.Put(name, b)
		return b, true, nil
	}
	return d.sitemapFile(st, name)
}

// sitemapFile returns the sitemap's file at name, and whether it has one:
// only its files' names (sitepath.Sitemap, sitepath.SitemapPart) make it.
func (d *Session) sitemapFile(st *state, name string) ([]byte, bool, error) {
	if name != sitepath.Sitemap && !sitepath.IsSitemapPart(name) || st.sitemap != nil && !st.sitemap[name] {
		return nil, false, nil
	}
	if b, ok := d.out.Get(name); ok && st.sitemap != nil {
		return b, true, nil
	}
	files, err := d.sitemap(st)
	b, ok := files[name]
	return b, ok, err
}

// sitemap makes the sitemap's files, into the cache; st.sitemap names
// them from then on.
func (d *Session) sitemap(st *state) (map[string][]byte, error) {
	files, err := st.site.Sitemap()
	if err != nil {
		return nil, err
	}
	st.sitemap = map[string]bool{}
	for _, name := range slices.Sorted(maps.Keys(files)) {
		st.sitemap[name] = true
		st.made[name] = true
		d.out.Put(name, files[name])
	}
	return files, nil
}

// remake makes in st again the files prev made when asked for: those the
// cache still has, comparing their bytes; it returns the paths whose bytes
// changed or that st does not have, and those the cache let go (an open
// tab may show them).
func (d *Session) remake(prev, st *state) []string {
	var changed []string
	was := map[string][]byte{}
	for name := range prev.made {
		if b, in := d.out.Get(name); in {
			was[name] = b
		} else {
			changed = append(changed, name)
		}
		d.out.Drop(name)
	}
	for _, name := range slices.Sorted(maps.Keys(was)) {
		if b, ok, err := d.later(st, name); !ok || err != nil || string(b) != string(was[name]) {
			changed = append(changed, name)
		}
	}
	return changed
}
