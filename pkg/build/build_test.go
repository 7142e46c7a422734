package build

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"

	"sitegen/internal/treetest"
	"sitegen/pkg/config"
	"sitegen/pkg/forms"
	"sitegen/pkg/formschema"
	"sitegen/pkg/output"
)

var update = flag.Bool("update", false, "rewrite golden files")

const fixture = "../../testdata/sites/basic"

// readTree returns every file below dir by slash path.
func readTree(t *testing.T, dir string) map[string][]byte { return treetest.Read(t, dir) }

func buildFixture(t *testing.T, src, out string) *Report {
	t.Helper()
	rep, err := Run(context.Background(), Options{Source: src, Out: out, Date: "2026-01-01", Minify: true})
	if err != nil {
		t.Fatalf("build %s: %v", src, err)
	}
	return rep
}

// goldenSites are the fixture sites whose whole output is kept under
// testdata/golden/<name>: basic (three locales, data sets, redirects),
// shop (another schema, English default, islands rendered at build time)
// and verein (German and Ukrainian, Cyrillic heading ids, two forms of
// other names and fields, its own islands, no analytics).
var goldenSites = []struct {
	name  string
	pages map[string]int
}{
	{"basic", map[string]int{"pl": 5, "en": 5, "de": 5}},
	{"shop", map[string]int{"en": 3, "fr": 3}},
	{"verein", map[string]int{"de": 7, "uk": 7}},
}

// fixtureSite copies a fixture site below dir (treetest.Fixture).
func fixtureSite(t *testing.T, name, dir string) string { return treetest.Fixture(t, name, dir) }

// TestGolden builds each fixture site and compares every output file with
// testdata/golden/<name> (go test ./pkg/build -run Golden -update rewrites
// them). A second pass builds the golden's inputs again, from a copy in
// another folder, into a fresh folder and must give the same bytes, like
// gofmt's idempotence check: with -update it proves the goldens just
// written are what the build always gives, not one run's accident (an
// unstable order, a clock, a temporary path).
func TestGolden(t *testing.T) {
	for _, gs := range goldenSites {
		t.Run(gs.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "public")
			rep := buildFixture(t, fixtureSite(t, gs.name, t.TempDir()), out)
			got := readTree(t, out)
			golden := filepath.Join("../../testdata/golden", gs.name)
			if *update {
				os.RemoveAll(golden)
				for name, b := range got {
					p := filepath.Join(golden, filepath.FromSlash(name))
					os.MkdirAll(filepath.Dir(p), 0o755)
					if err := os.WriteFile(p, b, 0o644); err != nil {
						t.Fatal(err)
					}
				}
			}
			want := readTree(t, golden)
			compareTree(t, "first pass", got, want)
			for lang, n := range gs.pages {
				if rep.Pages[lang] != n {
					t.Errorf("pages per locale = %v, want %v", rep.Pages, gs.pages)
				}
			}

			again := filepath.Join(t.TempDir(), "public")
			buildFixture(t, fixtureSite(t, gs.name, filepath.Join(t.TempDir(), "elsewhere")), again)
			compareTree(t, "second pass", readTree(t, again), want)
		})
	}
}

// compareTree reports every file that is missing, extra or different in got.
func compareTree(t *testing.T, pass string, got, want map[string][]byte) {
	t.Helper()
	for name := range want {
		if _, ok := got[name]; !ok {
			t.Errorf("%s: missing output file %s", pass, name)
		}
	}
	for name, b := range got {
		w, ok := want[name]
		switch {
		case !ok:
			t.Errorf("%s: unexpected output file %s", pass, name)
		case !bytes.Equal(b, w):
			t.Errorf("%s: %s differs from golden (run with -update if intended):\n got: %.400s\nwant: %.400s", pass, name, b, w)
		}
	}
}

