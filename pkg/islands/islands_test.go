package islands

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"sitegen/pkg/diag"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden")

const siteRoot = "../.."

var (
	sharedOnce   sync.Once
	sharedBundle *Bundle
	sharedErr    error
)

// siteBundle builds the site's islands once per test binary.
func siteBundle(t testing.TB) *Bundle {
	t.Helper()
	sharedOnce.Do(func() {
		sharedBundle, sharedErr = Build(context.Background(), Options{Root: siteRoot, Minify: true, Workers: 2})
	})
	if sharedErr != nil {
		t.Fatal(sharedErr)
	}
	return sharedBundle
}

func nodeModules(t testing.TB) []string {
	abs, err := filepath.Abs(filepath.Join(siteRoot, "node_modules"))
	if err != nil {
		t.Fatal(err)
	}
	return []string{abs}
}

func readFixture(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "props", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestNames(t *testing.T) {
	b := siteBundle(t)
	want := []string{"ConsentBanner", "DemoForm", "JobsList", "MobileMenu", "ReportTabs", "RotatingText"}
	if got := b.Names(); strings.Join(got, ",") != strings.Join(want, ",") {
		t.Fatalf("Names() = %v, want %v", got, want)
	}
	if !b.Has("DemoForm") || b.Has("LanguageSwitcher") || b.Has("") {
		t.Fatal("Has() wrong")
	}
}

// TestGolden renders every island on Polish and English props and compares
// with testdata/<Island>.<lang>.golden (go test -run TestGolden -update).
func TestGolden(t *testing.T) {
	b := siteBundle(t)
	ctx := context.Background()
	for _, name := range b.Names() {
		for _, lang := range []string{"pl", "en"} {
			t.Run(name+"."+lang, func(t *testing.T) {
				props := readFixture(t, name+"."+lang+".json")
				children, err := os.ReadFile(filepath.Join("testdata", "props", name+"."+lang+".children.html"))
				if err != nil && !errors.Is(err, os.ErrNotExist) {
					t.Fatal(err)
				}
				render := func() string {
					html, hydrated, err := b.Render(ctx, name, props, "visible", strings.TrimSpace(string(children)))
					if err != nil {
						t.Fatal(err)
					}
					if !hydrated {
						t.Fatal("visible island not hydrated")
					}
					// The chunk hash changes with any island's code: keep goldens stable.
					got := regexp.MustCompile(`data-chunk="[A-Za-z]+-[A-Z0-9]+\.js"`).ReplaceAllString(html, `data-chunk="`+name+`-HASH.js"`)
					return strings.ReplaceAll(got, "><", ">\n<") + "\n"
				}
				got := render()
				golden := filepath.Join("testdata", name+"."+lang+".golden")
				if *update {
					if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
						t.Fatal(err)
					}
				}
				want, err := os.ReadFile(golden)
				if err != nil {
					t.Fatalf("%v (run with -update)", err)
				}
				if got != string(want) {
					t.Errorf("%s differs from golden (-update to accept):\n%s", golden, got)
				}
				// Second pass, like gofmt's idempotence check: rendering the
				// golden's inputs again gives the same bytes, so -update
				// cannot accept one run's accident.
				if again := render(); again != string(want) {
					t.Errorf("%s: a second render differs from the golden:\n%s", golden, again)
				}
			})
		}
	}
}

