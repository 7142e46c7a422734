package main

import (
	"bytes"
	"context"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"

	"sitegen/pkg/config"
	"sitegen/pkg/formschema"
	"sitegen/pkg/render"
	"sitegen/pkg/schema"
)

// TestDocsMinimalSite: the complete minimal site shown in
// docs/content-model.md is testdata/sites/minimal file for file, and it
// builds and passes sitegen check with no errors.
func TestDocsMinimalSite(t *testing.T) {
	md, err := os.ReadFile("../../docs/content-model.md")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile("(?s)\n```txtar\n(.*?)```\n").FindSubmatch(md)
	if m == nil {
		t.Fatal("docs/content-model.md has no ```txtar block with the minimal site")
	}
	doc := txtar.Parse(m[1])
	if len(bytes.TrimSpace(doc.Comment)) != 0 {
		t.Errorf("text before the first file in the doc's block: %q", doc.Comment)
	}
	const fixture = "../../testdata/sites/minimal"
	want := map[string][]byte{}
	err = filepath.WalkDir(fixture, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		rel, _ := filepath.Rel(fixture, p)
		want[filepath.ToSlash(rel)] = b
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	site := t.TempDir()
	for _, f := range doc.Files {
		w, ok := want[f.Name]
		switch {
		case !ok:
			t.Errorf("the doc shows %s, which testdata/sites/minimal does not have", f.Name)
		case !bytes.Equal(f.Data, w):
			t.Errorf("the doc's %s differs from testdata/sites/minimal/%s:\ndoc:\n%s\nfixture:\n%s", f.Name, f.Name, f.Data, w)
		}
		delete(want, f.Name)
		if err := os.MkdirAll(filepath.Join(site, filepath.Dir(f.Name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(site, f.Name), f.Data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for name := range want {
		t.Errorf("testdata/sites/minimal/%s is not shown in the doc", name)
	}

	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	out := filepath.Join(t.TempDir(), "public")
	for _, args := range [][]string{
		{"build", "--source", site, "--out", out, "--date", "2026-01-15"},
		{"check", "--source", site, "--date", "2026-01-15"},
	} {
		var stdout, stderr bytes.Buffer
		if code := run(context.Background(), args, &stdout, &stderr); code != 0 {
			t.Fatalf("sitegen %s exited %d:\n%s%s", strings.Join(args, " "), code, stdout.String(), stderr.String())
		}
		if args[0] == "check" && !strings.Contains(stdout.String()+stderr.String(), "0 error(s)") {
			t.Errorf("sitegen check:\n%s%s", stdout.String(), stderr.String())
		}
	}
	for _, f := range []string{"en/index.html", "pl/index.html", "index.html", "sitemap.xml"} {
		if _, err := os.Stat(filepath.Join(out, f)); err != nil {
			t.Errorf("the build wrote no %s: %v", f, err)
		}
	}
}

// TestDocsLinks: every relative link in docs/*.md and README.md names a file
// of the repository and, with #anchor, a heading of that Markdown file (as
// GitHub makes anchors), so moving a section cannot leave a link behind.
func TestDocsLinks(t *testing.T) {
	pages, _ := filepath.Glob("../../docs/*.md")
	pages = append(pages, "../../README.md")
	fence := regexp.MustCompile("(?ms)^```.*?^```")
	link := regexp.MustCompile(`\]\(([^)\s]+)\)`)
	headings := map[string]map[string]bool{}
	anchors := func(file string) map[string]bool {
		if h, ok := headings[file]; ok {
			return h
		}
		b, _ := os.ReadFile(file)
		h := map[string]bool{}
		for _, m := range regexp.MustCompile(`(?m)^#+ (.*)$`).FindAllSubmatch(fence.ReplaceAll(b, nil), -1) {
			a := strings.ToLower(strings.TrimSpace(string(m[1])))
			a = regexp.MustCompile(`[^\p{L}\p{N}_\- ]`).ReplaceAllString(a, "")
			h[strings.ReplaceAll(a, " ", "-")] = true
		}
		headings[file] = h
		return h
	}
	for _, page := range pages {
		b, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range link.FindAllSubmatch(fence.ReplaceAll(b, nil), -1) {
			u := string(m[1])
			if strings.Contains(u, ":") {
				continue // https:, mailto:
			}
			file, frag, _ := strings.Cut(u, "#")
			target := page
			if file != "" {
				target = filepath.Join(filepath.Dir(page), file)
			}
			if _, err := os.Stat(target); err != nil {
				t.Errorf("%s: link %s: no such file", page, u)
				continue
			}
			if frag != "" && strings.HasSuffix(target, ".md") && !anchors(target)[frag] {
				t.Errorf("%s: link %s: %s has no heading with the anchor #%s", page, u, target, frag)
			}
		}
	}
}

// TestDocsSiteYAMLKeys: the site.yaml table of docs/content-model.md has a
// row for every key config.Config decodes (a row "images.maxPixels" counts
// for images), and no row for a key it does not.
func TestDocsSiteYAMLKeys(t *testing.T) {
	md, err := os.ReadFile("../../docs/content-model.md")
	if err != nil {
		t.Fatal(err)
	}
	_, table, ok := strings.Cut(string(md), "\n## site.yaml\n")
	if !ok {
		t.Fatal(`docs/content-model.md has no "## site.yaml" section`)
	}
	table, _, _ = strings.Cut(table, "\n## ")
	documented := map[string]bool{}
	for _, m := range regexp.MustCompile("(?m)^\\| `([A-Za-z]+)[.`]").FindAllStringSubmatch(table, -1) {
		documented[m[1]] = true
	}
	typ := reflect.TypeOf(config.Config{})
	for i := 0; i < typ.NumField(); i++ {
		key, _, _ := strings.Cut(typ.Field(i).Tag.Get("yaml"), ",")
		if key == "" || key == "-" {
			continue
		}
		if !documented[key] {
			t.Errorf("site.yaml key %s (config.Config.%s) has no row in docs/content-model.md's site.yaml table", key, typ.Field(i).Name)
		}
		delete(documented, key)
	}
	for key := range documented {
		t.Errorf("docs/content-model.md's site.yaml table documents %s, which site.yaml does not have", key)
	}
}

// TestDocsFrontMatterKeys: the front matter example of docs/content-model.md
// shows every key a page and a section may have (schema.FrontMatterKeys, the
// keys the engine decodes), and no other.
func TestDocsFrontMatterKeys(t *testing.T) {
	md, err := os.ReadFile("../../docs/content-model.md")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile("(?s)\n## Pages \\(front matter\\)\n+```markdown\n---\n(.*?)\n---\n").FindSubmatch(md)
	if m == nil {
		t.Fatal("docs/content-model.md has no front matter example under \"## Pages (front matter)\"")
	}
	shown := map[string]map[string]bool{"page": {}, "section": {}}
	for _, line := range strings.Split(string(m[1]), "\n") {
		if k := regexp.MustCompile(`^([a-z][a-zA-Z]*):`).FindStringSubmatch(line); k != nil {
			shown["page"][k[1]] = true
		} else if k := regexp.MustCompile(`^\s+(?:- )?([a-z][a-zA-Z]*):`).FindStringSubmatch(line); k != nil {
			shown["section"][k[1]] = true
		}
	}
	page, section := schema.FrontMatterKeys()
	for kind, keys := range map[string]map[string]bool{"page": page, "section": section} {
		for k := range keys {
			if !shown[kind][k] {
				t.Errorf("the front matter example lacks the %s key %s", kind, k)
			}
			delete(shown[kind], k)
		}
		for k := range shown[kind] {
			t.Errorf("the front matter example shows a %s key %s the engine does not read", kind, k)
		}
	}
}

// TestDocsStarter: what the docs promise of the site `sitegen init` writes
// holds. README's tour (init, build --host, check) runs; docs/islands.md:
// init writes package.json and its lock file; docs/content-model.md: the
// .gitignore keeps everything sitegen writes (the output, the kept tree,
// .sitegen-data.schema.json) out of git; docs/getting-started.md: its CSP
// allows its stylesheet by hash, without 'unsafe-inline'; its 404 and 500
// pages carry noindex and no other page does, and answer 404 at their own
// URLs (docs/hosting.md); every page names a favicon
// the build wrote; and sitegen check reports no error and no warning.
func TestDocsStarter(t *testing.T) {
	git, err := exec.LookPath("git")
	if err != nil {
		t.Skip("git not found")
	}
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	site := filepath.Join(t.TempDir(), "my-site")
	sitegen := func(args ...string) string {
		t.Helper()
		var stdout, stderr bytes.Buffer
		if code := run(context.Background(), args, &stdout, &stderr); code != 0 {
			t.Fatalf("sitegen %s exited %d:\n%s%s", strings.Join(args, " "), code, stdout.String(), stderr.String())
		}
		return stdout.String() + stderr.String()
	}
	sitegen("init", site)
	for _, f := range []string{"package.json", "package-lock.json", ".gitignore"} {
		if _, err := os.Stat(filepath.Join(site, f)); err != nil {
			t.Errorf("init wrote no %s: %v", f, err)
		}
	}
	nm, _ := filepath.Abs("../../node_modules")
	if err := os.Symlink(nm, filepath.Join(site, "node_modules")); err != nil {
		t.Fatal(err)
	}
	gitRun := func(args ...string) string {
		t.Helper()
		cmd := exec.Command(git, args...)
		cmd.Dir = site
		cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
		b, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, b)
		}
		return string(b)
	}
	gitRun("init", "-q")
	starterFiles := gitRun("ls-files", "--others", "--exclude-standard")

	sitegen("build", "--source", site, "--out", filepath.Join(site, "public"), "--host", "netlify", "--date", "2026-01-15")
	if s := sitegen("check", "--source", site, "--date", "2026-01-15"); !strings.Contains(s, " 0 error(s), 0 warning(s)") {
		t.Errorf("sitegen check on a new site:\n%s", s)
	}
	schemaOut := sitegen("schema", "--source", site)
	if err := os.WriteFile(filepath.Join(site, ".sitegen-data.schema.json"), []byte(schemaOut), 0o644); err != nil {
		t.Fatal(err)
	}
	if after := gitRun("ls-files", "--others", "--exclude-standard"); after != starterFiles {
		t.Errorf("after build and schema, git sees more files than the starter's (the .gitignore misses what sitegen wrote):\nbefore:\n%s\nafter:\n%s", starterFiles, after)
	}

	out := filepath.Join(site, "public")
	headers, err := os.ReadFile(filepath.Join(out, "_headers"))
	if err != nil {
		t.Fatal(err)
	}
	redirects, err := os.ReadFile(filepath.Join(out, "_redirects"))
	if err != nil {
		t.Fatal(err)
	}
	for _, u := range []string{"/en/404/", "/en/500/", "/pl/404/", "/pl/500/"} {
		if !regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(u) + ` \S+ 404!$`).Match(redirects) {
			t.Errorf("_redirects does not answer the error page %s with 404:\n%s", u, redirects)
		}
	}
	csp := regexp.MustCompile(`Content-Security-Policy: (.*)`).FindSubmatch(headers)
	styleSrc := regexp.MustCompile(`style-src ([^;]*)`).FindSubmatch(csp[1])
	if styleSrc == nil || bytes.Contains(styleSrc[1], []byte("unsafe-inline")) || !bytes.Contains(styleSrc[1], []byte("'sha256-")) {
		t.Errorf("the CSP does not allow the stylesheet by its hash alone: %s", csp[1])
	}
	pages := 0
	err = filepath.WalkDir(out, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".html") {
			return err
		}
		pages++
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(out, p)
		rel = filepath.ToSlash(rel)
		isError := regexp.MustCompile(`(^|/)(404|500)(\.html|/index\.html)$`).MatchString(rel)
		if noindex := bytes.Contains(b, []byte(`<meta name="robots" content="noindex">`)); noindex != isError {
			t.Errorf("%s: robots noindex %v, want %v", rel, noindex, isError)
		}
		icon := regexp.MustCompile(`<link rel="icon" href="([^"]+)"`).FindSubmatch(b)
		if icon == nil {
			t.Errorf("%s: no favicon link", rel)
		} else if _, err := os.Stat(filepath.Join(out, string(icon[1]))); err != nil {
			t.Errorf("%s: the favicon %s was not written", rel, icon[1])
		}
		if bytes.Contains(b, []byte(`rel="stylesheet"`)) || !bytes.Contains(b, []byte("<style>")) {
			t.Errorf("%s: the stylesheet is not inline (allowed by its hash)", rel)
		}
		return nil
	})
	if err != nil || pages < 8 {
		t.Fatalf("%d pages: %v", pages, err)
	}
}

