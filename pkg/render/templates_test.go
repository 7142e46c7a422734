package render

import (
	"os"
	"reflect"
	"sort"
	"strings"
	"testing"
	"testing/fstest"

	"html/template"
)

// setOf parses the templates of fsys both ways: the layouts sharing the
// root's namespace (when they can) and each layout in its own clone.
func setOf(t *testing.T, fsys fstest.MapFS, compact, share bool) (*template.Template, map[string]*template.Template, map[string]map[string]string) {
	t.Helper()
	base, shared, layouts, err := templateFiles(fsys)
	if err != nil {
		t.Fatal(err)
	}
	root, set, alias, errs := parseSetShared(base, shared, layouts, (&Renderer{}).funcs(&execState{}), compact, share)
	if len(errs) > 0 {
		t.Fatal(errs.Err())
	}
	return root, set, alias
}

// renderAll runs every layout's page template and, from it, every section.
func renderAll(t *testing.T, set map[string]*template.Template) map[string]string {
	t.Helper()
	out := map[string]string{}
	for name, page := range set {
		var b strings.Builder
		if err := page.Execute(&b, map[string]string{"Title": `a "title" & <more>`}); err != nil {
			t.Fatalf("layout %s: %v", name, err)
		}
		for _, s := range []string{"sections/s.html"} {
			b.WriteString("\n--- " + s + "\n")
			if err := page.ExecuteTemplate(&b, s, map[string]string{"Title": "in a section"}); err != nil {
				t.Fatalf("layout %s, %s: %v", name, s, err)
			}
		}
		out[name] = b.String()
	}
	return out
}

func mapFS(files map[string]string) fstest.MapFS {
	fsys := fstest.MapFS{}
	for name, text := range files {
		fsys["templates/"+name] = &fstest.MapFile{Data: []byte(text)}
	}
	return fsys
}

var layoutFixture = map[string]string{
	"base.html":         `<html><head><title>{{ .Title }}</title>{{ block "head" . }}<meta name="default">{{ end }}</head><body>{{ template "partials/nav.html" . }}<main>{{ block "main" . }}default main{{ end }}</main></body></html>`,
	"partials/nav.html": `<nav><a href="/?q={{ .Title }}">{{ .Title }}</a></nav>`,
	"sections/s.html":   `<section title="{{ .Title }}">{{ template "partials/nav.html" . }}</section>`,
	"layouts/page.html": `{{ define "main" }}<p>page: {{ .Title }}</p>{{ template "helper" . }}{{ end }}{{ define "helper" }}<i>page helper</i>{{ end }}`,
	"layouts/post.html": `{{ define "main" }}<article onclick="f({{ .Title }})">{{ template "helper" . }}</article>{{ end }}{{ define "head" }}<meta name="post">{{ end }}{{ define "helper" }}<b>post helper</b>{{ end }}`,
	"layouts/bare.html": `{{ define "main" }}  {{ end }}`, // empty: base's default main stays
}

// TestLayoutsShareNamespace: the layouts share the root's namespace (one
// copy and one escaping of the partials and sections per set, not one per
// layout), and every page and section renders exactly as with a clone of
// the root per layout.
func TestLayoutsShareNamespace(t *testing.T) {
	fsys := mapFS(layoutFixture)
	root, shared, alias := setOf(t, fsys, true, true)
	if alias == nil {
		t.Fatal("the fixture's layouts were given a clone each; want one shared namespace")
	}
	for name, page := range shared {
		if page.Lookup("partials/nav.html") != root.Lookup("partials/nav.html") {
			t.Errorf("layout %s has its own copy of the partials", name)
		}
	}
	_, cloned, noAlias := setOf(t, fsys, true, false)
	if noAlias != nil {
		t.Fatal("share false: want a clone per layout")
	}
	got, want := renderAll(t, shared), renderAll(t, cloned)
	if !reflect.DeepEqual(got, want) {
		t.Errorf("shared namespace renders\n%v\nclones render\n%v", got, want)
	}
	for _, must := range []string{"page helper", "post helper", `<meta name="post">`, "default main", `&#34;title&#34; &amp; &lt;more&gt;`, `q=a%20%22title%22%20%26%20%3cmore%3e`} {
		if !strings.Contains(strings.Join(sortedValues(got), "\n"), must) {
			t.Errorf("no %q in the renders:\n%v", must, got)
		}
	}
}

