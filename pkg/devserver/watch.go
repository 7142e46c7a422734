package devserver

import (
	"context"
	"errors"
	"io/fs"
	"log/slog"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/fsnotify/fsnotify"

	"sitegen/pkg/schema"
)

// Watched are the source folders and files of a site the dev server watches.
var Watched = []string{"site.yaml", schema.FileName, "content", "templates", "assets"}

// watcher reports bursts of changes below a site root as sorted slash paths
// relative to it. A burst ends after quiet passes without another event, so an
// editor's write-to-temp-and-rename save, or a checkout touching many files,
// comes out as one change.
type watcher struct {
	root  string
	quiet time.Duration
	w     *fsnotify.Watcher
	log   *slog.Logger
	// flush, when set, ends bursts instead of the quiet window: a burst
	// ends once every path received on flush had an event since (tests
	// name the paths a step changes, and need no timing).
	flush <-chan []string
	// reports says whether a change of a slash path below the root is
	// reported (Server.Reports).
	reports func(string) bool
}

func newWatcher(root string, quiet time.Duration, log *slog.Logger) (*watcher, error) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, err
	}
	fw, err := fsnotify.NewWatcher()
	if err != nil {
		return nil, err
	}
	w := &watcher{root: abs, quiet: quiet, w: fw, log: log, reports: Reported}
	// The root itself, for site.yaml (editors replace it by rename).
	if err := fw.Add(abs); err != nil {
		fw.Close()
		return nil, err
	}
	for _, d := range Watched[2:] {
		if err := w.addTree(filepath.Join(abs, d)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			fw.Close()
			return nil, err
		}
	}
	return w, nil
}

// addTree watches dir and every folder below it.
func (w *watcher) addTree(dir string) error {
	return filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if p != dir && ignored(d.Name()) {
				return filepath.SkipDir
			}
			return w.w.Add(p)
		}
		return nil
	})
}

// ignored tells editor droppings and hidden files from sources.
func ignored(name string) bool {
	switch {
	case strings.HasPrefix(name, "."), strings.HasPrefix(name, "#"),
		strings.HasSuffix(name, "~"), strings.HasSuffix(name, ".swp"), strings.HasSuffix(name, ".swx"),
		strings.HasSuffix(name, ".tmp"), name == "4913":
		return true
	}
	return false
}

// rel maps an event path to a watched source path, or "" for anything else.
func (w *watcher) rel(p string) string {
	r, err := filepath.Rel(w.root, p)
	if err != nil || strings.HasPrefix(r, "..") {
		return ""
	}
	r = filepath.ToSlash(r)
	if !w.reports(r) {
		return ""
	}
	return r
}

// watchSources watches the folders of the site's sources outside the
// Watched folders (sourceSet.dirs); a folder watched already is left as
// it is.
func (w *watcher) watchSources(set *sourceSet) {
	for _, d := range set.watch {
		if err := w.w.Add(filepath.Join(w.root, filepath.FromSlash(d))); err != nil && !errors.Is(err, fs.ErrNotExist) {
			w.log.Warn("watch", "dir", d, "err", err)
		}
	}
}

// sourceSet is what a site's last full load read (devsession.Session.Sources), as
// the watcher uses it: the paths, their folders, and the folders to watch
// beyond the Watched ones.
type sourceSet struct {
	paths, dirs map[string]bool
	watch       []string
}

func newSourceSet(sources []string) *sourceSet {
	s := &sourceSet{paths: map[string]bool{}, dirs: map[string]bool{}}
	for _, p := range sources {
		s.paths[p] = true
		if d := path.Dir(p); d != "." {
			s.dirs[d] = true
		}
	}
	for d := range s.dirs {
		if !Reported(d) {
			s.watch = append(s.watch, d)
		}
	}
	slices.Sort(s.watch)
	return s
}

// refreshSources takes the site's sources again (devsession.Session.Sources)
// when they are stale (noteSources) and returns them. Taking them lists
// every file the site read: Watch and Reports do it, off the requests'
// path.
func (s *Server) refreshSources() *sourceSet {
	if !s.sourcesStale.Swap(false) {
		return s.sources.Load()
	}
	s.sourceFolders.Store(int64(s.dev.SourceFolders()))
	set := newSourceSet(s.dev.Sources())
	s.sources.Store(set)
	return set
}

