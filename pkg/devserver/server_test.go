package devserver

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"

	"sitegen/internal/treetest"
	"sitegen/pkg/build"
)

const fixture = "../../testdata/sites/basic"

// bound is how long a test waits for an event before it fails: a bound for
// one that never comes, not a timing check.
const bound = 2 * time.Minute

// receive returns the next value of ch, or fails the test after bound.
func receive[T any](t *testing.T, ch <-chan T, what string) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(bound):
		t.Fatalf("no %s within %v", what, bound)
		var zero T
		return zero
	}
}

func copyTree(t *testing.T, src, dst string) { treetest.Copy(t, src, dst) }

type sse struct {
	Name string
	Data map[string]any
}

// listen opens the event stream and returns its events in order.
func listen(t *testing.T, ctx context.Context, base string) <-chan sse {
	t.Helper()
	req, _ := http.NewRequestWithContext(ctx, "GET", base+EventsPath, nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Fatalf("events Content-Type = %q", ct)
	}
	out := make(chan sse, 64)
	go func() {
		defer resp.Body.Close()
		defer close(out)
		r := bufio.NewReader(resp.Body)
		var ev sse
		for {
			line, err := r.ReadString('\n')
			if err != nil {
				return
			}
			line = strings.TrimRight(line, "\n")
			switch {
			case strings.HasPrefix(line, "event: "):
				ev.Name = strings.TrimPrefix(line, "event: ")
			case strings.HasPrefix(line, "data: "):
				json.Unmarshal([]byte(strings.TrimPrefix(line, "data: ")), &ev.Data)
			case line == "" && ev.Name != "":
				out <- ev
				ev = sse{}
			}
		}
	}()
	if ev := receive(t, out, "hello event"); ev.Name != "hello" {
		t.Fatalf("first event %q, want hello", ev.Name)
	}
	return out
}

// started serves a copy of the fixture site and watches it.
func started(t *testing.T) (dir, base string, s *Server, events <-chan sse) {
	t.Helper()
	return startedWith(t, nil)
}

// startedWith is started with prepare run on the copy before the first
// build (nil: none).
func startedWith(t *testing.T, prepare func(dir string)) (dir, base string, s *Server, events <-chan sse) {
	t.Helper()
	return startServer(t, prepare, nil)
}

// startServer is startedWith; with flush, bursts end by the flush hook
// (watcher.flush) instead of a quiet window.
func startServer(t *testing.T, prepare func(dir string), flush chan []string) (dir, base string, s *Server, events <-chan sse) {
	t.Helper()
	dir = t.TempDir()
	copyTree(t, fixture, dir)
	if prepare != nil {
		prepare(dir)
	}
	ctx, cancel := context.WithCancel(context.Background())
	// A long quiet window: every change of one test step lands in one
	// burst however loaded the machine is (the test never sleeps).
	s, err := New(ctx, Options{Build: build.Options{Source: dir, Date: "2026-01-01", Minify: true, ImageCache: t.TempDir()}, Quiet: 300 * time.Millisecond, flush: flush})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	t.Cleanup(func() { cancel(); s.events.close() }) // runs first: ends the event streams
	go s.Watch(ctx)
	receive(t, s.watching, "watcher")
	receive(t, s.checked, "the background check of every page")
	return dir, srv.URL, s, listen(t, ctx, srv.URL)
}

func write(t *testing.T, dir, rel, body string) {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}

func replace(t *testing.T, dir, rel, old, new string) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, rel))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), old) {
		t.Fatalf("%s has no %q", rel, old)
	}
	// Written whole under a hidden name, then renamed over the page: the
	// watcher's flush hook ends a burst at the page's first event, and an
	// in-place write's truncation is an event before the new bytes are
	// there (the quiet window covers that outside tests).
	tmp := filepath.Join(filepath.Dir(filepath.Join(dir, rel)), ".replace-"+filepath.Base(rel))
	if err := os.WriteFile(tmp, []byte(strings.Replace(string(b), old, new, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, filepath.Join(dir, rel)); err != nil {
		t.Fatal(err)
	}
}

func get(t *testing.T, url string) (int, string, http.Header) {
	t.Helper()
	c := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := c.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b), resp.Header
}

