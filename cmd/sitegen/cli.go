package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"runtime/debug"
	"runtime/pprof"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"sitegen/pkg/build"
	"sitegen/pkg/cache"
	"sitegen/pkg/config"
	"sitegen/pkg/devserver"
	"sitegen/pkg/devsession"
	"sitegen/pkg/diag"
	"sitegen/pkg/images"
	"sitegen/pkg/memlimit"
	"sitegen/pkg/output"
)

// Exit codes.
const (
	exitOK      = 0
	exitContent = 1   // the site has errors
	exitUsage   = 2   // the command line is wrong (also: an --out the build refuses to replace)
	exitStopped = 130 // interrupted by Ctrl+C or SIGTERM; the previous output is unchanged
)

type usageError struct{ error }

var dateRE = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}$`)

// run executes the CLI and returns the exit code.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	root := newRoot(stdout, stderr)
	root.SetArgs(args)
	err := root.ExecuteContext(ctx)
	switch code := exitCode(ctx, err); code {
	case exitUsage:
		if errors.As(err, new(*output.RefusedError)) {
			fmt.Fprintf(stderr, "sitegen: %v\n", err)
		} else {
			fmt.Fprintf(stderr, "sitegen: %v\nRun 'sitegen --help' for usage.\n", err)
		}
		return code
	case exitStopped:
		fmt.Fprintf(stderr, "sitegen: interrupted; %s\n", outputFate(err))
		return code
	case exitContent:
		if !errors.As(err, new(checkFailed)) { // a check printed its findings
			printErr(stderr, err)
		}
		return code
	default:
		return code
	}
}

// exitCode maps a command's error to the process exit code: usage errors and
// an --out the build refuses to replace are 2; an interrupted command is 130;
// everything else, site errors and internal errors (recovered panics) alike,
// is 1.
func exitCode(ctx context.Context, err error) int {
	switch {
	case err == nil:
		return exitOK
	case errors.As(err, new(usageError)), errors.As(err, new(*output.RefusedError)):
		return exitUsage
	case errors.Is(err, context.Canceled) && ctx.Err() != nil:
		return exitStopped
	}
	return exitContent
}

// noBuild marks errors of commands that write no output (sitegen schema):
// their summary says what failed instead of "build failed".
type noBuild struct {
	what string
	err  error
	note string // said after the count, e.g. "nothing was written"
}

func (e noBuild) Error() string { return e.err.Error() }
func (e noBuild) Unwrap() error { return e.err }

// buildFailed is the error of a build into a folder: whether the folder
// held an output before, so the summary says what became of it.
type buildFailed struct {
	err       error
	out       string
	hadOutput bool
}

func (e buildFailed) Error() string { return e.err.Error() }
func (e buildFailed) Unwrap() error { return e.err }

// outputFate says what a failed or stopped command left of its output: a
// build into a folder that held one left it unchanged; a first build wrote
// nothing; other commands (check, serve) write no output at all.
func outputFate(err error) string {
	var bf buildFailed
	switch {
	case !errors.As(err, &bf):
		return "nothing was written"
	case bf.hadOutput:
		return "the previous output is unchanged"
	default:
		return "nothing was written (there was no previous output in " + bf.out + ")"
	}
}

func printErr(w io.Writer, err error) {
	var list diag.List
	var d diag.Diagnostic
	n := 0
	switch {
	case errors.As(err, &list):
		for _, x := range list.Sort() {
			fmt.Fprintln(w, x.Pretty())
		}
		n = list.Errors()
	case errors.As(err, &d):
		fmt.Fprintln(w, d.Pretty())
		n = 1
	default:
		fmt.Fprintf(w, "sitegen: %v\n", err)
		return
	}
	errs := "1 error"
	if n != 1 {
		errs = fmt.Sprintf("%d errors", n)
	}
	var nb noBuild
	if errors.As(err, &nb) {
		if nb.note != "" {
			errs += "; " + nb.note
		}
		fmt.Fprintf(w, "sitegen: %s has %s\n", nb.what, errs)
		return
	}
	fmt.Fprintf(w, "sitegen: build failed with %s; %s\n", errs, outputFate(err))
}

func newRoot(stdout, stderr io.Writer) *cobra.Command {
	root := &cobra.Command{
		Use:           "sitegen",
		Short:         "Build a bilingual static site from Markdown, YAML, Go templates and React islands",
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetOut(stdout)
	root.SetErr(stderr)
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return usageError{err} })
	root.AddCommand(newBuild(stdout, stderr), newServe(stdout, stderr), newForms(stdout, stderr), newVersion(stdout), newSchema(stdout))
	root.AddCommand(newCheck(stdout, stderr), newNew(stdout, stderr), newInit(stdout), newHighlightCSS(stdout))
	root.Args = func(cmd *cobra.Command, args []string) error {
		if len(args) > 0 {
			return usageError{fmt.Errorf("unknown command %q", args[0])}
		}
		return nil
	}
	root.RunE = func(cmd *cobra.Command, args []string) error { return cmd.Help() }
	return root
}

func buildFlags(cmd *cobra.Command, o *build.Options) {
	cmd.Flags().StringVarP(&o.Source, "source", "s", ".", "site root (holds site.yaml)")
	cmd.Flags().StringVar(&o.BaseURL, "base-url", "", "override site.yaml's baseURL")
	cmd.Flags().BoolVar(&o.Drafts, "drafts", false, "include pages marked draft: true")
	cmd.Flags().StringVar(&o.Date, "date", "", "the build date (YYYY-MM-DD) for dated content such as announcements; default today")
	cmd.Flags().BoolVar(&o.Minify, "minify", true, "minify bundled CSS and JavaScript, and the HTML pages")
	if dir, err := cache.DefaultDir(); err == nil {
		o.CacheDir = dir
	}
	cmd.Flags().StringVar(&o.CacheDir, "cache-dir", o.CacheDir, "folder of the build cache (pages, esbuild bundles, Markdown and island renders, addressed by content); empty: no cache")
	var noCache bool
	cmd.Flags().BoolVar(&noCache, "no-cache", false, "neither read nor write the build cache")
	cmd.PreRun = func(*cobra.Command, []string) {
		if noCache {
			o.CacheDir = ""
		}
	}
	cmd.Flags().StringVar(&o.Host, "host", "", "the host that serves the output: "+strings.Join(output.HostNames(), ", ")+" (default: site.yaml's host, else static)")
	cmd.Flags().StringVar(&o.ImageCache, "image-cache", "", "folder of encoded images kept between builds (default sitegen/images in the user cache folder; site.yaml's images.keepInSite keeps them in the site too)")
}

func errUnexpected(arg string) error { return fmt.Errorf("unexpected argument %q", arg) }

func checkOpts(o *build.Options, args []string) error {
	if len(args) > 0 {
		return usageError{errUnexpected(args[0])}
	}
	if o.Date != "" {
		if !dateRE.MatchString(o.Date) {
			return usageError{fmt.Errorf("--date %q must be YYYY-MM-DD", o.Date)}
		}
		if _, err := time.Parse(time.DateOnly, o.Date); err != nil {
			return usageError{fmt.Errorf("--date %q is not a calendar date", o.Date)}
		}
	}
	if o.BaseURL != "" {
		if _, err := config.CheckBaseURL(o.BaseURL); err != nil {
			return usageError{fmt.Errorf("--base-url %v", err)}
		}
	}
	if _, err := output.ParseHost(o.Host); err != nil {
		return usageError{fmt.Errorf("--host: %v", err)}
	}
	for _, c := range []struct{ flag, dir string }{{"--cache-dir", o.CacheDir}, {"--image-cache", o.ImageCache}} {
		if err := output.GuardCache(o.Source, c.flag, c.dir); err != nil {
			return usageError{err}
		}
	}
	return nil
}

// A build's collector settings (see package memlimit): the collector runs
// only when the heap reaches twice the live data plus a window of 128 MiB.
// A build's live heap is small (its pages' metadata; rendered pages are
// written and forgotten) and its life short: with GOGC=100 alone it
// collected dozens of times while the heap was a few MB. In a container,
// the limit stays under half of its memory. GOGC and GOMEMLIMIT override
// them.
// Measured in RAM, interleaved, against GOGC=200 under a 192 MiB limit:
// 10,000 pages 1.48 -> 1.37 s for 108 -> 179 MB of peak memory, 50,000
// pages 8.29 -> 7.50 s for 216 -> 248 MB, 100,000 pages 381 -> 321 MB.
// The room above the live data grows with it (issue 37): the limit counts
// all of the runtime's memory, not the heap alone, so of 128 MiB only
// about 70 MB was room for the heap to grow, and at 50,000 pages (150 MB
// live, marked by every collection) the build collected 73 times, 14-16%
// of its CPU. Half the live data on top of the window: 45 times, 10%
// (GODEBUG=gctrace=1), 445 MB of peak memory. All of it (GOGC=100's room):
// 31 -> 24 collections with the build cache's entries, 398 -> 486 MB
// (Hugo: 3.6 GB), for about 4% of the wall time; twice it made 17
// collections, 620 MB, for 4% more (bench/ssgbench/RESULTS.md, "Issue
// 37 item 3, third round").
const (
	buildGCPercent    = -1 // collect at the window only
	buildMemoryWindow = 128 << 20
)

// buildCollector applies the build's collector settings until the
// returned func is called, which restores the previous ones, unless ctx
// ended: a stopped build keeps collections off (noMoreCollections) until
// the process ends, for a collection that started then would wait for
// the encodes under way (restoring GOGC=100 made one start at once).
func buildCollector(ctx context.Context) (restore func()) {
	stop := memlimit.Start(ctx, memlimit.Settings{Window: buildMemoryWindow, GCPercent: buildGCPercent, Ceiling: memlimit.ContainerLimit()})
	return func() {
		if ctx.Err() == nil {
			stop()
		}
	}
}

func newBuild(stdout, stderr io.Writer) *cobra.Command {
	var o build.Options
	var cpuprofile, memprofile string
	cmd := &cobra.Command{
		Use:   "build",
		Short: "Build the site into the output directory",
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := checkOpts(&o, args); err != nil {
				return err
			}
			defer buildCollector(cmd.Context())()
			if cpuprofile != "" {
				f, err := os.Create(cpuprofile)
				if err != nil {
					return err
				}
				defer f.Close()
				if err := pprof.StartCPUProfile(f); err != nil {
					return err
				}
				defer pprof.StopCPUProfile()
			}
			if memprofile != "" {
				o.AfterWrite = func() error { return writeHeapProfile(memprofile) }
			}
			o.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
			_, statErr := os.Lstat(o.Out)
			rep, err := runStoppable(cmd.Context(), o)
			if err != nil {
				return buildFailed{err: err, out: o.Out, hadOutput: statErr == nil}
			}
			printReport(stdout, rep)
			return nil
		},
	}
	buildFlags(cmd, &o)
	cmd.Flags().StringVarP(&o.Out, "out", "o", "public", "output directory (replaced atomically)")
	cmd.Flags().StringVar(&cpuprofile, "cpuprofile", "", "write a CPU profile of the build to this file")
	cmd.Flags().MarkHidden("cpuprofile")
	cmd.Flags().StringVar(&memprofile, "memprofile", "", "write a heap profile to this file once every page is written (the site still loaded)")
	cmd.Flags().MarkHidden("memprofile")
	cmd.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return usageError{err} })
	return cmd
}

// runStoppable runs a build that Ctrl+C or SIGTERM (ctx) stops: every step
// of the build notices within a fraction of a second (bench/interrupt
// measures it), drops the work under way and removes the temporary tree;
// the command returns once the tree is gone, the previous output as it was.
// A second Ctrl+C ends the process at once (see mainCode), and the next
// build removes what it left.
func runStoppable(ctx context.Context, o build.Options) (*build.Report, error) {
	defer context.AfterFunc(ctx, noMoreCollections)()
	rep, err := build.Run(ctx, o)
	if err != nil && ctx.Err() != nil {
		return nil, ctx.Err()
	}
	return rep, err // a build that committed just as the signal came succeeded
}

// noMoreCollections turns the garbage collector off for a build that is
// stopping. A collection stops every goroutine, and waits for those in an
// AVIF encode (WebAssembly, which Go cannot preempt) to come out of it, up
// to seconds on a loaded machine: the removal of the temporary tree and
// the exit waited with them. The encodes under way are dropped anyway, and
// the process ends within a second.
func noMoreCollections() {
	debug.SetGCPercent(-1)
	debug.SetMemoryLimit(math.MaxInt64)
}

// writeHeapProfile writes the heap profile (live and allocated since the
// start) to file.
func writeHeapProfile(file string) error {
	f, err := os.Create(file)
	if err != nil {
		return err
	}
	runtime.GC()
	if err := pprof.Lookup("heap").WriteTo(f, 0); err != nil {
		f.Close()
		return fmt.Errorf("write heap profile: %w", err)
	}
	return f.Close()
}

func printReport(w io.Writer, rep *build.Report) {
	for _, m := range rep.Metadata {
		fmt.Fprintf(w, "%s: warning: %s\n", m.File, m.Message())
	}
	for _, f := range rep.Fallbacks {
		fmt.Fprintf(w, "fallback: page %q is missing in %s; showing %s\n", f.ID, f.Lang, f.From)
	}
	for _, d := range rep.DataFallbacks {
		fmt.Fprintf(w, "fallback: data set %q is missing in %s; using the default locale's\n", d[1], d[0])
	}
	missing := map[string]bool{}
	for _, m := range rep.StringMisses {
		switch {
		case m.Found:
			fmt.Fprintf(w, "fallback: string %q is missing in %s; using the default locale's\n", m.Key, m.Lang)
		case !missing[m.Key]:
			missing[m.Key] = true
			fmt.Fprintf(w, "missing: string %q is in no locale; showing the key or the template's default\n", m.Key)
		}
	}
	layouts := make([]string, 0, len(rep.JS))
	for l := range rep.JS {
		layouts = append(layouts, l)
	}
	sort.Strings(layouts)
	for _, l := range layouts {
		js := rep.JS[l]
		islands := "no islands"
		if len(js.Islands) > 0 {
			islands = strings.Join(js.Islands, ", ")
		}
		fmt.Fprintf(w, "js: %-10s %6.1f KB gzip (%s; largest: %s)\n", l, float64(js.GzipBytes)/1024, islands, js.Page)
	}
	if rep.CacheWarning != "" {
		fmt.Fprintf(w, "cache: %s\n", rep.CacheWarning)
	}
	if rep.CacheHits+rep.CacheMisses > 0 {
		fmt.Fprintf(w, "cache: %d of %d lookups hit (pages, template names, bundles, Markdown, island renders); %d template sets parsed, %d esbuild runs\n",
			rep.CacheHits, rep.CacheHits+rep.CacheMisses, rep.TemplateSets, rep.EsbuildRuns)
	}
	if rep.Runtime > 0 {
		fmt.Fprintf(w, "js: runtime    %6.1f KB gzip (included in every total above)\n", float64(rep.Runtime)/1024)
	}
	if rep.SSRCalls > 0 {
		fmt.Fprintf(w, "islands: bundled in %d ms; %d island renders (%d ran JS), %d ms of SSR\n",
			rep.IslandsBundle.Milliseconds(), rep.SSRCalls, rep.SSREngine, rep.SSRTime.Milliseconds())
	}
	if rep.Images != (images.Stats{}) {
		fmt.Fprintln(w, rep.Images.Summary())
	}
	fmt.Fprintln(w, rep.Summary())
}

func newServe(stdout, stderr io.Writer) *cobra.Command {
	var o build.Options
	var port int
	var cacheMB int64
	var bind, formsDB string
	cmd := &cobra.Command{
		Use:   "serve",
		Short: "Serve the site on localhost from memory, rebuilding what each edit affects",
		Long: `Serve loads the site into memory, renders each page when it is asked for,
