// Command pagebytes measures the bytes of one page per page type and
// language, before and after: it builds the site at a "before" commit and
// at the working tree (or an "after" commit) into temporary folders, never
// touching the repository's tree or its public/, and prints a Markdown table
// per build with the totals and a comparison of the totals.
//
// Per page: the HTML (raw and gzip), the CSS it links or inlines, the
// JavaScript it loads at startup (scripts and modulepreloads), each file
// gzipped on its own, and the image bytes above the fold, measured in
// headless Chromium: the page is served from 127.0.0.1 and loaded in a fresh
// browser context at each viewport, and the bytes the browser fetched for
// the images whose box meets the first viewport are summed (Resource Timing,
// encoded body size: the srcset candidate the browser chose).
//
//	go run -tags=nodynamic ./bench/pagebytes [-before COMMIT] [-after COMMIT]
//	make pagebytes [PAGEBYTES_BEFORE=COMMIT] [PAGEBYTES_AFTER=COMMIT]
//
// The default before is the parent of the first commit that touched
// pkg/images (the site before the image pipeline); the default after is the
// working tree, tracked and untracked files that are not ignored.
package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
)

// page is one page type in one language.
type page struct{ kind, lang, url string }

// defaultPages: one page per page type and language of the real site.
var defaultPages = []page{
	{"home", "pl", "/pl/"},
	{"home", "en", "/en/"},
	{"solution", "pl", "/pl/rozwiazania/obsluga-klienta/"},
	{"solution", "en", "/en/solutions/support/"},
	{"blog list", "pl", "/pl/blog/"},
	{"blog list", "en", "/en/blog/"},
	{"blog post", "pl", "/pl/blog/biznes/chatboty-w-obsludze-klienta/"},
	{"blog post", "en", "/en/blog/business/chatbots-in-customer-service/"},
	{"devblog post", "pl", "/pl/devblog/wdrozenie-platformy-on-premise/"},
	{"devblog post", "en", "/en/devblog/deploying-the-platform-on-premise/"},
	{"events", "pl", "/pl/wydarzenia/"},
	{"events", "en", "/en/events/"},
	{"media", "pl", "/pl/media/"},
	{"media", "en", "/en/media/"},
	{"investors", "pl", "/pl/dla-inwestorow/informacje-ogolne/"},
	{"investors", "en", "/en/for-investors/investors/"},
	{"investor reports", "pl", "/pl/dla-inwestorow/raporty/"},
	{"investor reports", "en", "/en/for-investors/raports/"},
	{"contact/demo", "pl", "/pl/o-nas/kontakt/"},
	{"contact/demo", "en", "/en/about-us/contact/"},
	{"404", "pl", "/pl/404/"},
	{"404", "en", "/en/404/"},
}

type options struct {
	before, after string
	pagesFile     string
	viewports     []viewport
	chromium      string
	imageCache    string
	gzipLevel     int
	keep, verbose bool
}

func main() {
	var o options
	var vps string
	flag.StringVar(&o.before, "before", os.Getenv("PAGEBYTES_BEFORE"), "commit of the \"before\" build (default $PAGEBYTES_BEFORE, else the parent of the first commit touching pkg/images)")
	flag.StringVar(&o.after, "after", os.Getenv("PAGEBYTES_AFTER"), "commit of the \"after\" build (default $PAGEBYTES_AFTER, else the working tree)")
	flag.StringVar(&o.pagesFile, "pages", "", "file of pages to measure, one \"TYPE|LANG|/url/\" a line (default: one per page type and language of the real site)")
	flag.StringVar(&vps, "viewports", "390x844@3,1280x800@1", "viewports for the images above the fold, WIDTHxHEIGHT@PIXELRATIO")
	flag.StringVar(&o.chromium, "chromium", "/usr/bin/chromium", "Chromium to load the pages in")
	flag.StringVar(&o.imageCache, "image-cache", os.TempDir()+"/sitegen-pagebytes-images", "image cache for the builds (kept between runs; outside the repository)")
	flag.IntVar(&o.gzipLevel, "gzip", 6, "gzip level of the gzip columns")
	flag.BoolVar(&o.keep, "keep", false, "keep the temporary trees and outputs (their folder is printed)")
	flag.BoolVar(&o.verbose, "v", false, "list the files and images counted per page")
	flag.Parse()
	var err error
	if o.viewports, err = parseViewports(vps); err != nil {
		log.Fatal(err)
	}
	if err := run(context.Background(), o, os.Stdout, os.Stderr); err != nil {
		log.Fatal(err)
	}
}