// TestDocsLayoutContext: the table "What a layout gets" of
// docs/templates.md names every exported field of the page context
// (render.PageContext, its .Site and .Page), and none it does not have.
func TestDocsLayoutContext(t *testing.T) {
	md, err := os.ReadFile("../../docs/templates.md")
	if err != nil {
		t.Fatal(err)
	}
	_, table, ok := strings.Cut(string(md), "\n## What a layout gets\n")
	if !ok {
		t.Fatal(`docs/templates.md has no "## What a layout gets" section`)
	}
	table, _, _ = strings.Cut(table, "\nA section template")
	documented := map[string]bool{}
	for _, row := range regexp.MustCompile("(?m)^\\| (.*?) \\|").FindAllStringSubmatch(table, -1) {
		for _, code := range regexp.MustCompile("`([^`]*)`").FindAllStringSubmatch(row[1], -1) {
			for _, f := range strings.Fields(code[1]) {
				documented[f] = true
			}
		}
	}
	var want []string
	fields := func(prefix string, typ reflect.Type) {
		for i := 0; i < typ.NumField(); i++ {
			if f := typ.Field(i); f.IsExported() && f.Name != "Site" && f.Name != "Page" {
				want = append(want, prefix+f.Name)
			}
		}
	}
	fields(".", reflect.TypeOf(render.PageContext{}))
	fields(".Site.", reflect.TypeOf(render.SiteInfo{}))
	fields(".Page.", reflect.TypeOf(render.PageInfo{}))
	for _, f := range want {
		if !documented[f] {
			t.Errorf("docs/templates.md's \"What a layout gets\" does not list %s", f)
		}
		delete(documented, f)
	}
	for f := range documented {
		if regexp.MustCompile(`^\.(Site|Page)\.[A-Z]\w*$`).MatchString(f) {
			t.Errorf("docs/templates.md's \"What a layout gets\" lists %s, which a layout does not get", f)
		}
	}
}

// TestDocsFormStrings: docs/forms.md lists every UI string key the build
// copies into a form's schema for the handler's messages.
func TestDocsFormStrings(t *testing.T) {
	md, err := os.ReadFile("../../docs/forms.md")
	if err != nil {
		t.Fatal(err)
	}
	_, table, ok := strings.Cut(string(md), "\n## The handler's texts\n")
	if !ok {
		t.Fatal(`docs/forms.md has no "## The handler's texts" section`)
	}
	table, _, _ = strings.Cut(table, "\n## ")
	for code, key := range formschema.MessageKeys {
		if !strings.Contains(table, "| `"+key+"` |") {
			t.Errorf("docs/forms.md does not list %s, the message of error code %s", key, code)
		}
	}
	for key, text := range formschema.Defaults["en"] {
		if !strings.Contains(table, "| `"+key+"` |") || !strings.Contains(table, "| "+text+" |") {
			t.Errorf("docs/forms.md does not list %s with the engine's English %q", key, text)
		}
	}
}