// TestLayoutsCloneWhenShared: a layout that redefines a partial, or a
// partial that calls a template the layouts define, keeps a clone of the
// root per layout, with the same results as before.
func TestLayoutsCloneWhenShared(t *testing.T) {
	for name, change := range map[string]map[string]string{
		"layout redefines a partial": {"layouts/post.html": `{{ define "main" }}post{{ end }}{{ define "partials/nav.html" }}<nav>post nav</nav>{{ end }}`},
		"partial calls a layout's template": {"partials/nav.html": `<nav>{{ template "helper" . }}</nav>`,
			"layouts/bare.html": `{{ define "helper" }}bare helper{{ end }}`},
		"layout calls base": {"layouts/bare.html": `{{ define "main" }}{{ end }}{{ define "x" }}{{ template "base.html" . }}{{ end }}`},
	} {
		t.Run(name, func(t *testing.T) {
			files := map[string]string{}
			for k, v := range layoutFixture {
				files[k] = v
			}
			for k, v := range change {
				files[k] = v
			}
			_, set, alias := setOf(t, mapFS(files), true, true)
			if alias != nil {
				t.Fatal("layouts share the root's namespace; want a clone each")
			}
			out := renderAll(t, set)
			for layout, html := range out {
				t.Logf("%s: %s", layout, html)
			}
			switch name {
			case "layout redefines a partial":
				if !strings.Contains(out["post"], "post nav") || strings.Contains(out["page"], "post nav") {
					t.Errorf("post: %s\npage: %s", out["post"], out["page"])
				}
			case "partial calls a layout's template":
				if !strings.Contains(out["post"], "post helper") || !strings.Contains(out["bare"], "bare helper") {
					t.Errorf("post: %s\nbare: %s", out["post"], out["bare"])
				}
			}
		})
	}
}

// TestLayoutsShareNamespaceSite: on the site's own templates, sharing the
// namespace changes neither what each layout's template files are (the
// dependencies the dev server and the cache use) nor the names and layouts
// the build checks content against.
func TestLayoutsShareNamespaceSite(t *testing.T) {
	fsys := fstest.MapFS{}
	root := "../../templates"
	err := walkFiles(root, func(rel string, b []byte) { fsys["templates/"+rel] = &fstest.MapFile{Data: b} })
	if err != nil {
		t.Fatal(err)
	}
	r1, s1, a1 := setOf(t, fsys, true, true)
	if a1 == nil {
		t.Fatal("the site's layouts do not share the namespace")
	}
	r2, s2, a2 := setOf(t, fsys, true, false)
	i1, i2 := infoOf(r1, s1, a1), infoOf(r2, s2, a2)
	if !reflect.DeepEqual(i1.Names, i2.Names) || !reflect.DeepEqual(i1.Layouts, i2.Layouts) {
		t.Errorf("names or layouts differ:\nshared %v %v\ncloned %v %v", sortedKeys(i1.Names), sortedKeys(i1.Layouts), sortedKeys(i2.Names), sortedKeys(i2.Layouts))
	}
	if !reflect.DeepEqual(i1.Closure, i2.Closure) {
		for layout := range i2.Closure {
			for name, files := range i2.Closure[layout] {
				if got := i1.Closure[layout][name]; !reflect.DeepEqual(got, files) {
					t.Errorf("layout %s, %s: files %v, want %v", layout, name, got, files)
				}
			}
			for name := range i1.Closure[layout] {
				if _, ok := i2.Closure[layout][name]; !ok {
					t.Errorf("layout %s: extra name %s", layout, name)
				}
			}
		}
	}
	if len(i1.Closure["page"]["base.html"]) < 5 || !contains(i1.Closure["page"]["base.html"], "templates/layouts/page.html") {
		t.Errorf("precondition: page's base.html runs %v", i1.Closure["page"]["base.html"])
	}
}

func walkFiles(dir string, fn func(rel string, b []byte)) error {
	var walk func(rel string) error
	walk = func(rel string) error {
		ents, err := os.ReadDir(dir + "/" + rel)
		if err != nil {
			return err
		}
		for _, e := range ents {
			p := strings.TrimPrefix(rel+"/"+e.Name(), "/")
			if e.IsDir() {
				if err := walk(p); err != nil {
					return err
				}
				continue
			}
			b, err := os.ReadFile(dir + "/" + p)
			if err != nil {
				return err
			}
			fn(p, b)
		}
		return nil
	}
	return walk("")
}

func sortedValues(m map[string]string) []string {
	var out []string
	for _, v := range m {
		out = append(out, v)
	}
	sort.Strings(out)
	return out
}

func sortedKeys[V any](m map[string]V) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