and serves it as the host would (aliases, per-locale 404 pages, trailing
slashes, headers); the pages never asked for render in the background for
their errors. It watches site.yaml, content/, templates/ and assets/,
forgets only the pages an edit affects, and reloads open tabs; a stylesheet
edit swaps the stylesheet in place. An error shows over the page and in the
terminal while the last good site stays served. The rendered pages kept are
bounded by --cache-mb. Nothing is written to disk.`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := checkOpts(&o, args); err != nil {
				return err
			}
			if port < 0 || port > 65535 {
				return usageError{fmt.Errorf("--port %d is out of range", port)}
			}
			if _, err := os.Stat(filepath.Join(o.Source, config.FileName)); err != nil {
				return usageError{fmt.Errorf("no %s in %s: run sitegen serve in a site folder or pass --source", config.FileName, o.Source)}
			}
			log := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
			o.Logger = log
			// The build's collector: the heap grows at most a window
			// above the live data (pages rendered are garbage at once).
			defer memlimit.Start(cmd.Context(), memlimit.Settings{Window: buildMemoryWindow, GCPercent: buildGCPercent, Ceiling: memlimit.ContainerLimit()})()
			srv, err := devserver.New(cmd.Context(), devserver.Options{Build: o, Cache: cacheMB << 20, Out: stdout, Log: log})
			if err != nil {
				return err
			}
			defer srv.Close()
			// The form handler reads its schema from the build; the dev
			// server keeps the build in memory, so the schema goes to a
			// temporary folder (with the forms database unless --forms-db).
			dir, err := os.MkdirTemp("", "sitegen-serve-")
			if err != nil {
				return err
			}
			defer os.RemoveAll(dir)
			if err := writeSchemas(srv, dir); err != nil {
				return err
			}
			handler, closeForms, err := mountForms(cmd.Context(), srv, dir, formsDB, dir, log, stdout)
			if err != nil {
				return err
			}
			defer closeForms()
			return srv.Serve(cmd.Context(), net.JoinHostPort(bind, strconv.Itoa(port)), handler, func(url string) {
				fmt.Fprintf(stdout, "serving %s at %s (watching for changes; Ctrl+C to stop)\n", srv.Title(), url)
			})
		},
	}
	buildFlags(cmd, &o)
	cmd.Flags().Int64Var(&cacheMB, "cache-mb", devsession.DefaultCache>>20, "megabytes of rendered pages the server keeps in memory (the pages asked for last)")
	cmd.Flags().IntVarP(&port, "port", "p", 1313, "port to listen on")
	cmd.Flags().StringVar(&bind, "bind", "127.0.0.1", "the address to listen on (0.0.0.0: every interface)")
	cmd.Flags().StringVar(&formsDB, "forms-db", "", "database of the form handler, for a site with one form (default: a SQLite file per form in the temporary folder)")
	cmd.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return usageError{err} })
	return cmd
}