func strs(v any) []string {
	var out []string
	for _, x := range v.([]any) {
		out = append(out, x.(string))
	}
	return out
}

// TestServeRebuilds edits, saves by rename, renames and deletes files of a
// copy of the fixture site, and checks per burst the one event that arrives
// and which pages were rendered again. Events arrive in order, so an extra
// event for a burst would show up in place of the next step's. A step's
// burst ends by the flush hook once the watcher saw the step's paths, so no
// step races a quiet window.
func TestServeRebuilds(t *testing.T) {
	flush := make(chan []string)
	dir, base, s, events := startServer(t, nil, flush)
	steps := []struct {
		name   string
		paths  []string // what the watcher sees change
		change func()
		event  string
		pages  []string
	}{
		{"a burst of two edits", []string{"content/pl/kontakt.md", "content/en/contact.md"}, func() {
			replace(t, dir, "content/pl/kontakt.md", "Pisz na", "Napisz na")
			replace(t, dir, "content/en/contact.md", "Write to", "Do write to")
		}, "reload", []string{"/de/o-nas/kontakt/", "/en/about-us/contact/", "/pl/o-nas/kontakt/"}},
		{"an editor's save: write a temp file, rename it over the page", []string{"content/pl/kontakt.md"}, func() {
			b, _ := os.ReadFile(filepath.Join(dir, "content/pl/kontakt.md"))
			write(t, dir, "content/pl/.kontakt.md.swp", "swap")
			write(t, dir, "content/pl/kontakt.md~", string(b))
			write(t, dir, "content/pl/.kontakt.md.tmp", strings.Replace(string(b), "Napisz na", "Pisz do nas na", 1))
			if err := os.Rename(filepath.Join(dir, "content/pl/.kontakt.md.tmp"), filepath.Join(dir, "content/pl/kontakt.md")); err != nil {
				t.Fatal(err)
			}
			os.Remove(filepath.Join(dir, "content/pl/.kontakt.md.swp"))
		}, "reload", []string{"/de/o-nas/kontakt/", "/pl/o-nas/kontakt/"}},
		{"a rename moves the page", []string{"content/pl/blog/pierwszy.md", "content/pl/blog/drugi.md"}, func() {
			if err := os.Rename(filepath.Join(dir, "content/pl/blog/pierwszy.md"), filepath.Join(dir, "content/pl/blog/drugi.md")); err != nil {
				t.Fatal(err)
			}
		}, "reload", []string{"/de/blog/drugi/", "/en/blog/drugi/", "/pl/blog/drugi/"}},
		{"a deleted translation falls back to Polish", []string{"content/en/404.md"}, func() {
			if err := os.Remove(filepath.Join(dir, "content/en/404.md")); err != nil {
				t.Fatal(err)
			}
		}, "reload", []string{"/de/404/", "/en/404/", "/pl/404/"}}, // and the language switchers
		{"a stylesheet edit swaps the stylesheet", []string{"assets/css/main.css"}, func() {
			replace(t, dir, "assets/css/main.css", "{", "{ color: #123456;")
		}, "css", nil},
	}
	for _, st := range steps {
		select {
		case flush <- st.paths:
		case <-time.After(bound):
			t.Fatalf("%s: the watcher does not take the flush", st.name)
		}
		st.change()
		ev := receive(t, events, st.name+" event")
		if ev.Name != st.event {
			t.Fatalf("%s: event %q %v, want %q", st.name, ev.Name, ev.Data, st.event)
		}
		if st.pages != nil && !reflect.DeepEqual(strs(ev.Data["pages"]), st.pages) {
			t.Errorf("%s: rendered %v, want %v", st.name, ev.Data["pages"], st.pages)
		}
		// Every page rendered again (the background check) before the
		// next edit: the pages an edit affects are those of the whole site.
		receive(t, s.checked, st.name+": the background check")
	}

	// What the steps left is served with the host's semantics.
	if code, body, _ := get(t, base+"/pl/o-nas/kontakt/"); code != 200 || !strings.Contains(body, "Pisz do nas na") {
		t.Errorf("edited page: %d %q", code, body)
	}
	if code, _, _ := get(t, base+"/pl/blog/pierwszy/"); code != 404 {
		t.Errorf("renamed page's old path: %d, want 404", code)
	}
	if code, body, _ := get(t, base+"/en/nothing/"); code != 404 || !strings.Contains(body, "Nie znaleziono") || !strings.Contains(body, `data-sitegen-dev="fallback"`) {
		t.Errorf("English 404 after its deletion: %d, want the Polish one with the fallback marker:\n%s", code, body)
	}
	if code, _, h := get(t, base+"/kontakt-stary"); code != 301 || h.Get("Location") != "/pl/o-nas/kontakt/" {
		t.Errorf("alias: %d to %q", code, h.Get("Location"))
	}
	if code, _, h := get(t, base+"/pl/o-nas/kontakt"); code != 301 || h.Get("Location") != "/pl/o-nas/kontakt/" {
		t.Errorf("trailing slash: %d to %q", code, h.Get("Location"))
	}
	code, body, h := get(t, base+"/pl/")
	if code != 200 || !strings.Contains(body, `<script type="module" src="/_sitegen/dev.js" data-sitegen-dev data-file="pl/index.html"></script></head>`) {
		t.Errorf("home: %d, no dev script before </head>", code)
	}
	if strings.Contains(body, `data-sitegen-dev="fallback"`) {
		t.Errorf("the Polish home carries the fallback marker")
	}
	if h.Get("Cache-Control") != "no-store" {
		t.Errorf("Cache-Control = %q, want no-store", h.Get("Cache-Control"))
	}
	if _, body, _ := get(t, base+"/de/o-nas/kontakt/"); !strings.Contains(body, `shows <code>content/pl/kontakt.md</code>`) {
		t.Errorf("German fallback page has no marker")
	}
	if code, body, h := get(t, base+ScriptPath); code != 200 || !strings.Contains(body, "EventSource") || !strings.HasPrefix(h.Get("Content-Type"), "text/javascript") {
		t.Errorf("dev script: %d %q", code, h.Get("Content-Type"))
	}
	var sources []string
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			sources = append(sources, p)
		}
		return nil
	})
	for _, p := range sources {
		if strings.Contains(p, "index.html") || strings.Contains(p, "page-data") {
			t.Errorf("the dev server wrote %s into the source", p)
		}
	}
}

