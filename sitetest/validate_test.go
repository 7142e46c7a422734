package sitetest

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"sitegen/internal/waittest"
)

// TestHTMLValid runs html-validate (pinned in package.json) over every page
// of the built site with the repository's .htmlvalidate.mjs: the recommended
// rules minus the ones that only judge source formatting (the file says
// which and why). Any error fails the test, with file:line and rule.
func TestHTMLValid(t *testing.T) {
	out := site(t)
	errs, files := htmlValidate(t, out)
	if files < 100 {
		t.Fatalf("html-validate saw %d files; the site has more", files)
	}
	for i, e := range errs {
		if i == 40 {
			t.Errorf("... and %d more", len(errs)-i)
			break
		}
		t.Errorf("%s:%d:%d: %s (%s)", e.File, e.Line, e.Column, e.Message, e.Rule)
	}
}

// TestHTMLValidatorCatchesBrokenPages: the validator run is able to fail:
// a redirect page without lang, a <p> inside <summary> and a telephone number
// that may break across lines are each reported.
func TestHTMLValidatorCatchesBrokenPages(t *testing.T) {
	dir := t.TempDir()
	pages := map[string]string{
		"redirect.html": `<!doctype html>
<html><head><meta charset="utf-8"><title>/pl/</title><meta http-equiv="refresh" content="0; url=/pl/"></head>
<body><p><a href="/pl/">/pl/</a></p></body></html>
`,
		"summary.html": `<!doctype html>
<html lang="pl"><head><meta charset="utf-8"><title>Praca</title></head>
<body><main><details><summary><h3>Rekruter</h3><p>Warszawa</p></summary><p>Opis</p></details></main></body></html>
`,
		"tel.html": `<!doctype html>
<html lang="pl"><head><meta charset="utf-8"><title>Kontakt</title></head>
<body><main><p><a href="tel:+48221234567">+48 22 123 45 67</a></p></main></body></html>
`,
	}
	for name, src := range pages {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	errs, _ := htmlValidate(t, dir)
	want := map[string]string{
		"redirect.html": "element-required-attributes",
		"summary.html":  "element-permitted-content",
		"tel.html":      "tel-non-breaking",
	}
	for file, rule := range want {
		found := false
		for _, e := range errs {
			if e.File == file && e.Rule == rule {
				found = true
			}
		}
		if !found {
			t.Errorf("%s: no %s error; got %v", file, rule, errs)
		}
	}
}

type validationError struct {
	File    string `json:"file"`
	Line    int    `json:"line"`
	Column  int    `json:"column"`
	Rule    string `json:"rule"`
	Message string `json:"message"`
}

// htmlValidate validates every .html file under dir through
// testdata/htmlvalidate.mjs (html-validate's API; its CLI needs a newer
// Node than Debian's to expand file names).
func htmlValidate(t *testing.T, dir string) ([]validationError, int) {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Fatal("node is not installed: it runs html-validate (make setup installs the npm packages)")
	}
	if _, err := os.Stat(filepath.Join("..", "node_modules", "html-validate", "package.json")); err != nil {
		t.Fatal("html-validate is not installed; run make setup")
	}
	cmd := waittest.Command(t, node, filepath.Join("testdata", "htmlvalidate.mjs"), filepath.Join("..", ".htmlvalidate.mjs"), dir)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	outb, err := cmd.Output()
	if err != nil {
		t.Fatalf("html-validate: %v\n%s", err, stderr.String())
	}
	var res struct {
		Files  int               `json:"files"`
		Errors []validationError `json:"errors"`
	}
	if err := json.Unmarshal(outb, &res); err != nil {
		t.Fatalf("html-validate output: %v\n%s", err, outb)
	}
	for i := range res.Errors {
		res.Errors[i].File = filepath.ToSlash(res.Errors[i].File)
	}
	return res.Errors, res.Files
}
