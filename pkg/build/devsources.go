package build

import (
	"path"
	"path/filepath"
	"slices"
	"strings"
)

// Sources are what the dev session's site is made of beyond the folders a
// site always has: the slash paths below the site root that the last good
// load and the pages rendered since read, listed or looked up and did not
// find (its record), and the files esbuild read to bundle the islands
// (node_modules included), sorted. The dev server watches their folders,
// so that a change of any reaches Update (an icon in a folder site.yaml
// names, a file of an island's npm package). Pages render on demand, so
// the record grows: SourceFolders tells when it holds a new folder.
func (d *Dev) Sources() []string {
	d.mu.Lock()
	defer d.mu.Unlock()
	out := d.rec.paths()
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

// SourceFolders is how many folders the session's record holds: when it
// grows, Sources holds a folder to watch that it did not before.
func (d *Dev) SourceFolders() int {
	d.mu.Lock()
	rec := d.rec
	d.mu.Unlock()
	return rec.folderCount()
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

// trackFolders makes the record keep count of the folders of what it
// holds, from now on (the dev server's; a build does not pay for it).
func (r *record) trackFolders() {
	if r == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.dirs = map[string]bool{}
	for k := range r.deps {
		r.noteFolder(k)
	}
}

// noteFolder notes the folder of k (and k itself when it is one); r.mu is
// held.
func (r *record) noteFolder(k depKey) {
	if r.dirs == nil || filepath.IsAbs(k.path) {
		return
	}
	r.dirs[path.Dir(k.path)] = true
	if k.kind == depDir || k.kind == depOSDir {
		r.dirs[k.path] = true
	}
}

func (r *record) folderCount() int {
	if r == nil {
		return 0
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.dirs)
}