// TestIslandContracts checks the parts of the markup the spec requires,
// independently of the goldens.
func TestIslandContracts(t *testing.T) {
	b := siteBundle(t)
	ctx := context.Background()
	render := func(name, fixture, children string) string {
		t.Helper()
		h, _, err := b.Render(ctx, name, readFixture(t, fixture), "load", children)
		if err != nil {
			t.Fatal(err)
		}
		return h
	}
	form := render("DemoForm", "DemoForm.pl.json", "")
	for _, want := range []string{
		`<form id="demo-form"`, `method="post"`, `action="/api/demo"`,
		`<label for="demo-form-name" class="demo-form__label">Imię`, `class="demo-form__label">Nazwa firmy`,
		`name="email" type="email"`, `autocomplete="tel"`, `required`,
		`<input type="hidden" name="lang" value="pl"/>`, `<input type="hidden" name="page" value="/pl/o-nas/kontakt/"/>`, `<input type="hidden" name="idempotencyKey" value/>`,
		`name="website"`, `tabindex="-1"`, `autocomplete="off"`,
		`type="checkbox" name="consentContact"`, `type="checkbox" name="consentPrivacy"`,
		`aria-hidden="true" class="demo-form__required"> *`, `role="status"`, `Administratorem danych`,
	} {
		if !strings.Contains(form, want) {
			t.Errorf("DemoForm: missing %q in\n%s", want, form)
		}
	}
	if n := strings.Count(form, `<span aria-hidden="true" class="demo-form__required"> *</span>`); n != 5 {
		t.Errorf("DemoForm: %d required marks, want 5 (3 fields + 2 consents)", n)
	}
	rot := render("RotatingText", "RotatingText.pl.json", "")
	for _, want := range []string{`Chatbot dla`, `aria-hidden="true" class="rotating-text__item">sprzedaży<`, `<li>rekrutacji</li>`} {
		if !strings.Contains(rot, want) {
			t.Errorf("RotatingText: missing %q in\n%s", want, rot)
		}
	}
	tabs := render("ReportTabs", "ReportTabs.en.json", `<div id="reports-ebi" class="report-panel">EBI</div>`)
	for _, want := range []string{`<a href="#reports-ebi" class="report-tabs__tab">EBI reports</a>`, `data-sg-children`, `<div id="reports-ebi" class="report-panel">EBI</div>`} {
		if !strings.Contains(tabs, want) {
			t.Errorf("ReportTabs: missing %q in\n%s", want, tabs)
		}
	}
	jobs := render("JobsList", "JobsList.pl.json", "")
	for _, want := range []string{`<details id="job-frontend-dev" class="jobs-list__job">`, `href="mailto:praca@example.com?subject=Frontend%20Developer"`, `Zakres obowiązków`} {
		if !strings.Contains(jobs, want) {
			t.Errorf("JobsList: missing %q in\n%s", want, jobs)
		}
	}
	menu := render("MobileMenu", "MobileMenu.pl.json", "")
	for _, want := range []string{`<details class="mobile-menu">`, `<summary class="mobile-menu__toggle">`, `aria-current="page"`} {
		if !strings.Contains(menu, want) {
			t.Errorf("MobileMenu: missing %q in\n%s", want, menu)
		}
	}
	consent := render("ConsentBanner", "ConsentBanner.en.json", "")
	if !strings.Contains(consent, `<section aria-labelledby="consent-banner-title" hidden class="consent-banner">`) {
		t.Errorf("ConsentBanner: not hidden in SSR:\n%s", consent)
	}
}

func TestPropsEscaping(t *testing.T) {
	b := siteBundle(t)
	props := []byte(`{"prefix":"</script><script>alert(1)</script><!--","items":["a\u2028b","c` + "\u2029" + `d & <e>"]}`)
	html, hydrated, err := b.Render(context.Background(), "RotatingText", props, "load", "")
	if err != nil {
		t.Fatal(err)
	}
	if !hydrated {
		t.Fatal("not hydrated")
	}
	i := strings.Index(html, `<script type="application/json" data-sg-props>`)
	if i < 0 {
		t.Fatalf("no props script in %s", html)
	}
	script := html[i+len(`<script type="application/json" data-sg-props>`):]
	body, rest, ok := strings.Cut(script, "</script>")
	if !ok || rest != "" {
		t.Fatalf("props script broken out: body %q rest %q", body, rest)
	}
	for _, bad := range []string{"<", ">", "&", "\u2028", "\u2029"} {
		if strings.Contains(body, bad) {
			t.Errorf("props JSON contains raw %q: %s", bad, body)
		}
	}
	if !strings.Contains(body, `\u003c/script\u003e`) || !strings.Contains(body, `a\u2028b`) || !strings.Contains(body, `\u2029`) {
		t.Errorf("props not escaped as expected: %s", body)
	}
	// Only one executable-looking script element: none at all.
	if n := strings.Count(html, "<script"); n != 1 {
		t.Errorf("%d <script elements, want 1", n)
	}
	// The SSR HTML escapes the text too.
	if strings.Contains(html[:i], "<script>") {
		t.Errorf("SSR HTML contains a raw script: %s", html[:i])
	}
}

