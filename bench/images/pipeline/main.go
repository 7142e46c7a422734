// Command pipeline times the image stage of a real build: cold (an empty
// image cache, every variant encoded) and warm (the cache just filled, every
// variant read from it), with the counts the build summary prints.
//
// It loads the site, renders every page once so that each picture names
// its variants (as a build does), then runs the image processor twice on
// the same variants (package stage). The processor's Run is timed: wall
// time and the CPU time (user + system, summed over the workers, the AVIF
// encoder process's included, and shown apart as "AVIF s": the rest is
// decoding, resizing and the JPEG and PNG encodes); and the checks, the
// sources decoded while rendering (which Run then reuses): the stage of a
// cold build is the cold Run and the checks. The AVIF encoder is the one
// the site's site.yaml chooses (images.avif).
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

	"sitegen/bench/images/internal/stage"
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

func run(root, tmp string, workers, runs int) error {
	ctx := context.Background()
	fmt.Printf("image stage of %s: GOMAXPROCS %d, workers %d, cache under %s\n", root, runtime.GOMAXPROCS(0), workers, tmp)
	fmt.Printf("%-5s %-5s %9s %9s %9s %10s %10s %6s %10s\n", "round", "cache", "wall s", "CPU s", "AVIF s", "processed", "from cache", "files", "bytes")
	for r := 1; r <= runs; r++ {
		cache, err := os.MkdirTemp(tmp, "sitegen-image-cache-")
		if err != nil {
			return err
		}
		res, err := stage.Measure(ctx, root, cache, workers, nil) // the encoders the site.yaml chooses
		os.RemoveAll(cache)
		if err != nil {
			return err
		}
		if r == 1 {
			fmt.Printf("(%d pages rendered to name the pictures: %d variants)\n", res.Pages, res.Cold.Files)
		}
		for _, s := range []struct {
			name string
			st   stage.Stage
		}{{"cold", res.Cold}, {"warm", res.Warm}} {
			fmt.Printf("%-5d %-5s %9.3f %9.3f %9.3f %10d %10d %6d %10d\n", r, s.name, s.st.Wall.Seconds(), s.st.CPU.Seconds(), s.st.Encoder.Seconds(),
				s.st.Stats.Processed, s.st.Stats.Cached, s.st.Files, s.st.Bytes)
		}
		fmt.Printf("%-5d checks %.3f s CPU (decoding while rendering); stage %.3f s CPU (the cold Run and the checks)\n", r, res.Checks.Seconds(), res.Total().Seconds())
	}
	return nil
}
