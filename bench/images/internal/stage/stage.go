// Package stage times the image stage of a site's build, for the image
// benchmarks: rendering every page (which names each picture's variants
// and decodes each source once to check it, Picture's check, whose
// decoding Run reuses) and the image processor's Run, cold (an empty
// cache) and warm (the cache just filled), in CPU time (user + system, the
// AVIF encoder process's included and shown apart) and wall time.
package stage

import (
	"context"
	"fmt"
	"syscall"
	"time"

	"sitegen/pkg/build"
	"sitegen/pkg/images"
)

// Stage is one timed Run.
type Stage struct {
	Wall, CPU time.Duration
	Encoder   time.Duration // of CPU, the AVIF encoder process's
	Stats     images.Stats  // this Run only
	Files     int
	Bytes     int64
}

// Round is the stage of one build: Cold and Warm are the two Runs, Checks
// the CPU rendering took with the cache empty over its CPU with the cache
// full (the checks' decoding), Pages the pages rendered.
type Round struct {
	Cold, Warm Stage
	Checks     time.Duration
	Pages      int
}

// Total is the CPU of the image stage of a cold build: its Run and the
// checks.
func (r Round) Total() time.Duration { return r.Cold.CPU + r.Checks }

// Measure loads the site at root with the empty image cache folder cache,
// renders every page, times a cold Run and a warm one, then loads the site
// again (the cache full) and renders it again (Checks). enc, when set,
// replaces the encoders the site's images settings choose.
func Measure(ctx context.Context, root, cache string, workers int, enc *images.Encoders) (Round, error) {
	var r Round
	site, renderCold, pages, err := render(ctx, root, cache, enc)
	if err != nil {
		return r, err
	}
	defer site.Close()
	r.Pages = pages
	timed := func() (Stage, error) {
		before, t0 := site.Images.Stats(), time.Now()
		cpu0, kids0 := CPU()
		files, err := site.Images.Run(ctx, workers)
		cpu1, kids1 := CPU()
		st := Stage{Wall: time.Since(t0), CPU: cpu1 - cpu0, Encoder: kids1 - kids0}
		after := site.Images.Stats()
		st.Stats = images.Stats{Processed: after.Processed - before.Processed, Cached: after.Cached - before.Cached}
		st.Files = len(files)
		for _, f := range files {
			st.Bytes += int64(len(f.Data))
		}
		return st, err
	}
	if r.Cold, err = timed(); err != nil {
		return r, err
	}
	if r.Warm, err = timed(); err != nil {
		return r, err
	}
	again, renderWarm, _, err := render(ctx, root, cache, enc)
	if err != nil {
		return r, err
	}
	again.Close()
	r.Checks = max(0, renderCold-renderWarm)
	return r, nil
}

// render loads the site with the image cache folder cache and renders
// every page once, which names each picture's variants, returning the
// CPU time of the rendering.
func render(ctx context.Context, root, cache string, enc *images.Encoders) (*build.Site, time.Duration, int, error) {
	site, err := build.Load(ctx, build.Options{Source: root, ImageCache: cache, ImageEncoders: enc, NoSiteImages: true, Date: "2026-01-01"})
	if err != nil {
		return nil, 0, 0, err
	}
	var urls []string
	for _, e := range site.Entries() {
		urls = append(urls, e.URL)
	}
	c0, _ := CPU()
	for _, u := range urls {
		if _, _, err := site.RenderURL(ctx, u); err != nil {
			site.Close()
			return nil, 0, 0, fmt.Errorf("rendering %s: %w", u, err)
		}
	}
	c1, _ := CPU()
	return site, c1 - c0, len(urls), nil
}

// CPU is the CPU time of this process and of its children waited for
// (all, and the children's): the AVIF encodes run in a child process
// (pkg/images/avifproc.go), which Run ends and waits for before it
// returns.
func CPU() (all, kids time.Duration) {
	var self, ch syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &self) != nil || syscall.Getrusage(syscall.RUSAGE_CHILDREN, &ch) != nil {
		return 0, 0
	}
	kids = time.Duration(ch.Utime.Nano() + ch.Stime.Nano())
	return time.Duration(self.Utime.Nano()+self.Stime.Nano()) + kids, kids
}
