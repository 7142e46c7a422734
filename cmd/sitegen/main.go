// Command sitegen builds a bilingual static site from Markdown and YAML
// content, Go templates and React islands.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"
)

func main() { os.Exit(mainCode()) }

// mainCode runs the CLI with the process's arguments; Ctrl+C and SIGTERM end
// long work (a build, serve) cleanly. Once one came, the signals have their
// default effect again: a second Ctrl+C ends the process at once.
func mainCode() int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	context.AfterFunc(ctx, stop)
	return run(ctx, os.Args[1:], os.Stdout, os.Stderr)
}
