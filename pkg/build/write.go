package build

import (
	"context"
	"errors"
	"io/fs"
	"runtime"
	"slices"
	"strings"
	"sync"

	"sitegen/pkg/diag"
	"sitegen/pkg/internal/ctxwait"
	parallelpkg "sitegen/pkg/internal/parallel"
	"sitegen/pkg/output"
	"sitegen/pkg/route"
)

// Write renders every page and writes the output to w (the build's
// temporary folder, or an in-memory tree).
func (s *Site) Write(ctx context.Context, w output.Writer) (*Report, error) {
	if w == nil {
		return nil, errors.New("build: Write needs a writer")
	}
	return s.write(ctx, w)
}

// write renders every page into tree; a nil tree renders for the errors
// only. Each page is written as soon as it is rendered and then forgotten.
func (s *Site) write(ctx context.Context, tree output.Writer) (*Report, error) {
	entries := s.entries()
	out := newOutTree(tree, s.Statics)
	if err := s.prepare(tree, entries); err != nil {
		return nil, err
	}
	// Off the pages' path, while they render: the service worker's bundle
	// and the gzip sizes of the scripts the summary reports.
	type swResult struct {
		b   []byte
		err error
	}
	swDone := make(chan swResult, 1)
	go func() {
		b, err := s.worker()
		swDone <- swResult{b, err}
	}()
	sizerDone := make(chan func([]string) int, 1)
	go func() { sizerDone <- s.jsSizer() }()
	// And the files the route plan alone makes, written beside the pages.
	planFiles := s.startPlanFiles(out)
	defer planFiles() // whatever this returns, they are done before

	if s.pages != nil && out.reuses() {
		s.pages.keep = func(e *route.Entry, sums *pageSums) bool { return s.keepPage(out, e, sums) }
		s.pages.formDigest = func() string { _, d, _ := s.forms(); return d }
	}
	done, err := s.renderEntries(ctx, entries, func(r *rendered) {
		r.sliceErrs = s.placePage(r, out)
		s.forget(r)
	})
	if err != nil {
		return nil, err
	}
	errs := pageErrors(done)
	errs.Merge(out.errs())
	if len(errs) > 0 {
		return nil, errs.Err()
	}
	for _, r := range done {
		s.inlineHashes = append(s.inlineHashes, r.styles...)
	}
	rep := s.newReport(done, <-sizerDone)
	done = nil

	sw := <-swDone
	if sw.err != nil {
		return nil, sw.err
	}
	if err := planFiles(); err != nil {
		return nil, err
	}
	if err := s.siteFiles(ctx, siteWide{worker: sw.b, check: tree == nil, planMade: true}, out.write); err != nil {
		return nil, err
	}
	read := func(p string) ([]byte, error) { return fs.ReadFile(s.fsys, StaticDir+p) }
	if err := s.copyStatics(out.generated, read, out.write); err != nil {
		return nil, err
	}
	if err := out.errs().Err(); err != nil {
		return nil, err
	}
	if tree == nil {
		return rep, nil
	}
	s.finishReport(rep)
	rep.Files, rep.Bytes = tree.Files(), tree.Bytes()
	return rep, nil
}

// startPlanFiles writes the files of the route plan (planFiles) to out on
// a goroutine of its own; wait returns their error once they are written
// (every call the same).
func (s *Site) startPlanFiles(out *outTree) (wait func() error) {
	done := make(chan error, 1)
	go func() { done <- s.planFiles(out.write, false) }()
	var once sync.Once
	var err error
	return func() error {
		once.Do(func() { err = <-done })
		return err
	}
}

// entries are the entries to render: the root page first, then the plan's
// entries, without those whose source has errors.
func (s *Site) entries() []*route.Entry {
	var entries []*route.Entry
	if root, ok := s.plan.ByURL("/"); ok {
		entries = append(entries, root)
	}
	entries = append(entries, s.plan.Entries...)
	return slices.DeleteFunc(entries, func(e *route.Entry) bool { return s.skip[e.Page.File] })
}

// prepare makes the folders shared by many pages once, up front, when the
// tree can.
func (s *Site) prepare(tree output.Writer, entries []*route.Entry) error {
	p, ok := tree.(interface{ Prepare([]string) error })
	if !ok || tree == nil {
		return nil
	}
	var planned []string
	for _, e := range entries {
		planned = append(planned, s.entryFiles(e)...)
	}
	for _, rd := range s.pageRedirects() {
		planned = append(planned, redirectFile(rd))
	}
	return p.Prepare(planned)
}