func readPages(file string) ([]page, error) {
	if file == "" {
		return defaultPages, nil
	}
	f, err := os.Open(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []page
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		l := strings.TrimSpace(sc.Text())
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		f := strings.Split(l, "|")
		if len(f) != 3 || !strings.HasPrefix(strings.TrimSpace(f[2]), "/") {
			return nil, fmt.Errorf("%s:%d: want TYPE|LANG|/url/", file, n)
		}
		out = append(out, page{strings.TrimSpace(f[0]), strings.TrimSpace(f[1]), strings.TrimSpace(f[2])})
	}
	return out, sc.Err()
}

// row is one page's measurements in one build.
type row struct {
	page
	missing       bool // not in this build
	html, css, js size
	fold          []int // image bytes above the fold, per viewport
}

func run(ctx context.Context, o options, stdout, logw io.Writer) error {
	pages, err := readPages(o.pagesFile)
	if err != nil {
		return err
	}
	repo, err := git(ctx, ".", "rev-parse", "--show-toplevel")
	if err != nil {
		return err
	}
	if o.before == "" {
		if o.before, err = defaultBefore(ctx, repo); err != nil {
			return err
		}
	}
	tmp, err := os.MkdirTemp("", "sitegen-pagebytes-")
	if err != nil {
		return err
	}
	if o.keep {
		fmt.Fprintf(logw, "pagebytes: trees and outputs kept in %s\n", tmp)
	} else {
		defer os.RemoveAll(tmp)
	}
	if err := os.MkdirAll(o.imageCache, 0o755); err != nil {
		return err
	}
	sides := []*side{{name: "before", commit: o.before}, {name: "after", commit: o.after}}
	for _, s := range sides {
		if s.commit != "" {
			full, err := git(ctx, repo, "rev-parse", "--verify", s.commit+"^{commit}")
			if err != nil {
				return err
			}
			s.commit = full
			subject, _ := git(ctx, repo, "log", "-1", "--format=%h %s", full)
			s.label = "commit " + subject
		} else {
			head, _ := git(ctx, repo, "log", "-1", "--format=%h", "HEAD")
			dirty, _ := git(ctx, repo, "status", "--porcelain", "--untracked-files=normal")
			s.label = "working tree at " + head
			if dirty != "" {
				s.label += " with uncommitted changes"
			}
		}
		s.dir = tmp + "/" + s.name
		s.src, s.out = s.dir+"/src", s.dir+"/public"
		fmt.Fprintf(logw, "pagebytes: building %s (%s)\n", s.name, s.label)
		if err := s.materialize(ctx, repo); err != nil {
			return err
		}
		if err := s.build(ctx, o.imageCache, logw); err != nil {
			return err
		}
	}
	if _, err := exec.LookPath(o.chromium); err != nil {
		return fmt.Errorf("chromium: %v (give -chromium)", err)
	}
	bctx, stop, err := startBrowser(o.chromium)
	if err != nil {
		return err
	}
	defer stop()
	results := make([][]row, len(sides))
	extra := map[lateKey]int{} // scripts fetched that the pages do not name
	for i, s := range sides {
		base, closeSrv, err := serve(s.out)
		if err != nil {
			return err
		}
		for _, p := range pages {
			r := row{page: p, fold: make([]int, len(o.viewports))}
			if _, err := os.Stat(pageFile(s.out, p.url)); err != nil {
				r.missing = true
				fmt.Fprintf(logw, "pagebytes: %s has no %s\n", s.name, p.url)
				results[i] = append(results[i], r)
				continue
			}
			sb, err := measureStatic(s.out, p.url, o.gzipLevel)
			if err != nil {
				closeSrv()
				return fmt.Errorf("%s: %v", s.name, err)
			}
			r.html, r.css, r.js = sb.html, sb.css, sb.js
			if o.verbose {
				fmt.Fprintf(logw, "%s %s: css+js %s\n", s.name, p.url, strings.Join(sb.files, " "))
			}
			for j, v := range o.viewports {
				f, err := measureFold(bctx, base+p.url, v)
				if err != nil {
					closeSrv()
					return fmt.Errorf("%s: %v", s.name, err)
				}
				r.fold[j] = f.Bytes
				for _, js := range f.Scripts {
					if !slices.Contains(sb.files, js) {
						extra[lateKey{s.name, v.String(), js}]++
					}
				}
				if o.verbose {
					fmt.Fprintf(logw, "%s %s at %s: %s\n", s.name, p.url, v, strings.Join(f.Images, ", "))
				}
			}
			results[i] = append(results[i], r)
		}
		closeSrv()
	}
	report(stdout, o, sides, results)
	if len(extra) > 0 {
		keys := make([]lateKey, 0, len(extra))
		for k := range extra {
			keys = append(keys, k)
		}
		slices.SortFunc(keys, func(a, b lateKey) int { return strings.Compare(a.side+a.viewport+a.script, b.side+b.viewport+b.script) })
		fmt.Fprintf(stdout, "\nScripts the browser also fetched, by then, that the HTML does not name (islands hydrated on load or on visibility; not in the JS column):\n\n")
		for _, k := range keys {
			sz := ""
			for _, s := range sides {
				if b, err := os.ReadFile(filepath.Join(s.out, filepath.FromSlash(k.script))); s.name == k.side && err == nil {
					sz = fmt.Sprintf(" (%d bytes, %d gzip)", len(b), gzipLen(b, o.gzipLevel))
				}
			}
			fmt.Fprintf(stdout, "- %s at %s: %s%s on %d of %d pages\n", k.side, k.viewport, k.script, sz, extra[k], len(pages))
		}
	}
	return nil
}

