// Command pipeline times the image stage of a real build: cold (an empty
// image cache, every variant encoded) and warm (the cache just filled, every
// variant read from it), with the counts the build summary prints.
//
// It loads the site, renders every page once so that each picture names
// its variants (as a build does), then runs the image processor twice on
// the same variants. Only the processor's Run is timed: wall time and the
// CPU time (user + system, summed over the workers, the AVIF encoder
// process's included, and shown apart as "AVIF s": the rest is decoding,
// resizing and the JPEG and PNG encodes).
//
//	go run -tags=nodynamic ./bench/images/pipeline [-site .] [-tmp /dev/shm] [-workers 0] [-runs 1]
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"os"
	"runtime"
	"runtime/pprof"
	"syscall"
	"time"

	"sitegen/pkg/build"
	"sitegen/pkg/images"
)

func main() {
	site := flag.String("site", ".", "site root")
	tmp := flag.String("tmp", os.TempDir(), "folder for the temporary image cache (try /dev/shm: no disk effects)")
	workers := flag.Int("workers", 0, "encoding workers (0: GOMAXPROCS)")
	runs := flag.Int("runs", 1, "cold and warm rounds, each with a fresh cache")
	profile := flag.String("cpuprofile", "", "write a CPU profile of this process (not of the AVIF encoder process) to this file")
	flag.Parse()
	if *profile != "" {
		f, err := os.Create(*profile)
		if err != nil {
			log.Fatal(err)
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			log.Fatal(err)
		}
		defer pprof.StopCPUProfile()
	}
	if err := run(*site, *tmp, *workers, *runs); err != nil {
		pprof.StopCPUProfile()
		log.Fatal(err)
	}
}

// stage is one timed Run.
type stage struct {
	wall, cpu time.Duration
	encoder   time.Duration // of cpu, the AVIF encoder process's
	stats     images.Stats  // this Run only
	files     int
	bytes     int64
}

func run(root, tmp string, workers, runs int) error {
	ctx := context.Background()
	fmt.Printf("image stage of %s: GOMAXPROCS %d, workers %d, cache under %s\n", root, runtime.GOMAXPROCS(0), workers, tmp)
	fmt.Printf("%-5s %-5s %9s %9s %9s %10s %10s %6s %10s\n", "round", "cache", "wall s", "CPU s", "AVIF s", "processed", "from cache", "files", "bytes")
	for r := 1; r <= runs; r++ {
		cache, err := os.MkdirTemp(tmp, "sitegen-image-cache-")
		if err != nil {
			return err
		}
		cold, warm, pages, err := round(ctx, root, cache, workers)
		os.RemoveAll(cache)
		if err != nil {
			return err
		}
		if r == 1 {
			fmt.Printf("(%d pages rendered to name the pictures: %d variants)\n", pages, cold.files)
		}
		for _, s := range []struct {
			name string
			st   stage
		}{{"cold", cold}, {"warm", warm}} {
			fmt.Printf("%-5d %-5s %9.3f %9.3f %9.3f %10d %10d %6d %10d\n", r, s.name, s.st.wall.Seconds(), s.st.cpu.Seconds(), s.st.encoder.Seconds(),
				s.st.stats.Processed, s.st.stats.Cached, s.st.files, s.st.bytes)
		}
	}
	return nil
}

// round loads the site with an empty cache, names every picture, and times
// a cold Run and a warm one.
func round(ctx context.Context, root, cache string, workers int) (cold, warm stage, pages int, err error) {
	site, err := build.Load(ctx, build.Options{Source: root, ImageCache: cache, NoSiteImages: true, Date: "2026-01-01"})
	if err != nil {
		return cold, warm, 0, err
	}
	defer site.Close()
	urls := []string{}
	if e, ok := site.Plan.ByURL("/"); ok {
		urls = append(urls, e.URL)
	}
	for _, e := range site.Plan.Entries {
		urls = append(urls, e.URL)
	}
	for _, u := range urls {
		if _, _, err := site.RenderURL(ctx, u); err != nil {
			return cold, warm, 0, fmt.Errorf("rendering %s: %w", u, err)
		}
	}
	timed := func() (stage, error) {
		before, t0 := site.Images.Stats(), time.Now()
		cpu0, kids0 := cpuTime()
		files, err := site.Images.Run(ctx, workers)
		cpu1, kids1 := cpuTime()
		st := stage{wall: time.Since(t0), cpu: cpu1 - cpu0, encoder: kids1 - kids0}
		after := site.Images.Stats()
		st.stats = images.Stats{Processed: after.Processed - before.Processed, Cached: after.Cached - before.Cached}
		st.files = len(files)
		for _, f := range files {
			st.bytes += int64(len(f.Data))
		}
		return st, err
	}
	if cold, err = timed(); err != nil {
		return cold, warm, 0, err
	}
	warm, err = timed()
	return cold, warm, len(urls), err
}

// cpuTime is the CPU time of this process and of its children waited for
// (all, and the children's): the AVIF encodes run in a child process
// (pkg/images/avifproc.go), which Run ends and waits for before it returns.
func cpuTime() (all, kids time.Duration) {
	var self, ch syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &self) != nil || syscall.Getrusage(syscall.RUSAGE_CHILDREN, &ch) != nil {
		return 0, 0
	}
	kids = time.Duration(ch.Utime.Nano() + ch.Stime.Nano())
	return time.Duration(self.Utime.Nano()+self.Stime.Nano()) + kids, kids
}
