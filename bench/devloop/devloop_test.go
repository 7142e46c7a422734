// Package devloop measures the authoring loop of `sitegen serve`: the time
// from writing a source file to the reload event reaching an open tab, for a
// one-page Markdown edit, a data edit and a template edit, on the real site
// and on a generated site of 10,000 pages, and the memory the server holds.
//
//	go test ./bench/devloop -run '^$' -bench . -benchtime 10x -timeout 30m
//
// A tab is open on the page each edit shows (the edited page, or /pl/ for a
// data or template edit). Each iteration writes a file, waits for the event
// on the server's event stream (fsnotify → burst window → incremental
// rebuild → SSE) and asks for the page again, as the reloading tab does:
// ms/edit is the time from the write to the page's new bytes, event-ms to
// the event. Both include the watcher's quiet window
// (devserver.Options.Quiet).
package devloop

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"sitegen/internal/treetest"
	"sitegen/pkg/build"
	"sitegen/pkg/build/gensite"
	"sitegen/pkg/devserver"
)

type edit struct {
	name, file, old, new string
	append               bool // append to the file instead of replacing
}

type site struct {
	name  string
	make  func(tb testing.TB, dir string)
	edits []edit
}

var sites = []site{
	{"real", copyReal, []edit{
		{name: "page", file: "content/pl/blog/biznes/chatboty-w-obsludze-klienta.md", append: true},
		{name: "data", file: "content/pl/data/team.yaml", old: "Prezes Zarządu, współzałożyciel", new: "Prezes Zarządu i współzałożyciel"},
		{name: "template", file: "templates/base.html", old: "</body>", new: "<div hidden></div></body>"},
	}},
	{"gen10k", func(tb testing.TB, dir string) {
		if err := gensite.Write(dir, 5000); err != nil {
			tb.Fatal(err)
		}
	}, []edit{
		{name: "page", file: "content/pl/p/001234.md", append: true},
		{name: "data", file: "content/pl/data/cards.yaml", old: "Karta 3,", new: "Karta trzy,"},
		{name: "template", file: "templates/layouts/page.html", old: "<time>", new: "<time class=\"d\">"},
	}},
}

// edits counts the writes, so that each one differs from the last.
var edits int

func BenchmarkLoop(b *testing.B) {
	for _, s := range sites {
		b.Run(s.name, func(b *testing.B) {
			dir := b.TempDir()
			s.make(b, dir)
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			start := time.Now()
			srv, err := devserver.New(ctx, devserver.Options{Build: build.Options{Source: dir, Date: "2026-01-01", Minify: true}})
			if err != nil {
				b.Fatal(err)
			}
			defer srv.Close()
			cold := time.Since(start)
			hs := httptest.NewServer(srv)
			defer hs.Close()
			defer cancel()
			go srv.Watch(ctx)
			events := listen(b, ctx, hs.URL)
			time.Sleep(200 * time.Millisecond) // let the watcher start
			b.Logf("%s: cold build %d ms; %s", s.name, cold.Milliseconds(), memory())
			for _, e := range s.edits {
				b.Run(e.name, func(b *testing.B) {
					p := filepath.Join(dir, e.file)
					open := hs.URL + tabURL(b, p, e)
					fetch(b, open) // the open tab
					var total, toEvent time.Duration
					b.ResetTimer()
					for i := 0; i < b.N; i++ {
						// Every write differs from what is there (the
						// benchmark function runs more than once).
						cur, err := os.ReadFile(p)
						if err != nil {
							b.Fatal(err)
						}
						edits++
						var next []byte
						switch {
						case e.append:
							next = append(cur, fmt.Sprintf("\nEdit number %d.\n", edits)...)
						case bytes.Contains(cur, []byte(e.old)):
							next = bytes.Replace(cur, []byte(e.old), []byte(e.new), 1)
						default:
							next = bytes.Replace(cur, []byte(e.new), []byte(e.old), 1)
						}
						t0 := time.Now()
						if err := os.WriteFile(p, next, 0o644); err != nil {
							b.Fatal(err)
						}
						var ev event
						select {
						case ev = <-events:
						case <-time.After(time.Minute):
							b.Fatalf("no event a minute after writing %s", e.file)
						}
						toEvent += time.Since(t0)
						if ev.name != "reload" {
							b.Fatalf("event %s %s", ev.name, ev.data)
						}
						fetch(b, open)
						total += time.Since(t0)
					}
					b.ReportMetric(float64(total.Microseconds())/1000/float64(b.N), "ms/edit")
					b.ReportMetric(float64(toEvent.Microseconds())/1000/float64(b.N), "event-ms")
					b.ReportMetric(float64(cold.Milliseconds()), "cold-ms")
					runtime.GC()
					var m runtime.MemStats
					runtime.ReadMemStats(&m)
					b.ReportMetric(float64(m.HeapInuse)/(1<<20), "heap-MB")
					b.ReportMetric(float64(rssKB())/1024, "RSS-MB")
				})
			}
		})
	}
}

// tabURL is the page a tab shows while e is made: the edited page, or the
// Polish home page.
func tabURL(tb testing.TB, file string, e edit) string {
	if !e.append {
		return "/pl/"
	}
	b, err := os.ReadFile(file)
	if err != nil {
		tb.Fatal(err)
	}
	for _, l := range strings.Split(string(b), "\n") {
		if slug, ok := strings.CutPrefix(l, "slug: "); ok {
			return "/pl/" + strings.Trim(slug, `"/ `) + "/"
		}
	}
	tb.Fatalf("%s has no slug", file)
	return ""
}

// fetch asks for a page, which must answer 200.
func fetch(tb testing.TB, url string) {
	resp, err := http.Get(url)
	if err != nil {
		tb.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 {
		tb.Fatalf("%s: %d", url, resp.StatusCode)
	}
}

type event struct{ name, data string }

func listen(tb testing.TB, ctx context.Context, base string) <-chan event {
	req, _ := http.NewRequestWithContext(ctx, "GET", base+devserver.EventsPath, nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		tb.Fatal(err)
	}
	out := make(chan event, 16)
	go func() {
		defer resp.Body.Close()
		r := bufio.NewReader(resp.Body)
		var ev event
		for {
			line, err := r.ReadString('\n')
			if err != nil {
				return
			}
			line = strings.TrimRight(line, "\n")
			switch {
			case strings.HasPrefix(line, "event: "):
				ev.name = line[7:]
			case strings.HasPrefix(line, "data: "):
				ev.data = line[6:]
			case line == "" && ev.name != "":
				if ev.name != "hello" {
					out <- ev
				}
				ev = event{}
			}
		}
	}()
	return out
}

func memory() string {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return fmt.Sprintf("heap in use %.1f MB, RSS %.1f MB", float64(m.HeapInuse)/(1<<20), float64(rssKB())/1024)
}

func rssKB() int {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, "VmRSS:"); ok {
			n, _ := strconv.Atoi(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")))
			return n
		}
	}
	return 0
}

// copyReal copies the repository's own site.
func copyReal(tb testing.TB, dir string) {
	root, err := filepath.Abs("../..")
	if err != nil {
		tb.Fatal(err)
	}
	for _, d := range []string{"site.yaml", "schema.yaml", "content", "templates", "assets", "package.json", "package-lock.json"} {
		treetest.Copy(tb, filepath.Join(root, d), filepath.Join(dir, d))
	}
	if err := os.Symlink(filepath.Join(root, "node_modules"), filepath.Join(dir, "node_modules")); err != nil {
		tb.Fatal(err)
	}
}
