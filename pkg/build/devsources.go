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
	set := map[string]bool{}
	if d.read != nil {
		d.read.mu.Lock()
		for k := range d.read.deps {
			if !path.IsAbs(k.path) {
				set[k.path] = true
			}
		}
		d.read.mu.Unlock()
	}
	if d.bundle != nil {
		for _, in := range d.bundle.Inputs() {
			if p := path.Clean(in); !path.IsAbs(p) && !strings.HasPrefix(p, "../") && !strings.Contains(p, ":") {
				set[p] = true
			}
		}
	}
	out := make([]string, 0, len(set))
	for p := range set {
		out = append(out, p)
	}
	slices.Sort(out)
	return out
}