// TestThreeLocales proves a third locale is config plus a folder: German
// pages exist, have their own hreflang and fall back to Polish where missing.
func TestThreeLocales(t *testing.T) {
	out := filepath.Join(t.TempDir(), "public")
	rep := buildFixture(t, fixtureCopy(t), out)
	de, err := os.ReadFile(filepath.Join(out, "de/index.html"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`<html lang="de">`, `hreflang="de" href="https://example.test/de/"`, "Startseite"} {
		if !bytes.Contains(de, []byte(want)) {
			t.Errorf("de/index.html lacks %q", want)
		}
	}
	fb, err := os.ReadFile(filepath.Join(out, "de/o-nas/kontakt/index.html"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(fb, []byte(`<link rel="canonical" href="https://example.test/pl/o-nas/kontakt/">`)) {
		t.Errorf("a fallback page must be canonical to the original")
	}
	var ids []string
	for _, f := range rep.Fallbacks {
		ids = append(ids, f.Lang+":"+f.ID)
	}
	sort.Strings(ids)
	want := "de:404 de:500 de:contact de:post-first en:500 en:post-first"
	if got := strings.Join(ids, " "); got != want {
		t.Errorf("fallbacks = %s, want %s", got, want)
	}
	if len(rep.DataFallbacks) != 1 || rep.DataFallbacks[0] != [2]string{"en", "home.stats"} {
		t.Errorf("data fallbacks = %v", rep.DataFallbacks)
	}
}

// TestDeterministic builds each fixture twice, from copies in different
// folders, into different folders: byte-identical, island SSR included.
func TestDeterministic(t *testing.T) {
	for _, gs := range goldenSites {
		t.Run(gs.name, func(t *testing.T) {
			build := func(dir string) map[string][]byte {
				out := filepath.Join(t.TempDir(), "out")
				buildFixture(t, fixtureSite(t, gs.name, dir), out)
				return readTree(t, out)
			}
			a := build(t.TempDir())
			b := build(filepath.Join(t.TempDir(), "elsewhere", "deeper"))
			if len(a) != len(b) {
				t.Fatalf("%d files vs %d files", len(a), len(b))
			}
			for name, x := range a {
				if !bytes.Equal(x, b[name]) {
					t.Errorf("%s differs between two builds", name)
				}
			}
		})
	}
}

// fixtureCopy copies the fixture site into a temporary folder: tests build
// from the copy and into temporary folders, so nothing a build does (or a
// broken --out guard) can touch the fixture in the repository.
func fixtureCopy(t *testing.T) string {
	t.Helper()
	src := filepath.Join(t.TempDir(), "site")
	copyTree(t, fixture, src)
	return src
}

// copyTree copies a fixture site so a test can change it.
func copyTree(t testing.TB, src, dst string) { treetest.Copy(t, src, dst) }

// TestFailedBuildKeepsOutput proves atomicity: a build that fails leaves the
// previous output exactly as it was, and no temporary folder behind.
func TestFailedBuildKeepsOutput(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "site")
	copyTree(t, fixture, src)
	out := filepath.Join(dir, "public")
	buildFixture(t, src, out)
	before := readTree(t, out)

	// A page whose link target does not exist: found while rendering, after
	// some pages were already written into the temporary tree.
	bad := "---\nid: broken\ntitle: Zepsuta\ndescription: Zepsuta strona.\n---\nZobacz [nic](ref:nothing-here).\n"
	if err := os.WriteFile(filepath.Join(src, "content/pl/zzz.md"), []byte(bad), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := Run(context.Background(), Options{Source: src, Out: out, Date: "2026-01-01"})
	if err == nil || !strings.Contains(err.Error(), "content/pl/zzz.md:6:8:") {
		t.Fatalf("want an error at content/pl/zzz.md:6:8, got %v", err)
	}
	after := readTree(t, out)
	if len(after) != len(before) {
		t.Fatalf("output changed: %d files before, %d after", len(before), len(after))
	}
	for name, b := range before {
		if !bytes.Equal(b, after[name]) {
			t.Errorf("%s changed after a failed build", name)
		}
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".sitegen-") && !strings.HasPrefix(e.Name(), ".sitegen-lock-") { // the lock stays
			t.Errorf("left behind %s", e.Name())
		}
	}
}

// TestOutRefusesSource: --out naming the site, a folder holding it, one of
// its source folders or a file in it is refused with the exact reason, and
// nothing of the site changes. It works on a copy of the fixture, so a broken
// guard destroys only a temporary folder.
func TestOutRefusesSource(t *testing.T) {
	parent := t.TempDir()
	src := filepath.Join(parent, "site")
	copyTree(t, fixture, src)
	before := readTree(t, src)
	tests := []struct{ out, reason string }{
		{src, "it is the site source; choose a new folder such as public"},
		{parent, "it holds the site source " + src + "; choose a new folder such as public"},
		{src + "/content", "it is inside the site's content/ folder; choose a folder outside content/, templates/ and assets/, such as public"},
		{src + "/templates/layouts", "it is inside the site's templates/ folder; choose a folder outside content/, templates/ and assets/, such as public"},
		{src + "/assets", "it is inside the site's assets/ folder; choose a folder outside content/, templates/ and assets/, such as public"},
		{src + "/site.yaml", "it is not a folder (a regular file); choose a new folder such as public"},
	}
	for _, tt := range tests {
		_, err := Run(context.Background(), Options{Source: src, Out: tt.out, Date: "2026-01-01"})
		var re *output.RefusedError
		if !errors.As(err, &re) {
			t.Errorf("--out %s: err = %v, want a refusal", tt.out, err)
			continue
		}
		if want := "refusing to write the output to " + tt.out + ": " + tt.reason; err.Error() != want {
			t.Errorf("--out %s:\n got: %v\nwant: %s", tt.out, err, want)
		}
	}
	after := readTree(t, src)
	if len(after) != len(before) {
		t.Fatalf("the site had %d files, now %d", len(before), len(after))
	}
	for name, b := range before {
		if !bytes.Equal(after[name], b) {
			t.Errorf("%s changed", name)
		}
	}
}

// TestOutRefusesForeignFolder: a folder sitegen did not write is left as it
// was; a folder it wrote (the manifest) is replaced.
func TestOutRefusesForeignFolder(t *testing.T) {
	out := filepath.Join(t.TempDir(), "public")
	os.MkdirAll(out, 0o755)
	os.WriteFile(filepath.Join(out, "thesis.tex"), []byte("years of work"), 0o644)
	_, err := Run(context.Background(), Options{Source: fixture, Out: out, Date: "2026-01-01"})
	if !errors.As(err, new(*output.RefusedError)) {
		t.Fatalf("err = %v, want a refusal", err)
	}
	if b, err := os.ReadFile(filepath.Join(out, "thesis.tex")); err != nil || string(b) != "years of work" {
		t.Fatalf("the folder was touched: %q, %v", b, err)
	}
	os.Remove(filepath.Join(out, "thesis.tex"))
	buildFixture(t, fixture, out) // empty: allowed
	buildFixture(t, fixture, out) // marked: allowed
	if !output.Marked(out) {
		t.Errorf("the output carries no mark")
	}
	// A file added to a tree sitegen wrote would be lost: refused too.
	os.WriteFile(filepath.Join(out, "CNAME"), []byte("example.test"), 0o644)
	if _, err := Run(context.Background(), Options{Source: fixture, Out: out, Date: "2026-01-01"}); !errors.As(err, new(*output.RefusedError)) {
		t.Fatalf("a marked tree with an added file: err = %v, want a refusal", err)
	}
	if _, err := os.Stat(filepath.Join(out, "CNAME")); err != nil {
		t.Errorf("the added file is gone: %v", err)
	}
}

// TestInvalidSites builds each testdata/invalid/*.txtar: the fixture site with
// the archive's files laid over it must fail with exactly the archive's
// "want" diagnostics, sorted (-update rewrites the want sections).
func TestInvalidSites(t *testing.T) {
	cases, _ := filepath.Glob("../../testdata/invalid/*.txtar")
	if len(cases) == 0 {
		t.Fatal("no invalid fixtures")
	}
	for _, c := range cases {
		t.Run(strings.TrimSuffix(filepath.Base(c), ".txtar"), func(t *testing.T) {
			ar, err := txtar.ParseFile(c)
			if err != nil {
				t.Fatal(err)
			}
			src := filepath.Join(t.TempDir(), "site")
			copyTree(t, fixture, src)
			var want string
			for _, f := range ar.Files {
				if f.Name == "want" {
					want = strings.TrimSpace(string(f.Data))
					continue
				}
				p := filepath.Join(src, filepath.FromSlash(f.Name))
				os.MkdirAll(filepath.Dir(p), 0o755)
				data := f.Data
				if strings.TrimSpace(string(data)) == "(delete)" {
					os.Remove(p)
					continue
				}
				if err := os.WriteFile(p, data, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			_, err = Run(context.Background(), Options{Source: src, Out: filepath.Join(t.TempDir(), "out"), Date: "2026-01-01"})
			if err == nil {
				t.Fatalf("build succeeded, want:\n%s", want)
			}
			got := strings.TrimSpace(err.Error())
			if *update && got != want {
				for i := range ar.Files {
					if ar.Files[i].Name == "want" {
						ar.Files[i].Data = []byte(got + "\n")
					}
				}
				if err := os.WriteFile(c, txtar.Format(ar), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			if got != want {
				t.Errorf("diagnostics:\n%s\nwant:\n%s", got, want)
			}
		})
	}
}

// TestBuildHash: unchanged input keeps the hash; editing a page body keeps it
// too (and leaves every other page byte-identical); editing a template
// changes it.
func TestBuildHash(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "site")
	copyTree(t, fixture, src)
	build := func(out string) (string, map[string][]byte) {
		rep := buildFixture(t, src, filepath.Join(dir, out))
		return rep.BuildHash, readTree(t, filepath.Join(dir, out))
	}
	h1, tree1 := build("a")
	if h, _ := build("b"); h != h1 {
		t.Fatalf("same input, different hash: %s vs %s", h1, h)
	}
	page := filepath.Join(src, "content/pl/kontakt.md")
	b, _ := os.ReadFile(page)
	os.WriteFile(page, append(b, []byte("\nNowy akapit.\n")...), 0o644)
	h2, tree2 := build("c")
	if h2 != h1 {
		t.Errorf("editing a page body changed the build hash")
	}
	for name, x := range tree1 {
		changed := !bytes.Equal(x, tree2[name])
		own := strings.Contains(name, "o-nas/kontakt/") // the page, its page data and fallback copies
		if changed && !own {
			t.Errorf("%s changed although only content/pl/kontakt.md was edited", name)
		}
		if !changed && name == "pl/o-nas/kontakt/index.html" {
			t.Errorf("the edited page did not change")
		}
	}
	tpl := filepath.Join(src, "templates/layouts/page.html")
	b, _ = os.ReadFile(tpl)
	os.WriteFile(tpl, append(b, '\n'), 0o644)
	if h3, _ := build("d"); h3 == h1 {
		t.Errorf("editing a template kept the build hash")
	}
}

// TestListFuncs: append builds lists of any length; partial returns a named
// template's output as HTML.
func TestListFuncs(t *testing.T) {
	src := filepath.Join(t.TempDir(), "site")
	copyTree(t, fixture, src)
	layout := `{{ define "main" }}<h1>x</h1>{{ $l := list }}{{ range seq 30 }}{{ $l = append $l (dict "n" .) }}{{ end }}<p id="n">{{ len $l }} {{ (index $l 29).n }} {{ len (append (list 1) 2 3) }}</p>{{ partial "partials/box.html" (dict "n" (len $l)) }}{{ end }}`
	os.WriteFile(filepath.Join(src, "templates/layouts/error.html"), []byte(layout), 0o644)
	os.WriteFile(filepath.Join(src, "templates/partials/box.html"), []byte(`<b class="box">{{ .n }} &amp; {{ "<i>" }}</b>`), 0o644)
	out := filepath.Join(t.TempDir(), "out")
	buildFixture(t, src, out)
	b, _ := os.ReadFile(filepath.Join(out, "pl/404/index.html"))
	for _, want := range []string{`<p id="n">30 30 3</p>`, `<b class="box">30 &amp; &lt;i&gt;</b>`} {
		if !strings.Contains(string(b), want) {
			t.Errorf("output lacks %s:\n%s", want, b)
		}
	}
}

// TestAnotherSite: a site that shares none of this repository's website's
// names builds as its site.yaml says. Its home page (id start, the empty
// slug) is the root page and gives the locales' slices; it has no offline
// page, so the build lists none; its counter script, not a tag manager, is
// what the CSP allows; its form gets the default trap input and the
// engine's words where the site has none of its own (in French, the
// engine's English), the site's where it has (the trap's label).
func TestAnotherSite(t *testing.T) {
	site := fixtureSite(t, "atelier", t.TempDir())
	out := filepath.Join(t.TempDir(), "public")
	if _, err := Run(context.Background(), Options{Source: site, Out: out, Date: "2026-01-01", Minify: true}); err != nil {
		t.Fatal(err)
	}
	read := func(name string) string {
		t.Helper()
		b, err := os.ReadFile(filepath.Join(out, name))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	if root := read("index.html"); !strings.Contains(root, "<h1>Atelier Papier</h1>") || !strings.Contains(root, "letterpress") && !strings.Contains(root, "1920s press") {
		t.Errorf("/ is not the home page (id start):\n%s", root)
	}
	for _, f := range []string{"slice-data/header-en.json", "slice-data/footer-fr.json"} {
		read(f)
	}
	headers := read("_headers")
	if !strings.Contains(headers, "script-src 'self' https://count.example.org") || strings.Contains(headers, "googletagmanager") {
		t.Errorf("the CSP does not allow exactly the counter's origin:\n%s", headers)
	}
	var schema forms.Schema
	if err := json.Unmarshal([]byte(read("_forms/contact.schema.json")), &schema); err != nil {
		t.Fatal(err)
	}
	en, fr := formschema.Defaults["en"], schema.UI["fr"]
	if schema.Honeypot != config.DefaultHoneypot || !strings.Contains(read("fr/contact/index.html"), `name="`+config.DefaultHoneypot+`"`) {
		t.Errorf("trap input %q, want the default %q in the schema and the page", schema.Honeypot, config.DefaultHoneypot)
	}
	if fr.Messages[forms.CodeRequired] != en["form_msg_required"] || fr.Heading != en[formschema.KeyErrorsHeading] || fr.Back != en[formschema.KeyBack] {
		t.Errorf("French texts without the site's own: %+v, want the engine's English", fr)
	}
	if fr.Honeypot != "Laissez ce champ vide" || fr.Home != "/fr/" {
		t.Errorf("French trap label %q (want the site's), home %q (want /fr/)", fr.Honeypot, fr.Home)
	}
}
