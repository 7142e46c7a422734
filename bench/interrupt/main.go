// Command interrupt measures how fast sitegen stops on Ctrl+C: it starts
// `sitegen build` on a site (the website by default) with an empty cache,
// sends SIGINT at a different moment of the build in each run, and reports
// the time from the signal to the process's exit, the exit codes, and any
// temporary tree (.sitegen-tmp-*) left beside the output.
//
//	go build -tags=nodynamic -o /tmp/sg ./cmd/sitegen
//	go run ./bench/interrupt -bin /tmp/sg -runs 8 [-load 2] [-source .]
//
// The signal goes at (i+0.5)/runs of -span after the build made its
// temporary tree, so the runs spread over the build's steps (pages,
// islands, images, writing). -load starts that many busy loops in this
// process while the builds run, to measure under load.
package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync/atomic"
	"syscall"
	"time"
)

func main() {
	bin := flag.String("bin", "", "the sitegen binary (required)")
	source := flag.String("source", ".", "the site to build")
	runs := flag.Int("runs", 8, "number of interrupted builds")
	span := flag.Duration("span", 9*time.Second, "the signals spread over this much of the build")
	load := flag.Int("load", 0, "busy loops to run meanwhile (CPU load)")
	flag.Parse()
	if *bin == "" {
		fmt.Fprintln(os.Stderr, "interrupt: -bin is required")
		os.Exit(2)
	}
	var stop atomic.Bool
	for range *load {
		go func() {
			for x := 0; !stop.Load(); x++ {
				_ = x * x
			}
		}()
	}
	var times []time.Duration
	bad := 0
	for i := range *runs {
		delay := time.Duration((float64(i) + 0.5) / float64(*runs) * float64(*span))
		r, err := interrupt(*bin, *source, delay)
		if err != nil {
			fmt.Fprintf(os.Stderr, "run %d: %v\n", i+1, err)
			os.Exit(1)
		}
		fmt.Printf("run %d: signal %5.1fs after start: exit %d in %4d ms, temporary tree left: %v, child processes left: %d\n",
			i+1, delay.Seconds(), r.code, r.took.Milliseconds(), r.left, r.children)
		if r.code != 130 || r.left || r.children > 0 {
			bad++
		}
		times = append(times, r.took)
	}
	stop.Store(true)
	slices.Sort(times)
	la, _ := os.ReadFile("/proc/loadavg")
	fmt.Printf("%d runs (GOMAXPROCS %d, -load %d, load average %s): signal to exit median %d ms, max %d ms; %d runs with another exit code, a tree or a child process left\n",
		len(times), runtime.GOMAXPROCS(0), *load, strings.Join(strings.Fields(string(la))[:3], " "),
		times[len(times)/2].Milliseconds(), times[len(times)-1].Milliseconds(), bad)
	if bad > 0 {
		os.Exit(1)
	}
}

type result struct {
	code     int
	took     time.Duration
	left     bool
	children int // processes the build started (the AVIF encoder) alive a second after its exit
}

// interrupt runs one build into a fresh folder and sends SIGINT delay after
// its temporary tree appeared.
func interrupt(bin, source string, delay time.Duration) (result, error) {
	dir, err := os.MkdirTemp("", "sitegen-interrupt-")
	if err != nil {
		return result{}, err
	}
	defer os.RemoveAll(dir)
	out := filepath.Join(dir, "public")
	cmd := exec.Command(bin, "build", "--source", source, "--out", out,
		"--cache-dir", filepath.Join(dir, "cache"), "--image-cache", filepath.Join(dir, "images"))
	cmd.Stdout, cmd.Stderr = nil, nil
	if err := cmd.Start(); err != nil {
		return result{}, err
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	// Wait for the temporary tree: the build is under way.
	for !leftover(dir) {
		select {
		case err := <-exited:
			return result{}, fmt.Errorf("the build ended before its temporary tree appeared: %v", err)
		case <-time.After(2 * time.Millisecond):
		}
	}
	select {
	case err := <-exited:
		return result{}, fmt.Errorf("the build ended (%v) before the signal; lower -span", err)
	case <-time.After(delay):
	}
	children := childPIDs(cmd.Process.Pid)
	sent := time.Now()
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		return result{}, err
	}
	err = <-exited
	took := time.Since(sent)
	code := 0
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		code = exit.ExitCode()
	} else if err != nil {
		return result{}, err
	}
	return result{code: code, took: took, left: leftover(dir), children: alive(children, time.Second)}, nil
}

// childPIDs are the processes pid started that run (Linux: /proc).
func childPIDs(pid int) []string {
	tasks, _ := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/children", pid))
	var pids []string
	for _, t := range tasks {
		b, _ := os.ReadFile(t)
		pids = append(pids, strings.Fields(string(b))...)
	}
	return pids
}

// alive counts the processes of pids still running (not ended, nor a
// zombie) after grace.
func alive(pids []string, grace time.Duration) int {
	deadline := time.Now().Add(grace)
	for {
		n := 0
		for _, pid := range pids {
			stat, err := os.ReadFile("/proc/" + pid + "/stat")
			// The state follows the command's closing parenthesis.
			if i := strings.LastIndexByte(string(stat), ')'); err == nil && i > 0 && i+2 < len(stat) && stat[i+2] != 'Z' {
				n++
			}
		}
		if n == 0 || time.Now().After(deadline) {
			return n
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// leftover reports whether a temporary tree is in dir.
func leftover(dir string) bool {
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), ".sitegen-tmp-") {
			return true
		}
	}
	return false
}
