package build

import (
	"context"
	"io/fs"
	"maps"
	"slices"
	"strings"
	"time"

	"sitegen/pkg/diag"
	"sitegen/pkg/output"
	"sitegen/pkg/route"
	"sitegen/pkg/sitepath"
)

// outPatch is an output being patched: the paths whose bytes changed are
// collected as files are set and deleted.
type outPatch struct {
	out      map[string][]byte
	fallback map[string]string
	diff     map[string]bool
}

func (o *outPatch) set(name string, b []byte) {
	if old, ok := o.out[name]; !ok || string(old) != string(b) {
		o.diff[name] = true
	}
	o.out[name] = b
}

func (o *outPatch) del(name string) {
	if _, ok := o.out[name]; ok {
		o.diff[name] = true
		delete(o.out, name)
	}
	delete(o.fallback, name)
}

// patch makes the output of st from prev's: the pages rendered again, the
// pages gone (patchPages), and the site-wide files whose inputs changed
// (patchSiteWide), each laid out as a build lays it out. It returns the
// paths whose bytes changed, sorted.
func (d *Dev) patch(ctx context.Context, st, prev *devState, todo []*route.Entry, removed []string) ([]string, error) {
	o := &outPatch{out: maps.Clone(prev.out), fallback: maps.Clone(prev.fallback), diff: map[string]bool{}}
	if err := patchPages(o, st, prev, todo, removed); err != nil {
		return nil, err
	}
	if err := d.patchSiteWide(ctx, o, st, prev); err != nil {
		return nil, err
	}
	st.out, st.fallback = o.out, o.fallback
	return slices.Sorted(maps.Keys(o.diff)), nil
}

// patchPages replaces the files of the pages rendered again (pageFiles)
// and deletes those of the pages gone.
func patchPages(o *outPatch, st, prev *devState, todo []*route.Entry, removed []string) error {
	s := st.site
	for _, u := range removed {
		for _, name := range s.pageFileNames(prev.pages[u]) {
			o.del(name)
		}
	}
	var errs diag.List
	for _, e := range todo {
		if old, ok := prev.pages[e.URL]; ok {
			for _, name := range s.pageFileNames(old) {
				o.del(name)
			}
		}
		errs.Merge(s.pageFiles(st.pages[e.URL], func(name string, b []byte) {
			o.set(name, b)
			if e.Fallback && strings.HasSuffix(name, ".html") {
				o.fallback[name] = e.Page.File
			}
		}))
	}
	// Deleting and setting the same path again counts only if the bytes
	// differ from before.
	for name := range o.diff {
		if old, ok := prev.out[name]; ok {
			if b, ok := o.out[name]; ok && string(old) == string(b) {
				delete(o.diff, name)
			}
		}
	}
	return errs.Err()
}

// patchSiteWide lays out the site-wide files again with siteFiles, as a
// build and assemble lay them out, keeping what changed and deleting what
// it no longer writes; then the static files (patchStatics). Only the
// service worker, an esbuild run, is kept from prev while its inputs (the
// assets, the offline pages) are the same.
func (d *Dev) patchSiteWide(ctx context.Context, o *outPatch, st, prev *devState) error {
	s := st.site
	s.inlineHashes = pageHashes(st.pages)
	sw, ok := prev.out[sitepath.Worker]
	if st.assets != prev.assets || !maps.Equal(s.offlinePages(), prev.site.offlinePages()) || !ok {
		var err error
		if sw, err = s.worker(); err != nil {
			return err
		}
	}
	for _, name := range d.staleImages {
		o.del(name)
	}
	st.wide = map[string]bool{}
	err := s.siteFiles(ctx, siteWide{worker: sw, noPictures: d.picturesPending}, func(name string, b []byte) {
		st.wide[name] = true
		o.set(name, b)
	})
	if err != nil {
		return err
	}
	for name := range prev.wide {
		if !st.wide[name] {
			o.del(name)
		}
	}
	for _, name := range d.staleImages { // a photo saved as it was
		if old, ok := prev.out[name]; ok && string(old) == string(o.out[name]) && o.out[name] != nil {
			delete(o.diff, name)
		}
	}
	return d.patchStatics(o, st, prev)
}

