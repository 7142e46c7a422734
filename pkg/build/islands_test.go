package build

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// islandSite makes a one-island site that uses the repository's node_modules.
func islandSite(t *testing.T, layout, island string) string {
	t.Helper()
	nm, err := filepath.Abs("../../node_modules")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(nm, "preact")); err != nil {
		t.Skip("node_modules not installed (run make setup)")
	}
	dir := filepath.Join(t.TempDir(), "site")
	files := map[string]string{
		"site.yaml":                     "baseURL: https://example.test\ntitle: I\nlocales:\n  - {code: pl, name: Polski, prefix: /pl, default: true}\n",
		"content/pl/index.md":           "---\nid: home\ntitle: Start\ndescription: Start.\nlayout: island\n---\n",
		"content/pl/plain.md":           "---\nid: plain\ntitle: Zwykła\ndescription: Bez wysp.\n---\nTekst.\n",
		"templates/base.html":           `<!doctype html><html><head>{{ scripts }}</head><body><main>{{ block "main" . }}{{ end }}</main></body></html>`,
		"templates/layouts/page.html":   `{{ define "main" }}<h1>{{ .Page.Title }}</h1>{{ .Page.Content }}{{ end }}`,
		"templates/layouts/island.html": layout,
		"assets/islands/Hello.jsx":      island,
	}
	for name, body := range files {
		p := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(nm, filepath.Join(dir, "node_modules")); err != nil {
		t.Fatal(err)
	}
	return dir
}

const helloJSX = `import { useState } from "react";
export default function Hello({ name }) {
  const [n, setN] = useState(0);
  return <button type="button" onClick={() => setN(n + 1)}>Cześć, {name}! {n}</button>;
}
`

func TestIslandsInBuild(t *testing.T) {
	src := islandSite(t, `{{ define "main" }}<h1>x</h1>{{ island "Hello" (dict "name" "Ala") "visible" }}{{ island "Hello" (dict "name" "Ola") "none" }}{{ end }}`, helloJSX)
	out := filepath.Join(t.TempDir(), "public")
	rep, err := Run(context.Background(), Options{Source: src, Out: out, Minify: true})
	if err != nil {
		t.Fatal(err)
	}
	home, _ := os.ReadFile(filepath.Join(out, "pl/index.html"))
	for _, want := range []string{"Cześć, Ala! 0", "Cześć, Ola! 0", `data-directive="visible"`, `<script type="module" src="/_assets/islands/`} {
		if !strings.Contains(string(home), want) {
			t.Errorf("home lacks %q", want)
		}
	}
	if strings.Contains(string(home), `rel="modulepreload" href="/_assets/islands/Hello-`) {
		t.Errorf("a visible island's code must load when it hydrates, not be preloaded")
	}
	plain, _ := os.ReadFile(filepath.Join(out, "pl/plain/index.html"))
	if strings.Contains(string(plain), "<script") {
		t.Errorf("a page without islands loads scripts: %s", plain)
	}
	if js := rep.JS["island"]; js.GzipBytes == 0 || len(js.Islands) != 1 || js.Islands[0] != "Hello" {
		t.Errorf("JS report for the island layout = %+v", js)
	}
	if js := rep.JS["page"]; js.GzipBytes != 0 {
		t.Errorf("JS report for a page without islands = %+v", js)
	}
}

func TestIslandErrors(t *testing.T) {
	tests := []struct {
		name, layout, jsx string
		want              []string
	}{
		{
			"unknown island",
			`{{ define "main" }}<h1>x</h1>
{{ island "Nope" (dict) "load" }}{{ end }}`, helloJSX,
			[]string{"templates/layouts/island.html:2:", `unknown island "Nope"`, "content/pl/index.md"},
		},
		{
			"unknown directive",
			`{{ define "main" }}{{ island "Hello" (dict) "soon" }}{{ end }}`, helloJSX,
			[]string{"templates/layouts/island.html:1:", `unknown directive "soon"`},
		},
		{
			"component throws",
			`{{ define "main" }}{{ island "Hello" (dict "name" "x") "load" }}{{ end }}`,
			"export default function Hello({ name }) {\n  if (name) {\n    throw new Error(\"boom \" + name);\n  }\n  return <p>ok</p>;\n}\n",
			[]string{"assets/islands/Hello.jsx:3:", "boom x", `island Hello`, "content/pl/index.md"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := islandSite(t, tt.layout, tt.jsx)
			_, err := Run(context.Background(), Options{Source: src, Out: filepath.Join(t.TempDir(), "public")})
			if err == nil {
				t.Fatal("build succeeded")
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error lacks %q:\n%v", w, err)
				}
			}
		})
	}
}