// TestServePhotoEdit: saving an edited photo re-renders only the pages
// that show it (a Markdown image in the contact page and its German
// fallback), which then name new variants; the old ones are gone.
func TestServePhotoEdit(t *testing.T) {
	photo := func(w, h int) string { return string(treetest.JPEG(t, w, h)) }
	dir, base, _, events := startedWith(t, func(dir string) {
		write(t, dir, "assets/images/photos/field.jpg", photo(200, 150))
		replace(t, dir, "content/pl/kontakt.md", "Pisz na", "![Pole](/photos/field.jpg)\n\nPisz na")
	})
	variant := regexp.MustCompile(`/_assets/img/field-[0-9a-f]+-200\.jpg`)
	_, body, _ := get(t, base+"/pl/o-nas/kontakt/")
	old := variant.FindString(body)
	if old == "" {
		t.Fatalf("the contact page shows no variant of field.jpg:\n%s", body)
	}
	next := func(step string) sse {
		t.Helper()
		select { // a bound for a missing event, not a timing check
		case ev := <-events:
			return ev
		case <-time.After(2 * time.Minute):
			t.Fatalf("%s: no event", step)
			return sse{}
		}
	}
	write(t, dir, "assets/images/photos/field.jpg", photo(200, 100))
	ev := next("photo edit")
	if ev.Name != "reload" {
		t.Fatalf("photo edit: event %q %v, want reload", ev.Name, ev.Data)
	}
	if got, want := strs(ev.Data["pages"]), []string{"/de/o-nas/kontakt/", "/pl/o-nas/kontakt/"}; !reflect.DeepEqual(got, want) {
		t.Errorf("photo edit rendered %v, want %v", got, want)
	}
	_, body, _ = get(t, base+"/pl/o-nas/kontakt/")
	now := variant.FindString(body)
	if now == "" || now == old || !strings.Contains(body, `width="200" height="100"`) {
		t.Errorf("after the edit the page shows %q (before %q), want a new 200x100 variant", now, old)
	}
	if code, _, _ := get(t, base+now); code != 200 {
		t.Errorf("new variant %s: %d", now, code)
	}
	if code, _, _ := get(t, base+old); code != 404 {
		t.Errorf("old variant %s: %d, want 404", old, code)
	}

	// A new photo and the page showing it: everything is read again, and
	// open tabs reload.
	write(t, dir, "assets/images/photos/lake.jpg", photo(120, 80))
	replace(t, dir, "content/pl/kontakt.md", "Pisz na", "![Jezioro](/photos/lake.jpg)\n\nPisz na")
	if ev := next("new photo"); ev.Name != "reload" || len(strs(ev.Data["changed"])) == 0 {
		t.Fatalf("new photo: event %q %v, want reload with the changed files", ev.Name, ev.Data)
	}
	if _, body, _ := get(t, base+"/pl/o-nas/kontakt/"); !regexp.MustCompile(`/_assets/img/lake-[0-9a-f]+-120\.jpg`).MatchString(body) {
		t.Errorf("the contact page does not show the new photo:\n%s", body)
	}
}

