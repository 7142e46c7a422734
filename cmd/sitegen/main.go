// Command sitegen builds a bilingual static site from Markdown and YAML
// content, Go templates and React islands.
package main

import (
	"context"
	"os"
	"os/signal"
	"runtime"
	"syscall"
)

func main() { os.Exit(mainCode()) }

// mainCode runs the CLI with the process's arguments; Ctrl+C and SIGTERM end
// long work (a build, serve) cleanly. Once one came, the signals have their
// default effect again: a second Ctrl+C ends the process at once.
func mainCode() int {
	sparePForSignals()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	context.AfterFunc(ctx, stop)
	return run(ctx, os.Args[1:], os.Stdout, os.Stderr)
}

// sparePForSignals gives the process one P (GOMAXPROCS) more than Go's
// default, the number of cores. The image encodes, which Go cannot
// preempt, take at most GOMAXPROCS-1 of them (images.EncodeWorkers): the
// P left answers Ctrl+C, removes the temporary tree and exits while every
// core encodes (bench/interrupt: with two busy loops beside the build, a
// stop took up to 2.1 s with GOMAXPROCS 2 and two encoders). A GOMAXPROCS
// the user set is kept.
func sparePForSignals() {
	if os.Getenv("GOMAXPROCS") == "" {
		runtime.GOMAXPROCS(runtime.GOMAXPROCS(0) + 1)
	}
}
