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
// long work (serve) cleanly.
func mainCode() int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return run(ctx, os.Args[1:], os.Stdout, os.Stderr)
}