// TestServeErrorOverlay breaks a page and a template: the error goes to open
// tabs with file, line, column, message and the source line, the last good
// page stays served, a tab opened meanwhile gets the error at once, and the
// fix clears it.
func TestServeErrorOverlay(t *testing.T) {
	dir, base, _, events := started(t)
	cases := []struct {
		name, file, old, new string
		line, col            int
		source, message      string
	}{
		{"front matter", "content/pl/kontakt.md", "title: Kontakt", "title: [Kontakt", 4, 8, "title: [Kontakt", "opened here is not closed"},
		{"link", "content/pl/kontakt.md", "[adres](mailto:", "[nowy](ref:nowy) [adres](mailto:", 9, 9, "Pisz na [nowy](ref:nowy) [adres](mailto:biuro@example.test). <span id=\"formularz\">Formularz</span>", `unknown page id "nowy"`},
		{"template", "templates/layouts/page.html", "{{ .Page.Title }}</h1>", "{{ .Page.Title }</h1>", 1, 0, `{{ define "main" }}<h1>{{ .Page.Title }</h1>{{ if .Page.Date }}<time datetime="{{ .Page.Date }}">{{ .Page.Date }}</time>{{ end }}{{ sections . }}{{ end }}`, "unexpected"},
	}
	for _, c := range cases {
		replace(t, dir, c.file, c.old, c.new)
		ev := receive(t, events, c.name+" error event")
		if ev.Name != "build-error" {
			t.Fatalf("%s: event %q, want build-error", c.name, ev.Name)
		}
		// Every error a build reports comes, sorted by position: the one
		// in the edited file among them (a page whose front matter broke
		// also leaves links to it unknown).
		errs := ev.Data["errors"].([]any)
		e := errs[0].(map[string]any)
		for _, x := range errs {
			if m := x.(map[string]any); m["file"] == c.file {
				e = m
				break
			}
		}
		num := func(k string) int { f, _ := e[k].(float64); return int(f) }
		if e["file"] != c.file || num("line") != c.line || num("col") != c.col ||
			e["source"] != c.source || !strings.Contains(e["message"].(string), c.message) {
			t.Errorf("%s: error %v", c.name, e)
		}
		if code, body, _ := get(t, base+"/pl/o-nas/kontakt/"); code != 200 || !strings.Contains(body, "<h1>Kontakt</h1>") {
			t.Errorf("%s: the last good page is not served: %d", c.name, code)
		}
		late := listen(t, t.Context(), base)
		if ev := receive(t, late, c.name+" event of a late tab"); ev.Name != "build-error" {
			t.Errorf("%s: a tab opened during the error got %q", c.name, ev.Name)
		}
		replace(t, dir, c.file, c.new, c.old)
		ev = receive(t, events, c.name+" fix event")
		// The background check may still be sending the errors of other
		// pages showing the same file, found before the fix.
		for ev.Name == "build-error" && strings.Contains(fmt.Sprint(ev.Data), c.message) {
			ev = receive(t, events, c.name+" fix event")
		}
		if ev.Name != "reload" || ev.Data["recovered"] != true {
			t.Fatalf("%s: after the fix: %q %v, want reload (recovered)", c.name, ev.Name, ev.Data)
		}
		ev = receive(t, late, c.name+" fix event of a late tab")
		for ev.Name == "build-error" && strings.Contains(fmt.Sprint(ev.Data), c.message) {
			ev = receive(t, late, c.name+" fix event of a late tab")
		}
		if ev.Name != "reload" {
			t.Errorf("%s: the late tab got %q after the fix", c.name, ev.Name)
		}
	}
}