// outTree writes a build's files to its tree (none: the pass that only
// looks for errors) and remembers which of them a static file would
// collide with.
type outTree struct {
	tree      output.Writer
	statics   map[string]bool // the static files' output paths
	mu        sync.Mutex
	written   map[string]bool // the static files' paths that were generated
	writeErrs diag.List
}

func newOutTree(tree output.Writer, statics map[string]bool) *outTree {
	t := &outTree{tree: tree, statics: map[string]bool{}, written: map[string]bool{}}
	for p := range statics {
		t.statics[strings.TrimPrefix(p, "/")] = true
	}
	return t
}

func (t *outTree) write(rel string, b []byte) {
	var err error
	if t.tree != nil {
		err = t.tree.WriteFile(rel, b)
	}
	t.done(rel, err)
}

// writeSum is write for bytes whose output.Sum is known.
func (t *outTree) writeSum(rel string, b []byte, sum [16]byte) {
	w, ok := t.tree.(interface {
		WriteSum(string, []byte, [16]byte) error
	})
	if !ok {
		t.write(rel, b)
		return
	}
	t.done(rel, w.WriteSum(rel, b, sum))
}

// reuses reports whether the tree is staged in a spare, whose files can
// be kept.
func (t *outTree) reuses() bool {
	r, ok := t.tree.(interface{ Reuses() bool })
	return ok && r.Reuses()
}

// holds reports whether the tree's spare holds a file of this size and
// sum at rel.
func (t *outTree) holds(rel string, size int, sum [16]byte) bool {
	h, ok := t.tree.(interface {
		Holds(string, int, [16]byte) bool
	})
	return ok && h.Holds(rel, size, sum)
}

// keep keeps rel as the tree's spare holds it, when it holds a file of this
// size and sum (output.Tree.Keep), and reports whether it did.
func (t *outTree) keep(rel string, size int, sum [16]byte) bool {
	k, ok := t.tree.(interface {
		Keep(string, int, [16]byte) bool
	})
	if !ok || !k.Keep(rel, size, sum) {
		return false
	}
	t.done(rel, nil)
	return true
}

// done notes a file of the output, written or kept, and the error of
// writing it.
func (t *outTree) done(rel string, err error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.statics[rel] {
		t.written[rel] = true
	}
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) { // name the output path, not the temporary folder
			err = pe.Err
		}
		t.writeErrs.Add(diag.New(diag.Pos{}, "cannot write %s to the output: %v", rel, err))
	}
}

func (t *outTree) generated(rel string) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.written[rel]
}

func (t *outTree) errs() diag.List {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.writeErrs
}

// parallel runs fn(0..n-1) on GOMAXPROCS workers.
func parallel(n int, fn func(i int)) { parallelpkg.For(n, runtime.GOMAXPROCS(0), fn) }

// writers is how many goroutines render and write pages: more than the
// cores, so that one blocked in a file system call leaves a core to the
// others.
func writers() int {
	return max(4, 2*runtime.GOMAXPROCS(0))
}

// renderEntries renders entries (taking them from the page cache when it
// has them), checks their forms and hands each page without errors to
// place, on writers() goroutines; it returns them in entry order, as place
// left them. Stopped (Ctrl+C), it returns at once: a render that does not
// notice (an island in an endless loop) is left behind, and its page is not
// placed. build and check render through it (a dev session renders one
// page at a time: Site.RenderPage).
func (s *Site) renderEntries(ctx context.Context, entries []*route.Entry, place func(*rendered)) ([]rendered, error) {
	done := make([]rendered, len(entries))
	var warm sync.Once
	next := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < min(writers(), len(entries)); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				r, ok := s.pages.lookup(entries[i])
				if !ok {
					if s.Islands != nil {
						warm.Do(s.Islands.Warm) // a page renders: start the engines
					}
					r = s.renderEntry(ctx, entries[i])
				}
				s.checkForm(&r)
				if !ok {
					s.pages.done(&r)
				}
				if r.err == nil && ctx.Err() == nil {
					place(&r)
				}
				done[i] = r
			}
		}()
	}
feed:
	for i := range entries {
		select {
		case next <- i:
		case <-ctx.Done():
			break feed
		}
	}
	close(next)
	if err := ctxwait.Wait(ctx, &wg); err != nil {
		return nil, err
	}
	return done, nil
}