func TestDirectives(t *testing.T) {
	b := siteBundle(t)
	ctx := context.Background()
	props := readFixture(t, "RotatingText.en.json")
	for _, d := range []string{"load", "idle", "visible", "media=(min-width: 40em)"} {
		html, hydrated, err := b.Render(ctx, "RotatingText", props, d, "")
		if err != nil || !hydrated {
			t.Fatalf("%s: hydrated=%v err=%v", d, hydrated, err)
		}
		if !strings.Contains(html, `data-chunk="RotatingText-`) || !strings.Contains(html, "data-sg-props") {
			t.Errorf("%s: no chunk/props: %s", d, html)
		}
	}
	html, _, _ := b.Render(ctx, "RotatingText", props, "media=(min-width: 40em)", "")
	if !strings.Contains(html, `data-directive="media" data-media="(min-width: 40em)"`) {
		t.Errorf("media directive: %s", html)
	}
	html, hydrated, err := b.Render(ctx, "RotatingText", props, "none", "")
	if err != nil || hydrated {
		t.Fatalf("none: hydrated=%v err=%v", hydrated, err)
	}
	if strings.Contains(html, "data-chunk") || strings.Contains(html, "<script") {
		t.Errorf("none loads code: %s", html)
	}
	for _, d := range []string{"", "eager", "media=", "visible ", "media=max-width: 9px"} {
		_, _, err := b.Render(ctx, "RotatingText", props, d, "")
		var dg diag.Diagnostic
		if !errors.As(err, &dg) || !strings.Contains(err.Error(), "directive") {
			t.Errorf("directive %q: err = %v, want a directive diagnostic", d, err)
		}
	}
	if _, _, err := b.Render(ctx, "Nope", props, "load", ""); err == nil || !strings.Contains(err.Error(), `unknown island "Nope"`) {
		t.Errorf("unknown island: %v", err)
	}
	if _, _, err := b.Render(ctx, "RotatingText", []byte(`{"items":`), "load", ""); err == nil {
		t.Error("invalid props JSON accepted")
	}
}

func TestScriptsAndPreloads(t *testing.T) {
	b := siteBundle(t)
	if s := b.Scripts(nil); len(s) != 0 {
		t.Errorf("Scripts(nil) = %v, want none", s)
	}
	if s := b.ModulePreloads(nil); len(s) != 0 {
		t.Errorf("ModulePreloads(nil) = %v", s)
	}
	s := b.Scripts([]string{"DemoForm", "RotatingText"})
	if len(s) != 1 || !regexp.MustCompile(`^/_assets/islands/loader-[A-Z0-9]+\.js$`).MatchString(s[0]) {
		t.Errorf("Scripts = %v", s)
	}
	p := b.ModulePreloads([]string{"RotatingText", "DemoForm"})
	if !sort.StringsAreSorted(p) {
		t.Errorf("ModulePreloads not sorted: %v", p)
	}
	files := b.ClientFiles()
	has := func(prefix string) bool {
		for _, u := range p {
			if strings.HasPrefix(u, prefix) {
				return true
			}
		}
		return false
	}
	if !has("/_assets/islands/DemoForm-") || !has("/_assets/islands/RotatingText-") || has("/_assets/islands/JobsList-") || has("/_assets/islands/loader-") {
		t.Errorf("ModulePreloads = %v", p)
	}
	for _, u := range append(s, p...) {
		if _, ok := files[strings.TrimPrefix(u, "/")]; !ok {
			t.Errorf("%s is not a client file", u)
		}
	}
	// Every chunk a page needs is preloaded: the static import closure.
	only := b.ModulePreloads([]string{"JobsList"})
	for _, u := range only {
		if strings.Contains(u, "DemoForm") {
			t.Errorf("JobsList page preloads %s", u)
		}
	}
}