// patchStatics copies the static files again when they changed.
func (d *Dev) patchStatics(o *outPatch, st, prev *devState) error {
	s := st.site
	if st.staticsGen == prev.staticsGen {
		return nil
	}
	for p := range prev.site.Statics {
		if !s.Statics[p] {
			o.del(strings.TrimPrefix(p, "/"))
		}
	}
	taken := func(rel string) bool {
		_, ok := o.out[rel]
		return ok && !prev.site.Statics["/"+rel]
	}
	return s.copyStatics(taken, d.static, o.set)
}

// pageHashes are the CSP hashes of the pages' inline styles and scripts.
func pageHashes(pages map[string]*rendered) []string {
	var out []string
	for _, p := range pages {
		out = append(out, p.styles...)
	}
	return out
}

// changedFiles lists, sorted, the paths whose bytes differ between two
// outputs, or that only one has.
func changedFiles(a, b map[string][]byte) []string {
	var out []string
	for name, x := range a {
		if y, ok := b[name]; !ok || string(x) != string(y) {
			out = append(out, name)
		}
	}
	for name := range b {
		if _, ok := a[name]; !ok {
			out = append(out, name)
		}
	}
	slices.Sort(out)
	return out
}

// static returns the bytes of a static file (site path), cached.
func (d *Dev) static(p string) ([]byte, error) {
	if b, ok := d.staticCache[p]; ok {
		return b, nil
	}
	b, err := fs.ReadFile(d.fsys, StaticDir+p)
	if err != nil {
		return nil, err
	}
	d.staticCache[p] = b
	return b, nil
}

// assemble lays out the whole output with the steps a build writes it
// with (pageFiles, siteFiles, copyStatics), into memory.
func (d *Dev) assemble(ctx context.Context, st *devState) (map[string][]byte, map[string]string, error) {
	s := st.site
	out := make(map[string][]byte, 2*len(st.pages)+len(s.Plan.Redirects)+64)
	emit := func(name string, b []byte) { out[name] = b }
	fallback := map[string]string{}
	var errs diag.List
	for _, p := range st.pages {
		errs.Merge(s.pageFiles(p, func(name string, b []byte) {
			out[name] = b
			if p.entry.Fallback && strings.HasSuffix(name, ".html") {
				fallback[name] = p.entry.Page.File
			}
		}))
	}
	if len(errs) > 0 {
		return nil, nil, errs.Err()
	}
	s.inlineHashes = pageHashes(st.pages)
	sw, err := s.worker()
	if err != nil {
		return nil, nil, err
	}
	st.wide = map[string]bool{}
	err = s.siteFiles(ctx, siteWide{worker: sw, noPictures: d.picturesPending}, func(name string, b []byte) {
		st.wide[name] = true
		out[name] = b
	})
	if err != nil {
		return nil, nil, err
	}
	taken := func(rel string) bool { _, ok := out[rel]; return ok }
	if err := s.copyStatics(taken, d.static, emit); err != nil {
		return nil, nil, err
	}
	return out, fallback, nil
}

// Pictures adds the picture variants to the output of a Dev that left them
// out (Options.DeferPictures), from the image cache where Processor.Run or
// Processor.Variant put them, encoding any still missing. It returns nil
// when there is nothing to add (no good build, or the variants are there).
func (d *Dev) Pictures(ctx context.Context) (*DevResult, error) {
	if !d.picturesPending || d.good == nil {
		return nil, nil
	}
	start := time.Now()
	st := *d.good
	o := &outPatch{out: maps.Clone(st.out), fallback: st.fallback, diff: map[string]bool{}}
	st.wide = maps.Clone(st.wide)
	err := st.site.pictures(ctx, func(name string, b []byte) {
		st.wide[name] = true
		o.set(name, b)
	})
	if err != nil {
		return nil, err
	}
	st.out = o.out
	d.good, d.picturesPending = &st, false
	s := st.site
	return &DevResult{Changed: slices.Sorted(maps.Keys(o.diff)), Pages: len(s.Plan.Entries), Duration: time.Since(start),
		Out: st.out, Fallback: st.fallback, RedirectTable: output.RedirectTable(s.Plan.Redirects),
		HeaderRules: output.HeaderRules(s.policy())}, nil
}