// TestServeBrokenStart: a site broken from the start is served as an error
// page (with the dev script, so it reloads when fixed), not a dead server.
func TestServeBrokenStart(t *testing.T) {
	dir := t.TempDir()
	copyTree(t, fixture, dir)
	replace(t, dir, "content/pl/kontakt.md", "title: Kontakt", "title: [Kontakt")
	s, err := New(context.Background(), Options{Build: build.Options{Source: dir, Date: "2026-01-01"}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	rec := httptest.NewRecorder()
	s.ServeHTTP(rec, httptest.NewRequest("GET", "/pl/", nil))
	body := rec.Body.String()
	if rec.Code != 500 || !strings.Contains(body, "content/pl/kontakt.md:4") || !strings.Contains(body, ScriptPath) {
		t.Fatalf("error page: %d\n%s", rec.Code, body)
	}
	replace(t, dir, "content/pl/kontakt.md", "title: [Kontakt", "title: Kontakt")
	if _, err := s.Update(context.Background(), []string{"content/pl/kontakt.md"}); err != nil {
		t.Fatal(err)
	}
	rec = httptest.NewRecorder()
	s.ServeHTTP(rec, httptest.NewRequest("GET", "/pl/", nil))
	if rec.Code != 200 {
		t.Fatalf("after the fix: %d", rec.Code)
	}
}

// TestServeCheckFindsRenderErrors: a template error only a render finds
// (an index out of range, in the layout of the error pages, which no
// request has rendered) reaches open tabs from the background check, with
// its template line; such a page asked for answers the error page with the
// dev script; the fix clears it.
func TestServeCheckFindsRenderErrors(t *testing.T) {
	dir, base, s, events := started(t)
	const file = "templates/layouts/error.html"
	replace(t, dir, file, "<h1>{{ .Page.Title }}</h1>", "<h1>{{ index .Page.Title 999 }}</h1>")
	var ev sse
	for ev = receive(t, events, "an event after the edit"); ev.Name == "reload"; ev = receive(t, events, "the check's error") {
	}
	if ev.Name != "build-error" {
		t.Fatalf("event %q %v, want build-error", ev.Name, ev.Data)
	}
	errs, _ := ev.Data["errors"].([]any)
	if len(errs) == 0 || errs[0].(map[string]any)["file"] != file {
		t.Fatalf("errors %v, want one in %s", errs, file)
	}
	if code, body, _ := get(t, base+"/pl/404/"); code != 500 || !strings.Contains(body, "This page does not render.") || !strings.Contains(body, ScriptPath) {
		t.Errorf("the broken page: %d\n%s", code, body)
	}
	if code, _, _ := get(t, base+"/pl/o-nas/kontakt/"); code != 200 {
		t.Errorf("a page without the error: %d", code)
	}
	replace(t, dir, file, "<h1>{{ index .Page.Title 999 }}</h1>", "<h1>{{ .Page.Title }}</h1>")
	for {
		ev := receive(t, events, "the fix")
		if ev.Name == "reload" && ev.Data["recovered"] == true {
			break
		}
		// The check may still send what it found before the fix.
		if ev.Name == "build-error" && !strings.Contains(fmt.Sprint(ev.Data), "index out of range") {
			t.Fatalf("after the fix: %v", ev.Data)
		}
	}
	if p := s.dev.Problems(); len(p) > 0 {
		t.Errorf("problems after the fix: %v", p)
	}
}

// TestServeWatchesSources: a file the site reads outside the folders a
// site always has (an icon in a folder site.yaml names) is watched, and
// its edit reloads the pages with the new icon.
func TestServeWatchesSources(t *testing.T) {
	flush := make(chan []string)
	dir, base, _, events := startServer(t, func(dir string) {
		b, err := os.ReadFile(filepath.Join(dir, "site.yaml"))
		if err != nil {
			t.Fatal(err)
		}
		write(t, dir, "site.yaml", string(b)+"\nicons: {dir: icons}\n")
		write(t, dir, "icons/star.svg", `<svg viewBox="0 0 10 10"><circle cx="5" cy="5" r="4"/></svg>`)
		replace(t, dir, "templates/base.html", "<body>", `<body>{{ icon "star" }}`)
	}, flush)
	select {
	case flush <- []string{"icons/star.svg"}:
	case <-time.After(bound):
		t.Fatal("the watcher does not take the flush")
	}
	replace(t, dir, "icons/star.svg", `<circle cx="5" cy="5" r="4"/>`, `<rect width="8" height="8"/>`)
	if ev := receive(t, events, "icon edit event"); ev.Name != "reload" {
		t.Fatalf("icon edit: event %q %v, want reload", ev.Name, ev.Data)
	}
	if code, body, _ := get(t, base+"/pl/"); code != 200 || !strings.Contains(body, "<rect") {
		t.Errorf("after the icon edit: %d, the page does not show the new icon", code)
	}
}

// TestServeRefusedEditCompletesInBackground: an edit a build refuses for an
// error found without rendering (a data file failing its schema) shows that
// error at once and the pages' render errors (a template's) as the
// background check finds them, while the last good pages are served.
func TestServeRefusedEditCompletesInBackground(t *testing.T) {
	dir, base, _, events := started(t)
	replace(t, dir, "templates/layouts/error.html", "<h1>{{ .Page.Title }}</h1>", "<h1>{{ index .Page.Title 999 }}</h1>")
	replace(t, dir, "content/pl/data/home.yaml", `text: "pytań z poprawną odpowiedzią"`, `txt: "x"`)
	var first, last string
	for {
		ev := receive(t, events, "the errors of the edit")
		if ev.Name != "build-error" {
			continue
		}
		if last = fmt.Sprint(ev.Data); first == "" {
			first = last
		}
		if strings.Contains(last, "index out of range") {
			break
		}
	}
	if !strings.Contains(last, "content/pl/data/home.yaml") {
		t.Errorf("the complete errors lack the data file's: %s", last)
	}
	if code, _, _ := get(t, base+"/pl/"); code != 200 {
		t.Errorf("the last good home page while the edit is refused: %d", code)
	}
	t.Logf("first errors shown: %s", first)
}