// TestIslandLoopOnEveryPage: an island that never returns, on many pages,
// fails the build with one error naming the island, its .jsx line, the
// limit from site.yaml and the pages; after the first timeout the island is
// not run again (each page would otherwise cost one limit).
func TestIslandLoopOnEveryPage(t *testing.T) {
	loop := "export default function Hello({ n }) {\n  let i = 0;\n  while (n.length >= 0) i++;\n  return <p>{i}</p>;\n}\n"
	src := islandSite(t, `{{ define "main" }}<h1>x</h1>{{ island "Hello" (dict "n" .Page.Title) "load" }}{{ end }}`, loop)
	cfg := "baseURL: https://example.test\ntitle: I\nlocales:\n  - {code: pl, name: Polski, prefix: /pl, default: true}\nislands: {renderTimeout: 250ms}\n"
	os.WriteFile(filepath.Join(src, "site.yaml"), []byte(cfg), 0o644)
	for i := 0; i < 12; i++ {
		page := fmt.Sprintf("---\nid: p%d\ntitle: Strona %d\ndescription: Pętla.\nlayout: island\n---\n", i, i)
		os.WriteFile(filepath.Join(src, fmt.Sprintf("content/pl/p%02d.md", i)), []byte(page), 0o644)
	}
	_, err := Run(context.Background(), Options{Source: src, Out: filepath.Join(t.TempDir(), "public")})
	if err == nil {
		t.Fatal("build succeeded")
	}
	re := regexp.MustCompile(`^assets/islands/Hello.jsx:3:\d+: island Hello: stopped: one server render took longer than the limit of 250ms; its other renders were skipped \(hint: an endless loop\? islands.renderTimeout in site.yaml raises the limit\) \(rendering \d+ pages, the first content/pl/\S+\.md\)$`)
	if !re.MatchString(err.Error()) {
		t.Errorf("error:\n%v\nwant one line matching\n%s", err, re)
	}
}

