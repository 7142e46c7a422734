package sitetest

// Checks of the website's own island components (assets/islands): their
// server-rendered HTML per locale against goldens, the parts of the markup
// the spec requires, the contact page's size budget, and their build with
// React. The engine itself is tested on fixture islands in pkg/islands.
//
//	go test ./sitetest -run Islands [-update]

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"sitegen/pkg/islands"
)

var updateIslands = flag.Bool("update", false, "rewrite testdata/islands/golden/*.golden")

// siteIslandNames are the website's islands, in the order Names() gives.
var siteIslandNames = []string{"ConsentBanner", "DemoForm", "JobsList", "MobileMenu", "ReportTabs", "RotatingText"}

var (
	islandsOnce   sync.Once
	islandsBundle *islands.Bundle
	islandsErr    error
)

// siteIslands builds the website's islands once per test binary.
func siteIslands(t testing.TB) *islands.Bundle {
	t.Helper()
	islandsOnce.Do(func() {
		islandsBundle, islandsErr = islands.Build(context.Background(), islands.Options{Root: "..", Minify: true, Workers: 2})
	})
	if islandsErr != nil {
		t.Fatal(islandsErr)
	}
	return islandsBundle
}

// islandProps reads testdata/islands/props/<name>.
func islandProps(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "islands", "props", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// islandChildren reads the server-rendered children of a fixture, if any.
func islandChildren(t testing.TB, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "islands", "props", name))
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		t.Fatal(err)
	}
	return strings.TrimSpace(string(b))
}

func TestIslandsNames(t *testing.T) {
	b := siteIslands(t)
	if got := b.Names(); strings.Join(got, ",") != strings.Join(siteIslandNames, ",") {
		t.Fatalf("Names() = %v, want %v", got, siteIslandNames)
	}
}

// TestIslandsGolden renders every website island on Polish and English props
// and compares with testdata/islands/golden/<Island>.<lang>.golden.
func TestIslandsGolden(t *testing.T) {
	b := siteIslands(t)
	ctx := context.Background()
	chunk := regexp.MustCompile(`data-chunk="[A-Za-z]+-[A-Z0-9]+\.js"`)
	for _, name := range b.Names() {
		for _, lang := range []string{"pl", "en"} {
			t.Run(name+"."+lang, func(t *testing.T) {
				props := islandProps(t, name+"."+lang+".json")
				children := islandChildren(t, name+"."+lang+".children.html")
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
				golden := filepath.Join("testdata", "islands", "golden", name+"."+lang+".golden")
				if *updateIslands {
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
				if again := render(); again != string(want) {
					t.Errorf("%s: a second render differs from the golden:\n%s", golden, again)
				}
			})
		}
	}
}

// TestIslandsContracts checks the parts of the website islands' markup the
// spec requires, independently of the goldens.
func TestIslandsContracts(t *testing.T) {
	b := siteIslands(t)
	ctx := context.Background()
	render := func(name, fixture, children string) string {
		t.Helper()
		h, _, err := b.Render(ctx, name, islandProps(t, fixture), "load", children)
		if err != nil {
			t.Fatal(err)
		}
		return h
	}
	form := render("DemoForm", "DemoForm.pl.json", islandChildren(t, "DemoForm.pl.children.html"))
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
	menu := render("MobileMenu", "MobileMenu.pl.json", islandChildren(t, "MobileMenu.pl.children.html"))
	for _, want := range []string{`<details class="mobile-menu">`, `<summary class="mobile-menu__toggle">`, `<nav aria-label="Menu" data-sg-children class="mobile-menu__nav"><ul class="mobile-menu__list">`, `aria-current="page"`} {
		if !strings.Contains(menu, want) {
			t.Errorf("MobileMenu: missing %q in\n%s", want, menu)
		}
	}
	consent := render("ConsentBanner", "ConsentBanner.en.json", "")
	if !strings.Contains(consent, `<section aria-labelledby="consent-banner-title" hidden class="consent-banner">`) {
		t.Errorf("ConsentBanner: not hidden in SSR:\n%s", consent)
	}
	// A JobsList page preloads no DemoForm code.
	for _, u := range b.ModulePreloads([]string{"JobsList"}) {
		if strings.Contains(u, "DemoForm") {
			t.Errorf("JobsList page preloads %s", u)
		}
	}
}

// TestIslandsSizeBudget: the contact page's islands (loader + DemoForm +
// RotatingText and their chunks) must stay within 15 KB gzip.
func TestIslandsSizeBudget(t *testing.T) {
	b := siteIslands(t)
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
	pageTotal := func(names ...string) int {
		total := 0
		for _, u := range append(b.Scripts(names), b.ModulePreloads(names)...) {
			total += gz(u)
		}
		return total
	}
	for _, n := range b.Names() {
		t.Logf("%-14s with loader and shared chunks %5d B gzip", n, pageTotal(n))
	}
	total := pageTotal("DemoForm", "RotatingText")
	t.Logf("contact page (loader + DemoForm + RotatingText): %d B gzip", total)
	if total > 15*1024 {
		t.Errorf("contact page islands: %d B gzip > 15 KB budget", total)
	}
}

// TestIslandsReact: the website's islands also build and render with React
// (islands.library: react).
func TestIslandsReact(t *testing.T) {
	if testing.Short() {
		t.Skip("React build is slow-ish")
	}
	b, err := islands.Build(context.Background(), islands.Options{Root: "..", Library: "react", Minify: true, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	ctx := context.Background()
	for _, name := range b.Names() {
		html, _, err := b.Render(ctx, name, islandProps(t, name+".pl.json"), "load", "")
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !strings.Contains(html, `<sg-island data-island="`+name+`"`) {
			t.Errorf("%s: %s", name, html)
		}
	}
	form, _, _ := b.Render(ctx, "DemoForm", islandProps(t, "DemoForm.en.json"), "load", "")
	if !strings.Contains(form, `<form id="demo-form" class="demo-form"`) || !strings.Contains(form, `action="/api/demo" method="post"`) {
		t.Errorf("React DemoForm: %s", form)
	}
}
