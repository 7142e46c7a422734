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
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"modernc.org/quickjs"

	"sitegen/internal/waittest"
	"sitegen/pkg/diag"
)

var update = flag.Bool("update", false, "rewrite testdata/site/golden/*.golden")

// fixtureRoot is a fixture site with three islands (Counter, Greeting,
// Panel; Counter and Greeting share lib/text.js). The website's own islands
// are tested in sitetest.
const fixtureRoot = "testdata/site"

// repoRoot holds node_modules (preact, react).
const repoRoot = "../.."

var (
	sharedOnce   sync.Once
	sharedBundle *Bundle
	sharedErr    error
)

// fixtureBundle builds the fixture's islands once per test binary.
func fixtureBundle(t testing.TB) *Bundle {
	t.Helper()
	sharedOnce.Do(func() {
		sharedBundle, sharedErr = Build(context.Background(), fixtureOptions(t, Options{Minify: true, Workers: 2}))
	})
	if sharedErr != nil {
		t.Fatal(sharedErr)
	}
	return sharedBundle
}

// fixtureOptions completes o to build the fixture site.
func fixtureOptions(t testing.TB, o Options) Options {
	o.Root = fixtureRoot
	o.NodePaths = nodeModules(t)
	return o
}

func nodeModules(t testing.TB) []string {
	abs, err := filepath.Abs(filepath.Join(repoRoot, "node_modules"))
	if err != nil {
		t.Fatal(err)
	}
	return []string{abs}
}

func readFixture(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(fixtureRoot, "props", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func readChildren(t testing.TB, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(fixtureRoot, "props", name))
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		t.Fatal(err)
	}
	return strings.TrimSpace(string(b))
}

func TestNames(t *testing.T) {
	b := fixtureBundle(t)
	want := []string{"Counter", "Greeting", "Panel"}
	if got := b.Names(); strings.Join(got, ",") != strings.Join(want, ",") {
		t.Fatalf("Names() = %v, want %v (lib/ holds no islands)", got, want)
	}
	if !b.Has("Counter") || b.Has("text") || b.Has("Nope") || b.Has("") {
		t.Fatal("Has() wrong")
	}
}