// TestIslandsRecordedByRendering: the islands a page hydrates, and the
// island manifest (page-data-rsc.json) and page data list, are the ones its
// templates rendered, not whatever in the HTML looks like one. A page whose
// Markdown holds island-like markup loads no scripts and has no manifest;
// a page with one real island and fake markup lists the real one only.
func TestIslandsRecordedByRendering(t *testing.T) {
	src := islandSite(t, `{{ define "main" }}<h1>x</h1>{{ island "Hello" (dict "name" "Ala") "load" }}{{ .Page.Content }}{{ end }}`, helloJSX)
	fakeIsland := `<sg-island data-island="Hello" data-directive="media" data-media="(min-width: 1px)" data-chunk="Hello-X.js"></sg-island>` + "\n"
	for name, text := range map[string]string{
		"fake.md":  "---\nid: fake\ntitle: Udawana\ndescription: Wygląda jak wyspa.\n---\n" + fakeIsland,
		"index.md": "---\nid: home\ntitle: Start\ndescription: Start.\nlayout: island\n---\n" + fakeIsland,
	} {
		if err := os.WriteFile(filepath.Join(src, "content/pl", name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out := filepath.Join(t.TempDir(), "public")
	if _, err := Run(context.Background(), Options{Source: src, Out: out, Minify: true}); err != nil {
		t.Fatal(err)
	}
	page, _ := os.ReadFile(filepath.Join(out, "pl/fake/index.html"))
	if !strings.Contains(string(page), `data-chunk="Hello-X.js"`) {
		t.Fatalf("the fake island markup is not in the page, so the test proves nothing:\n%s", page)
	}
	if strings.Contains(string(page), "<script") || strings.Contains(string(page), "modulepreload") {
		t.Errorf("island-like markup in content made the page load island code:\n%s", page)
	}
	if b, err := os.ReadFile(filepath.Join(out, "page-data/pl/fake/page-data-rsc.json")); err == nil {
		t.Errorf("island-like markup in content got an island manifest:\n%s", b)
	}
	home, _ := os.ReadFile(filepath.Join(out, "pl/index.html"))
	head, _, _ := strings.Cut(string(home), "</head>")
	if !strings.Contains(head, `rel="modulepreload" href="/_assets/islands/Hello-`) {
		t.Errorf("a load island's code is preloaded in the script slot:\n%s", head)
	}
	// The home page and its copy at the root have a manifest, nothing else.
	rscs, _ := filepath.Glob(filepath.Join(out, "page-data/*/page-data-rsc.json"))
	if len(rscs) != 2 || !strings.HasSuffix(rscs[0], "/index/page-data-rsc.json") || !strings.HasSuffix(rscs[1], "/pl/page-data-rsc.json") {
		t.Fatalf("island manifests %v, want the home page's", rscs)
	}
	for _, p := range rscs {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		var rsc struct {
			Islands []struct{ Component, Directive, Media, Chunk string }
		}
		if err := json.Unmarshal(b, &rsc); err != nil {
			t.Fatal(err)
		}
		if len(rsc.Islands) != 1 || rsc.Islands[0].Component != "Hello" || rsc.Islands[0].Directive != "load" ||
			rsc.Islands[0].Media != "" || !strings.HasPrefix(rsc.Islands[0].Chunk, "Hello-") || rsc.Islands[0].Chunk == "Hello-X.js" {
			t.Errorf("%s lists what content typed, not what rendering recorded:\n%s", p, b)
		}
	}
}

// TestScriptSlot: the script slot is where {{ scripts }} stands in the
// page; a slot inside partial output (a separate buffer) is refused.
func TestScriptSlot(t *testing.T) {
	src := islandSite(t, `{{ define "main" }}{{ partial "partials/s.html" . }}{{ end }}`, helloJSX)
	if err := os.MkdirAll(filepath.Join(src, "templates/partials"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(src, "templates/partials/s.html"), []byte(`{{ scripts }}`), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := Run(context.Background(), Options{Source: src, Out: filepath.Join(t.TempDir(), "public")})
	if err == nil || !strings.Contains(err.Error(), "scripts: call it in base.html") {
		t.Fatalf("err = %v", err)
	}
}

// TestMainFromRendering: the <main> part in page data is what rendering
// wrote inside <main>, found by rendering, not by searching the page (an
// attribute that mentions <main> earlier must not fool it).
func TestMainFromRendering(t *testing.T) {
	src := filepath.Join(t.TempDir(), "site")
	copyTree(t, fixture, src)
	base := filepath.Join(src, "templates/base.html")
	b, err := os.ReadFile(base)
	if err != nil {
		t.Fatal(err)
	}
	b = []byte(strings.Replace(string(b), "<head>", `<head>
<meta name="note" content="the <main> element holds the page">`, 1))
	if err := os.WriteFile(base, b, 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "public")
	buildFixture(t, src, out)
	pd, err := os.ReadFile(filepath.Join(out, "page-data/pl/o-nas/kontakt/page-data.json"))
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Result struct {
			Page struct{ HTML string } `json:"page"`
		} `json:"result"`
	}
	if err := json.Unmarshal(pd, &doc); err != nil {
		t.Fatal(err)
	}
	if h := doc.Result.Page.HTML; !strings.HasPrefix(h, "<h1>Kontakt</h1>") || strings.Contains(h, "element holds") || strings.Contains(h, "</main>") {
		t.Errorf("page data html = %.200q", h)
	}
}
