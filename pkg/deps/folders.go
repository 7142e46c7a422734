package deps

import (
	"path"
	"path/filepath"
	"slices"
)

// What a dev session watches of its record: the paths, and the count of
// their folders.

// Paths are the record's paths below the site root, sorted, once each.
func (r *Record) Paths() []string {
	if r == nil {
		return nil
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make([]string, 0, len(r.deps))
	for k := range r.deps {
		if !path.IsAbs(k.Path) {
			out = append(out, k.Path)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// TrackFolders makes the record keep count of the folders of what it
// holds, from now on (a dev session's; a build does not pay for it).
func (r *Record) TrackFolders() {
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
func (r *Record) noteFolder(k Key) {
	if r.dirs == nil || filepath.IsAbs(k.Path) {
		return
	}
	r.dirs[path.Dir(k.Path)] = true
	if k.Kind == Dir || k.Kind == OSDir {
		r.dirs[k.Path] = true
	}
}

// FolderCount is how many folders the record's paths are in (counted
// from TrackFolders on).
func (r *Record) FolderCount() int {
	if r == nil {
		return 0
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.dirs)
}
