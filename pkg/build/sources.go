package build

import (
	"path"
	"path/filepath"
	"slices"
)

// What a dev session watches of its record (Site.Sources): the paths, and
// the count of their folders.

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
// holds, from now on (a dev session's; a build does not pay for it).
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