func TestDeterministicBuild(t *testing.T) {
	a := siteBundle(t)
	b, err := Build(context.Background(), Options{Root: siteRoot, Minify: true, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if a.Hash() != b.Hash() {
		t.Fatalf("hash %s != %s", a.Hash(), b.Hash())
	}
	if !bytes.Equal(a.ssr, b.ssr) {
		t.Fatal("SSR bundles differ")
	}
	fa, fb := a.ClientFiles(), b.ClientFiles()
	if len(fa) != len(fb) {
		t.Fatalf("%d vs %d client files", len(fa), len(fb))
	}
	for k, v := range fa {
		if !bytes.Equal(v, fb[k]) {
			t.Errorf("client file %s differs", k)
		}
	}
	if strings.Join(a.ModulePreloads(a.Names()), ",") != strings.Join(b.ModulePreloads(b.Names()), ",") {
		t.Error("preloads differ")
	}
}

func TestThrowingComponent(t *testing.T) {
	b, err := Build(context.Background(), Options{Root: "testdata/throwing", NodePaths: nodeModules(t), Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	ctx := context.Background()
	html, _, err := b.Render(ctx, "Boom", []byte(`{"text":"ok"}`), "load", "")
	if err != nil || !strings.Contains(html, `<p class="boom">ok</p>`) {
		t.Fatalf("Boom without explode: %q %v", html, err)
	}
	_, _, err = b.Render(ctx, "Boom", []byte(`{"explode":"now"}`), "load", "")
	if err == nil {
		t.Fatal("no error from a throwing component")
	}
	var d diag.Diagnostic
	if !errors.As(err, &d) {
		t.Fatalf("error %T is not a diag.Diagnostic: %v", err, err)
	}
	msg := err.Error()
	t.Log(msg)
	if d.Pos.File != "assets/islands/Boom.jsx" || d.Pos.Line != 4 {
		t.Errorf("position %v, want assets/islands/Boom.jsx:4", d.Pos)
	}
	for _, want := range []string{"assets/islands/Boom.jsx:4:", "island Boom", "kaboom: now"} {
		if !strings.Contains(msg, want) {
			t.Errorf("error %q lacks %q", msg, want)
		}
	}
	// The engine survives a component error.
	if _, _, err := b.Render(ctx, "Boom", []byte(`{"text":"again"}`), "load", ""); err != nil {
		t.Fatal(err)
	}
}

func TestSyntaxError(t *testing.T) {
	_, err := Build(context.Background(), Options{Root: "testdata/syntax", NodePaths: nodeModules(t)})
	if err == nil {
		t.Fatal("no error for a syntax error")
	}
	var l diag.List
	if !errors.As(err, &l) || len(l) == 0 {
		t.Fatalf("error %T is not a diag.List: %v", err, err)
	}
	t.Log(err)
	p := l[0].Pos
	if p.File != "assets/islands/Bad.jsx" || p.Line == 0 || p.Col == 0 {
		t.Errorf("position %v, want assets/islands/Bad.jsx:LINE:COL", p)
	}
	if !regexp.MustCompile(`assets/islands/Bad\.jsx:\d+:\d+: `).MatchString(err.Error()) {
		t.Errorf("error %q lacks file:line:col", err)
	}
}

func TestRenderCache(t *testing.T) {
	b, err := Build(context.Background(), Options{Root: "testdata/throwing", NodePaths: nodeModules(t), Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	ctx := context.Background()
	render := func(props, directive string) string {
		h, _, err := b.Render(ctx, "Boom", []byte(props), directive, "")
		if err != nil {
			t.Fatal(err)
		}
		return h
	}
	h1 := render(`{"text":"same"}`, "load")
	h2 := render(`{ "text" : "same" }`, "idle") // same props, other directive
	if n := b.engineCalls.Load(); n != 1 {
		t.Fatalf("engine called %d times for identical islands, want 1", n)
	}
	if !strings.Contains(h1, "load") || !strings.Contains(h2, "idle") {
		t.Errorf("wrappers: %s / %s", h1, h2)
	}
	render(`{"text":"other"}`, "load")
	if n := b.engineCalls.Load(); n != 2 {
		t.Fatalf("engine called %d times, want 2", n)
	}
	// Concurrent identical renders still hit the engine once.
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, _, err := b.Render(ctx, "Boom", []byte(`{"text":"parallel"}`), "load", ""); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	if n := b.engineCalls.Load(); n != 3 {
		t.Fatalf("engine called %d times, want 3", n)
	}
	if b.pool.created > 2 {
		t.Errorf("pool created %d engines, max 2", b.pool.created)
	}
}

// TestSizeBudget: the contact page's islands (loader + DemoForm + RotatingText
// and their chunks) must stay within 15 KB gzip.
func TestSizeBudget(t *testing.T) {
	b := siteBundle(t)
	files := b.ClientFiles()
	gz := func(url string) int {
		data, ok := files[strings.TrimPrefix(url, "/")]
		if !ok {
			t.Fatalf("no client file for %s", url)
		}
		var buf bytes.Buffer
		w, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
		w.Write(data)
		w.Close()
		return buf.Len()
	}
	for _, n := range b.Names() {
		own := gz("/" + filepathJoin(b, b.entries[n]))
		total := 0
		for _, u := range append(b.Scripts([]string{n}), b.ModulePreloads([]string{n})...) {
			total += gz(u)
		}
		t.Logf("%-14s entry %5d B gzip, with loader and shared chunks %5d B gzip", n, own, total)
	}
	page := []string{"DemoForm", "RotatingText"}
	total := 0
	for _, u := range append(b.Scripts(page), b.ModulePreloads(page)...) {
		total += gz(u)
	}
	t.Logf("contact page (loader + DemoForm + RotatingText): %d B gzip", total)
	if total > 15*1024 {
		t.Errorf("contact page islands: %d B gzip > 15 KB budget", total)
	}
}

func filepathJoin(b *Bundle, f string) string {
	return strings.TrimPrefix(b.opts.PublicPrefix, "/") + f
}

func TestRenderCancel(t *testing.T) {
	b, err := Build(context.Background(), Options{Root: "testdata/throwing", NodePaths: nodeModules(t), Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, _, err = b.Render(ctx, "Loop", []byte(`{"forever":true}`), "load", "")
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v, want deadline exceeded", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Fatalf("cancel took %v", d)
	}
	// The pool replaces the interrupted engine; the cancelled render is not cached.
	html, _, err := b.Render(context.Background(), "Loop", []byte(`{}`), "load", "")
	if err != nil || !strings.Contains(html, "<p>0</p>") {
		t.Fatalf("after cancel: %q %v", html, err)
	}
}

// TestRenderTimeout: a render that loops is stopped at the per-render limit
// with an error at the .jsx line it was running, naming the limit; the
// island's later renders fail at once, without reaching an engine.
func TestRenderTimeout(t *testing.T) {
	b, err := Build(context.Background(), Options{Root: "testdata/throwing", NodePaths: nodeModules(t), Workers: 1,
		RenderTimeout: 200 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	_, _, err = b.Render(context.Background(), "Loop", []byte(`{"forever":true}`), "load", "")
	// The column is wherever in the loop the interrupt landed.
	wantRE := regexp.MustCompile(`^assets/islands/Loop\.jsx:4:\d+: island Loop: stopped: one server render took longer than the limit of 200ms; its other renders were skipped \(hint: an endless loop\? islands\.renderTimeout in site\.yaml raises the limit\)$`)
	if err == nil || !wantRE.MatchString(err.Error()) {
		t.Fatalf("err = %v\nwant %s", err, wantRE)
	}
	want := err.Error()
	calls := b.engineCalls.Load()
	_, _, err2 := b.Render(context.Background(), "Loop", []byte(`{"forever":true,"other":1}`), "load", "")
	if err2 == nil || err2.Error() != want {
		t.Errorf("second render: %v", err2)
	}
	if n := b.engineCalls.Load(); n != calls {
		t.Errorf("the island ran again after timing out (%d engine calls, want %d)", n, calls)
	}
	// Other islands still render.
	if _, _, err := b.Render(context.Background(), "Boom", []byte(`{}`), "load", ""); err != nil && strings.Contains(err.Error(), "stopped") {
		t.Errorf("Boom stopped too: %v", err)
	}
}

// TestBuildBudget: once the renders of a bundle have used its budget, every
// render fails at once with an error naming the budget.
func TestBuildBudget(t *testing.T) {
	b, err := Build(context.Background(), Options{Root: "testdata/throwing", NodePaths: nodeModules(t), Workers: 1,
		RenderTimeout: time.Minute, BuildBudget: 300 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	_, _, err = b.Render(context.Background(), "Loop", []byte(`{"forever":true}`), "load", "")
	if err == nil || !regexp.MustCompile(`^assets/islands/Loop\.jsx:4:\d+: island Loop: stopped: island renders took more than the build's budget of 300ms`).MatchString(err.Error()) {
		t.Fatalf("err = %v", err)
	}
	calls := b.engineCalls.Load()
	_, _, err = b.Render(context.Background(), "Loop", []byte(`{}`), "load", "")
	if err == nil || !strings.Contains(err.Error(), "budget of 300ms") {
		t.Errorf("after the budget: %v", err)
	}
	if n := b.engineCalls.Load(); n != calls {
		t.Errorf("an engine ran after the budget was spent")
	}
}