// TestGolden renders every fixture island on Polish and English props and
// compares with testdata/site/golden/<Island>.<lang>.golden
// (go test -run TestGolden -update).
func TestGolden(t *testing.T) {
	b := fixtureBundle(t)
	ctx := context.Background()
	chunk := regexp.MustCompile(`data-chunk="[A-Za-z]+-[A-Z0-9]+\.js"`)
	for _, name := range b.Names() {
		for _, lang := range []string{"pl", "en"} {
			t.Run(name+"."+lang, func(t *testing.T) {
				props := readFixture(t, name+"."+lang+".json")
				children := readChildren(t, name+"."+lang+".children.html")
				render := func() string {
					html, hydrated, err := b.Render(ctx, name, props, "visible", children)
					if err != nil {
						t.Fatal(err)
					}
					if !hydrated {
						t.Fatal("visible island not hydrated")
					}
					// The chunk hash changes with any island's code: keep goldens stable.
					got := chunk.ReplaceAllString(html, `data-chunk="`+name+`-HASH.js"`)
					return strings.ReplaceAll(got, "><", ">\n<") + "\n"
				}
				got := render()
				golden := filepath.Join(fixtureRoot, "golden", name+"."+lang+".golden")
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

// TestIslandContracts checks what the engine must produce around and inside
// an island, independently of the goldens: the wrapper, SSR of state and
// props, children kept verbatim, props for hydration.
func TestIslandContracts(t *testing.T) {
	b := fixtureBundle(t)
	ctx := context.Background()
	render := func(name, fixture, children string) string {
		t.Helper()
		h, _, err := b.Render(ctx, name, readFixture(t, fixture), "load", children)
		if err != nil {
			t.Fatal(err)
		}
		return h
	}
	counter := render("Counter", "Counter.pl.json", "")
	for _, want := range []string{
		`<sg-island data-island="Counter" data-directive="load" data-chunk="Counter-`,
		`<p class="counter"><button type="button">Dodaj</button> <output aria-live="polite">1 sztuka</output></p>`,
		`</p></sg-island><script type="application/json" data-sg-props>{"label":"Dodaj","start":1,"unit":["sztuka","sztuk"]}</script>`,
	} {
		if !strings.Contains(counter, want) {
			t.Errorf("Counter: missing %q in\n%s", want, counter)
		}
	}
	if strings.Contains(counter, "counter--enhanced") {
		t.Errorf("Counter: effects ran during SSR:\n%s", counter)
	}
	greet := render("Greeting", "Greeting.en.json", "")
	for _, want := range []string{`<p class="greeting">Welcome to <ul class="greeting__items"><li>the shop</li><li>the store &amp; &lt;warehouse></li></ul></p>`} {
		if !strings.Contains(greet, want) {
			t.Errorf("Greeting: missing %q in\n%s", want, greet)
		}
	}
	kids := `<div id="r1" class="x">R&amp;D <b>1</b></div>`
	panel := render("Panel", "Panel.en.json", kids)
	for _, want := range []string{`<h2 class="panel__title">Reports</h2>`, `data-sg-children`, kids} {
		if !strings.Contains(panel, want) {
			t.Errorf("Panel: missing %q in\n%s", want, panel)
		}
	}
}

func TestPropsEscaping(t *testing.T) {
	b := fixtureBundle(t)
	props := []byte(`{"prefix":"</script><script>alert(1)</script><!--","items":["a\u2028b","c` + "\u2029" + `d & <e>"]}`)
	html, hydrated, err := b.Render(context.Background(), "Greeting", props, "load", "")
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
	b := fixtureBundle(t)
	ctx := context.Background()
	props := readFixture(t, "Greeting.en.json")
	for _, d := range []string{"load", "idle", "visible", "media=(min-width: 40em)"} {
		html, hydrated, err := b.Render(ctx, "Greeting", props, d, "")
		if err != nil || !hydrated {
			t.Fatalf("%s: hydrated=%v err=%v", d, hydrated, err)
		}
		if !strings.Contains(html, `data-chunk="Greeting-`) || !strings.Contains(html, "data-sg-props") {
			t.Errorf("%s: no chunk/props: %s", d, html)
		}
	}
	html, _, _ := b.Render(ctx, "Greeting", props, "media=(min-width: 40em)", "")
	if !strings.Contains(html, `data-directive="media" data-media="(min-width: 40em)"`) {
		t.Errorf("media directive: %s", html)
	}
	html, hydrated, err := b.Render(ctx, "Greeting", props, "none", "")
	if err != nil || hydrated {
		t.Fatalf("none: hydrated=%v err=%v", hydrated, err)
	}
	if strings.Contains(html, "data-chunk") || strings.Contains(html, "<script") {
		t.Errorf("none loads code: %s", html)
	}
	for _, d := range []string{"", "eager", "media=", "visible ", "media=max-width: 9px"} {
		_, _, err := b.Render(ctx, "Greeting", props, d, "")
		var dg diag.Diagnostic
		if !errors.As(err, &dg) || !strings.Contains(err.Error(), "directive") {
			t.Errorf("directive %q: err = %v, want a directive diagnostic", d, err)
		}
	}
	if _, _, err := b.Render(ctx, "Nope", props, "load", ""); err == nil || !strings.Contains(err.Error(), `unknown island "Nope"`) {
		t.Errorf("unknown island: %v", err)
	}
	if _, _, err := b.Render(ctx, "Greeting", []byte(`{"items":`), "load", ""); err == nil {
		t.Error("invalid props JSON accepted")
	}
}

func TestScriptsAndPreloads(t *testing.T) {
	b := fixtureBundle(t)
	if s := b.Scripts(nil); len(s) != 0 {
		t.Errorf("Scripts(nil) = %v, want none", s)
	}
	if s := b.ModulePreloads(nil); len(s) != 0 {
		t.Errorf("ModulePreloads(nil) = %v", s)
	}
	s := b.Scripts([]string{"Counter", "Greeting"})
	if len(s) != 1 || !regexp.MustCompile(`^/_assets/islands/loader-[A-Z0-9]+\.js$`).MatchString(s[0]) {
		t.Errorf("Scripts = %v", s)
	}
	p := b.ModulePreloads([]string{"Greeting", "Counter"})
	if !sort.StringsAreSorted(p) {
		t.Errorf("ModulePreloads not sorted: %v", p)
	}
	files := b.ClientFiles()
	has := func(urls []string, prefix string) bool {
		for _, u := range urls {
			if strings.HasPrefix(u, prefix) {
				return true
			}
		}
		return false
	}
	if !has(p, "/_assets/islands/Counter-") || !has(p, "/_assets/islands/Greeting-") || has(p, "/_assets/islands/Panel-") || has(p, "/_assets/islands/loader-") {
		t.Errorf("ModulePreloads = %v", p)
	}
	for _, u := range append(s, p...) {
		if _, ok := files[strings.TrimPrefix(u, "/")]; !ok {
			t.Errorf("%s is not a client file", u)
		}
	}
	// Every chunk a page needs is preloaded (the static import closure), and
	// no other: the chunk of lib/text.js, shared by Counter and Greeting, is
	// preloaded on a Counter page and not on a Panel page.
	counter, panel := b.ModulePreloads([]string{"Counter"}), b.ModulePreloads([]string{"Panel"})
	var shared []string
	for _, u := range counter {
		if !strings.HasPrefix(u, "/_assets/islands/Counter-") && !slices.Contains(panel, u) {
			shared = append(shared, u)
		}
	}
	if len(shared) != 1 || !slices.Contains(b.ModulePreloads([]string{"Greeting"}), shared[0]) {
		t.Errorf("Counter page preloads %v beyond Panel's %v; want exactly the chunk shared with Greeting", shared, panel)
	}
	if has(panel, "/_assets/islands/Counter-") || has(panel, "/_assets/islands/Greeting-") {
		t.Errorf("Panel page preloads %v", panel)
	}
}

func TestDeterministicBuild(t *testing.T) {
	a := fixtureBundle(t)
	b, err := Build(context.Background(), fixtureOptions(t, Options{Minify: true, Workers: 1}))
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
	waittest.Wait(t, &wg, "the concurrent renders")
	if n := b.engineCalls.Load(); n != 3 {
		t.Fatalf("engine called %d times, want 3", n)
	}
	if b.pool.created > 2 {
		t.Errorf("pool created %d engines, max 2", b.pool.created)
	}
}

// TestSizeBudget: what a page with one fixture island loads (the loader, the
// Preact runtime, hooks where used, and the island's chunks) stays within
// 10 KB gzip (Counter, with hooks, measured 8.6 KB).
func TestSizeBudget(t *testing.T) {
	b := fixtureBundle(t)
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
		t.Logf("%-8s entry %5d B gzip, with loader and shared chunks %5d B gzip", n, own, total)
		if total > 10*1024 {
			t.Errorf("%s page islands: %d B gzip > 10 KB budget", n, total)
		}
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

// TestRenderChildrenOnce: children are opaque to a component, so an island
// whose props stay the same and whose children change from call to call (a
// menu marking each page's link, a form carrying each page's URL) runs its
// JS once, and each call's output is exactly what a render with its own
// children gives.
func TestRenderChildrenOnce(t *testing.T) {
	b, err := Build(context.Background(), fixtureOptions(t, Options{Minify: true, Workers: 2}))
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	ctx := context.Background()
	props := readFixture(t, "Panel.en.json")
	norm, err := normalizeProps(props)
	if err != nil {
		t.Fatal(err)
	}
	children := []string{
		`<p>page one</p>`,
		`<ul><li><a href="/en/two/" aria-current="page">Two</a></li></ul>`,
		`<p>three &amp; <b>$1 $& \u2028</b></p>`,
		`<!--sg-children-->`,
	}
	var got []string
	for _, ch := range children {
		h, _, err := b.Render(ctx, "Panel", props, "load", ch)
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, h)
	}
	if n := b.EngineRenders(); n != 1 {
		t.Errorf("the engine rendered Panel %d times for %d calls that differ only in children, want 1", n, len(children))
	}
	for i, ch := range children {
		want, err := b.renderEngine(ctx, "Panel", norm, ch)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(got[i], ">"+want+"</sg-island>") {
			t.Errorf("children %q: spliced render\n%s\ndiffers from the engine's render with them\n%s", ch, got[i], want)
		}
	}
}

// TestRenderChildrenFallback: a component that reads its children, or
// renders them more than once, is rendered with each call's own children.
func TestRenderChildrenFallback(t *testing.T) {
	b, err := Build(context.Background(), Options{Root: "testdata/throwing", NodePaths: nodeModules(t), Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	for _, c := range []struct{ island, children, want string }{
		{"Count", "abc", ">3 characters<"},
		{"Count", "<p>hello</p>", ">12 characters<"},
		{"Twice", "<p>a</p>", `<div class="twice"><div data-sg-children><p>a</p></div><div><p>a</p></div></div>`},
		{"Twice", "<p>b</p>", `<div class="twice"><div data-sg-children><p>b</p></div><div><p>b</p></div></div>`},
	} {
		h, _, err := b.Render(context.Background(), c.island, nil, "none", c.children)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(h, c.want) {
			t.Errorf("%s with children %q: %s, want %s", c.island, c.children, h, c.want)
		}
	}
}

// TestEnginesLoadBytecode: the pool's engines load the SSR bundle compiled
// once to bytecode, and render from it exactly as from source.
func TestEnginesLoadBytecode(t *testing.T) {
	b, err := Build(context.Background(), fixtureOptions(t, Options{Minify: true, Workers: 3}))
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	ctx := context.Background()
	var engines []engine
	for i := 0; i < 3; i++ { // none is put back: three engines
		e, err := b.pool.get(ctx)
		if err != nil {
			t.Fatal(err)
		}
		engines = append(engines, e)
	}
	if b.code.compiled != 1 || b.code.bytecode == nil {
		t.Errorf("the bundle was compiled %d times (bytecode: %v), want once for all engines", b.code.compiled, b.code.bytecode != nil)
	}
	// An engine that evaluates the source, as engines did before.
	vm, err := quickjs.NewVM()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := vm.Eval(jsPrelude+string(b.ssr), quickjs.EvalGlobal); err != nil {
		t.Fatal(err)
	}
	fn, err := vm.EvalValue("SGIslands.render", quickjs.EvalGlobal)
	if err != nil {
		t.Fatal(err)
	}
	fromSource := &quickJS{vm: vm, fn: fn, this: vm.GlobalObject()}
	defer fromSource.close()
	props := string(readFixture(t, "Counter.en.json"))
	want, err := fromSource.render("Counter", props, "")
	if err != nil || want.Error != nil {
		t.Fatal(err, want.Error)
	}
	for i, e := range engines {
		got, err := e.render("Counter", props, "")
		if err != nil || got.Error != nil || got.HTML != want.HTML {
			t.Errorf("engine %d: %v %v %q, want %q", i, err, got.Error, got.HTML, want.HTML)
		}
		b.pool.put(e, false)
	}
}

// TestRenderMemoryCap: a render that keeps allocating is stopped by the
// engine's memory cap (it once took 6.8 GB before the time limit fired),
// with an error naming the island, its line and the cap; like a timeout, the
// island's other renders are skipped; the engine is replaced and other
// islands still render.
func TestRenderMemoryCap(t *testing.T) {
	b, err := Build(context.Background(), Options{Root: "testdata/throwing", NodePaths: nodeModules(t), Workers: 1, MemoryLimit: 64 << 20})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	_, _, err = b.Render(context.Background(), "Hog", []byte(`{"hog":true}`), "load", "")
	wantRE := regexp.MustCompile(`^assets/islands/Hog\.jsx:\d+:\d+: island Hog: stopped: one server render used more than the memory limit of 64 MB`)
	if err == nil || !wantRE.MatchString(err.Error()) {
		t.Fatalf("err = %v\nwant %s", err, wantRE)
	}
	if _, _, err2 := b.Render(context.Background(), "Hog", []byte(`{}`), "load", ""); err2 == nil || err2.Error() != err.Error() {
		t.Errorf("second render: %v", err2)
	}
	html, _, err := b.Render(context.Background(), "Loop", []byte(`{}`), "load", "")
	if err != nil || !strings.Contains(html, "<p>0</p>") {
		t.Fatalf("after the cap: %q %v", html, err)
	}
}

// TestRenderTimeoutWhileAllocating: a render whose every loop turn makes a
// 1 MB string (a builtin running milliseconds) is stopped by the time limit
// with the island named (the engine once checked for the interrupt only
// every 10,000 turns: 25 s past a 1 s limit).
func TestRenderTimeoutWhileAllocating(t *testing.T) {
	b, err := Build(context.Background(), Options{Root: "testdata/throwing", NodePaths: nodeModules(t), Workers: 1, RenderTimeout: 50 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	_, _, err = b.Render(context.Background(), "Churn", []byte(`{"turns":2000}`), "load", "")
	wantRE := regexp.MustCompile(`^assets/islands/Churn\.jsx(:\d+:\d+)?: island Churn: stopped: one server render took longer than the limit of 50ms`)
	if err == nil || !wantRE.MatchString(err.Error()) {
		t.Fatalf("err = %v\nwant %s", err, wantRE)
	}
	html, _, err := b.Render(context.Background(), "Loop", []byte(`{}`), "load", "")
	if err != nil || !strings.Contains(html, "<p>0</p>") {
		t.Fatalf("after the limit: %q %v", html, err)
	}
}

// TestInterruptStopsAllocatingLoop: an interrupt stops a loop of 1 MB
// strings within a few turns, not at the engine's next check, which comes
// every 10,000 turns (here it came after 1,967).
func TestInterruptStopsAllocatingLoop(t *testing.T) {
	b, err := Build(context.Background(), Options{Root: "testdata/throwing", NodePaths: nodeModules(t), Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	e, err := b.pool.get(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	q := e.(*quickJS)
	defer q.close()
	done := make(chan struct{})
	go func() {
		defer close(done)
		q.render("Churn", `{"turns":2000}`, "")
	}()
	// An interrupt before the render starts is cleared when it starts:
	// interrupt until it ends.
	for stopped := false; !stopped; {
		q.interrupt()
		select {
		case <-done:
			stopped = true
		case <-time.After(10 * time.Millisecond):
		}
	}
	q.vm.SetMemoryLimit(64 << 20)
	turns, err := q.vm.Eval("globalThis.churned | 0", quickjs.EvalGlobal)
	if err != nil {
		t.Fatal(err)
	}
	// Each turn takes milliseconds and the first interrupt comes before
	// the first turn: a few turns at most.
	if n, ok := turns.(int); !ok || n >= 100 {
		t.Errorf("the loop ran %v of its 2000 turns", turns)
	}
}
