package build

import (
	"path"
	"slices"
	"strings"
)

// Sources are what the dev session's site is made of beyond the folders a
// site always has: the slash paths below the site root that the last full
// load read, listed or looked up and did not find (its record), and the
// files esbuild read to bundle the islands (node_modules included), sorted.
// The dev server watches them, so that a change of any reaches Update (an
// icon in a folder site.yaml names, a file of an island's npm package).
func (d *Dev) Sources() []string {
	out := slices.Clone(d.read)
	if d.bundle != nil {
		for _, in := range d.bundle.Inputs() {
			if p := path.Clean(in); !path.IsAbs(p) && !strings.HasPrefix(p, "../") && !strings.Contains(p, ":") {
				out = append(out, p)
			}
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// paths are the record's paths below the site root, sorted, once each.
func (r *record) paths() []string {
	if r == nil {
		return nil
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make([]string, 0, len(r.deps))
	for k := range r.deps {
		if !path.IsAbs(k.path) {
			out = append(out, k.path)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}