// lateKey names a script fetched by pages of one build at one viewport.
type lateKey struct{ side, viewport, script string }

func report(w io.Writer, o options, sides []*side, results [][]row) {
	totals := make([]row, len(sides))
	for i, s := range sides {
		fmt.Fprintf(w, "\n### %s: %s\n\n", s.name, s.label)
		head := "| page | lang | HTML | HTML gz | CSS | CSS gz | JS | JS gz |"
		line := "|---|---|--:|--:|--:|--:|--:|--:|"
		for _, v := range o.viewports {
			head += fmt.Sprintf(" img above fold %s |", v)
			line += "--:|"
		}
		fmt.Fprintln(w, head)
		fmt.Fprintln(w, line)
		t := row{fold: make([]int, len(o.viewports))}
		for _, r := range results[i] {
			if r.missing {
				fmt.Fprintf(w, "| %s | %s | (no %s) |\n", r.kind, r.lang, r.url)
				continue
			}
			fmt.Fprintf(w, "| %s | %s | %s |\n", r.kind, r.lang, strings.Join(cells(r), " | "))
			t.html, t.css, t.js = t.html.add(r.html), t.css.add(r.css), t.js.add(r.js)
			for j := range r.fold {
				t.fold[j] += r.fold[j]
			}
		}
		fmt.Fprintf(w, "| **total** | | %s |\n", strings.Join(cells(t), " | "))
		totals[i] = t
	}
	if len(sides) == 2 {
		a, b := totals[0], totals[1]
		fmt.Fprintf(w, "\n### totals, before → after\n\n")
		fmt.Fprintln(w, "| column | before | after | change |")
		fmt.Fprintln(w, "|---|--:|--:|--:|")
		pair := func(name string, x, y int) {
			ch := "—"
			if x != 0 {
				ch = fmt.Sprintf("%+.1f%%", 100*float64(y-x)/float64(x))
			}
			fmt.Fprintf(w, "| %s | %d | %d | %s |\n", name, x, y, ch)
		}
		pair("HTML", a.html.raw, b.html.raw)
		pair("HTML gz", a.html.gz, b.html.gz)
		pair("CSS", a.css.raw, b.css.raw)
		pair("CSS gz", a.css.gz, b.css.gz)
		pair("JS", a.js.raw, b.js.raw)
		pair("JS gz", a.js.gz, b.js.gz)
		for j, v := range o.viewports {
			pair("img above fold "+v.String(), a.fold[j], b.fold[j])
		}
	}
	fmt.Fprintf(w, "\nBytes. gz: each file gzipped on its own at level %d. CSS: linked and preloaded stylesheets plus inline <style> (inline CSS also counts in HTML). JS: external scripts and modulepreloads (inline scripts count in HTML only). Images: encoded body bytes the browser fetched (Resource Timing) for images whose box meets the first viewport, fresh browser context per load, service worker bypassed.\n", o.gzipLevel)
}

func cells(r row) []string {
	c := []string{
		fmt.Sprint(r.html.raw), fmt.Sprint(r.html.gz),
		fmt.Sprint(r.css.raw), fmt.Sprint(r.css.gz),
		fmt.Sprint(r.js.raw), fmt.Sprint(r.js.gz),
	}
	for _, f := range r.fold {
		c = append(c, fmt.Sprint(f))
	}
	return c
}