// noteSources marks the sources stale, and has Watch watch them again,
// when the site holds a folder it did not (a render read a file in a new
// folder: pages render on demand, so what the site reads grows as they
// do), or always with force (a load or an update).
func (s *Server) noteSources(force bool) {
	if !force && int64(s.dev.SourceFolders()) == s.sourceFolders.Load() {
		return
	}
	s.sourcesStale.Store(true)
	select {
	case s.resourced <- struct{}{}:
	default:
	}
}

// Reports reports whether the dev server rebuilds on a change of the slash
// path p below the site root: a Watched source (Reported), a file the last
// full load read, listed or looked up (devsession.Session.Sources), or a new file
// in the folder of one.
func (s *Server) Reports(p string) bool {
	if Reported(p) {
		return true
	}
	set := s.refreshSources()
	return set != nil && !ignored(path.Base(p)) && (set.paths[p] || set.dirs[path.Dir(p)])
}

// Reported reports whether the watcher reports a change of the slash path
// r below the site root: a watched source, not an editor's dropping.
func Reported(r string) bool {
	if ignored(path.Base(r)) {
		return false
	}
	for _, s := range Watched {
		if r == s || strings.HasPrefix(r, s+"/") {
			return true
		}
	}
	return false
}

// run sends each burst of changes to out until ctx ends.
func (w *watcher) run(ctx context.Context, out chan<- []string) {
	defer w.w.Close()
	pending := map[string]bool{} // path -> its first event in the burst created it
	var awaited map[string]bool  // the paths a flush waits for (nil: none)
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	send := func() bool {
		paths := w.settled(pending)
		clear(pending)
		if len(paths) == 0 {
			return true // only transient files: nothing changed
		}
		select {
		case out <- paths:
			return true
		case <-ctx.Done():
			return false
		}
	}
	for {
		select {
		case <-ctx.Done():
			return
		case paths := <-w.flush:
			awaited = map[string]bool{}
			for _, p := range paths {
				awaited[p] = true
			}
		case err, ok := <-w.w.Errors:
			if !ok {
				return
			}
			w.log.Warn("watch", "err", err)
		case ev, ok := <-w.w.Events:
			if !ok {
				return
			}
			r := w.event(ev)
			if r == "" {
				continue
			}
			if _, seen := pending[r]; !seen {
				pending[r] = ev.Has(fsnotify.Create)
			}
			if w.flush == nil {
				timer.Reset(w.quiet)
				continue
			}
			delete(awaited, r)
			if awaited != nil && len(awaited) == 0 {
				awaited = nil
				if !send() {
					return
				}
			}
		case <-timer.C:
			if !send() {
				return
			}
		}
	}
}

// settled returns the sorted paths of a burst without the transient ones:
// a path the burst created and that is gone at its end (an editor's
// temporary file, such as sed -i's content/en/sedBTzwLS, renamed over the
// file it saves) did not exist before the burst nor after it, so nothing
// changed there, and it is neither rebuilt nor logged.
func (w *watcher) settled(pending map[string]bool) []string {
	paths := make([]string, 0, len(pending))
	for p, created := range pending {
		if created {
			if _, err := os.Lstat(filepath.Join(w.root, filepath.FromSlash(p))); errors.Is(err, fs.ErrNotExist) {
				continue
			}
		}
		paths = append(paths, p)
	}
	slices.Sort(paths)
	return paths
}

// event returns the path of a change below the root ("" for none: an
// ignored file, or only its mode changed); a folder created or moved in is
// watched from then on.
func (w *watcher) event(ev fsnotify.Event) string {
	r := w.rel(ev.Name)
	if r == "" {
		return ""
	}
	if ev.Has(fsnotify.Create) {
		if st, err := os.Stat(ev.Name); err == nil && st.IsDir() {
			// A folder moved or created: watch it; its files are
			// read through its own path.
			if err := w.addTree(ev.Name); err != nil {
				w.log.Warn("watch", "dir", r, "err", err)
			}
		}
	}
	if ev.Op == fsnotify.Chmod {
		return ""
	}
	return r
}
