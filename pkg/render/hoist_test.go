package render

import (
	"fmt"
	"html/template"
	"os"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
)

var escaperRE = regexp.MustCompile(` \| _html_template_\w+`)

// hoisted parses files (name under templates/ -> text) as a set and returns
// the text of each region hoistSet cut out, without html/template's escapers,
// sorted.
func hoisted(t *testing.T, files map[string]string) []string {
	t.Helper()
	if _, ok := files["layouts/page.html"]; !ok {
		files["layouts/page.html"] = `{{ define "main" }}<p>main</p>{{ end }}`
	}
	r := &Renderer{}
	base, shared, layouts, err := templateFiles(mapFS(files))
	if err != nil {
		t.Fatal(err)
	}
	r.base, r.shared, r.layouts = base, shared, layouts
	s, _, errs := r.parseExecSet(false)
	if len(errs) > 0 {
		t.Fatal(errs.Err())
	}
	var out []string
	for _, h := range s.hoists {
		out = append(out, escaperRE.ReplaceAllString(h.t.Tree.Root.String(), ""))
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// TestHoistRegions: which regions are cut out of a page template, and which
// are left in place because they read the page, call something with effects,
// or do not both start and end in plain HTML text.
func TestHoistRegions(t *testing.T) {
	tests := []struct {
		name string
		base string
		more map[string]string
		want []string // the regions (text without escapers); nil: none
	}{
		{"range over a data set", `<main>{{ block "main" . }}{{ end }}</main><h1>{{ .Page.Title }}</h1><section>{{ range data "cards" }}<p title="{{ .t }}">{{ .title }} {{ join ", " .tags }}</p>{{ end }}</section>{{ .Lang }}`,
			nil, []string{`</h1><section>{{range data "cards"}}<p title="{{.t}}">{{.title}} {{join ", " .tags}}</p>{{end}}</section>`}},
		{"strings, links, icons and variables of the region", `{{ .Page.Title }}<nav>{{ $home := ref "home" }}<a href="{{ $home }}">{{ t "home" }}</a>{{ icon "x" }}{{ with data "menu" }}{{ range $i, $e := .items }}{{ $i }}{{ $e.label }}{{ end }}{{ end }}</nav>{{ block "main" . }}{{ end }}`,
			nil, []string{`<nav>{{$home := ref "home"}}<a href="{{$home}}">{{t "home"}}</a>{{icon "x"}}{{with data "menu"}}{{range $i, $e := .items}}{{$i}}{{$e.label}}{{end}}{{end}}</nav>`}},
		{"a page field inside", `<p>{{ range data "cards" }}{{ .title }}{{ $.Page.Title }}{{ end }}</p>{{ block "main" . }}{{ end }}`, nil, nil},
		{"the page's dot inside", `<p>{{ t "x" }}{{ .Page.Title }}</p>{{ block "main" . }}{{ end }}`, nil, []string{`<p>{{t "x"}}`}},
		{"$ inside a range", `<ul>{{ range data "c" }}<li>{{ $.Lang }}</li>{{ end }}</ul>{{ block "main" . }}{{ end }}`, nil, nil},
		{"a picture inside", `<div>{{ range data "c" }}{{ picture .img .alt }}{{ end }}</div>{{ block "main" . }}{{ end }}`, nil, nil},
		{"an island inside", `<div>{{ island "Counter" (dict "n" 1) "load" }}</div>{{ block "main" . }}{{ end }}`, nil, nil},
		{"a partial inside", `<div>{{ partial "partials/x.html" (dict) }}</div>{{ block "main" . }}{{ end }}`, map[string]string{"partials/x.html": `<b>x</b>`}, nil},
		{"the announcement inside (what it shows is hoisted)", `{{ if showAnnouncement (data "a") }}<p>{{ t "a" }}</p>{{ end }}{{ block "main" . }}{{ end }}`, nil, []string{`<p>{{t "a"}}</p>`}},
		{"a template call inside", `<div>{{ t "x" }}{{ template "partials/x.html" }}{{ t "y" }}</div>{{ block "main" . }}{{ end }}`,
			map[string]string{"partials/x.html": `<b>x</b>`}, []string{`<div>{{t "x"}}`, `{{t "y"}}</div>`}},
		{"inside an attribute value", `<a title="{{ .Page.Title }} {{ t "x" }}{{ t "y" }}">x</a>{{ block "main" . }}{{ end }}`, nil, nil},
		{"inside a script", `<script>var a = {{ .Page.Title }}; var b = {{ t "x" }};</script>{{ block "main" . }}{{ end }}`, nil, nil},
		{"inside a title", `<title>{{ .Page.Title }} | {{ t "site" }}</title>{{ block "main" . }}{{ end }}`, nil, nil},
		{"inside a textarea and a style", `<textarea>{{ .Page.Title }}{{ t "x" }}</textarea><style>{{ .Page.Title }}{{ t "css" }}</style>{{ block "main" . }}{{ end }}`, nil, nil},
		{"ending mid-tag", `{{ .Page.Title }}<a {{ if true }}class="x"{{ end }} href="{{ .Page.URL }}">x</a>{{ block "main" . }}{{ end }}`, nil, nil},
		{"cut where it enters a tag", `{{ .Page.Title }}<p>{{ t "a" }}</p><a href="{{ .Page.URL }}">x</a>{{ block "main" . }}{{ end }}`,
			nil, []string{`<p>{{t "a"}}`}},
		{"a partial called inside a title", `<title>{{ template "partials/t.html" . }}</title>{{ block "main" . }}{{ end }}`,
			map[string]string{"partials/t.html": `{{ t "site" }}`}, nil},
		{"a variable the rest reads", `{{ $x := data "a" }}{{ .Page.Title }}{{ $x }}{{ block "main" . }}{{ end }}`, nil, nil},
		{"an outer variable", `{{ $x := .Page.Title }}<p>{{ t "a" }}{{ $x }}</p>{{ block "main" . }}{{ end }}`, nil, []string{`<p>{{t "a"}}`}},
		{"assigning an outer variable", `{{ $x := .Page.Title }}<p>{{ $x = "b" }}{{ t "a" }}</p>{{ $x }}{{ block "main" . }}{{ end }}`, nil, []string{`{{t "a"}}</p>`}},
		{"break of an outer range", `{{ range .Page.Tags }}<i>{{ t "a" }}</i>{{ break }}{{ end }}{{ block "main" . }}{{ end }}`, nil, []string{`<i>{{t "a"}}</i>`}},
		{"with's else reads the page", `<p>{{ with data "a" }}{{ .x }}{{ else }}{{ .Page.Title }}{{ end }}</p>{{ block "main" . }}{{ end }}`, nil, nil},
		{"a method with arguments", `<p>{{ range data "a" }}{{ .F 1 }}{{ end }}</p>{{ block "main" . }}{{ end }}`, nil, nil},
		{"call", `<p>{{ range data "a" }}{{ call .f }}{{ end }}</p>{{ block "main" . }}{{ end }}`, nil, nil},
		{"the main marks and the script slot stay", `<head>{{ scripts }}</head><main>{{ block "main" . }}{{ end }}</main>`, nil, nil},
		{"layouts with namespaces of their own", `<header>{{ template "partials/nav.html" . }}</header>{{ block "main" . }}{{ end }}`, map[string]string{
			"partials/nav.html": `<nav>{{ t "nav" }}</nav>{{ .Lang }}`,
			"layouts/post.html": `{{ define "main" }}post{{ end }}{{ define "partials/nav.html" }}<nav>{{ t "post" }}</nav>{{ .Lang }}{{ end }}`},
			[]string{`<nav>{{t "nav"}}</nav>`, `<nav>{{t "post"}}</nav>`}},
		{"in a partial and a section", `{{ block "main" . }}{{ end }}`, map[string]string{
			"partials/f.html": `<footer>{{ range data "links" }}<a href="{{ link .href }}">{{ .label }}</a>{{ end }}</footer>{{ .x }}`,
			"sections/s.html": `<section>{{ .S.Title }}<p>{{ t "s" }}</p></section>`},
			[]string{`<footer>{{range data "links"}}<a href="{{link .href}}">{{.label}}</a>{{end}}</footer>`, `<p>{{t "s"}}</p></section>`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			files := map[string]string{"base.html": tt.base}
			for k, v := range tt.more {
				files[k] = v
			}
			got := hoisted(t, files)
			if !slices.Equal(got, tt.want) {
				t.Errorf("regions\n%q\nwant\n%q", got, tt.want)
			}
		})
	}
}

// TestHoistFuncsClassified: every template function is either allowed in a
// region or known to keep one in place, so that a new function is a
// decision, not an accident.
func TestHoistFuncsClassified(t *testing.T) {
	funcs := (&Renderer{}).funcs(&execState{})
	builtins := []string{"and", "or", "not", "len", "index", "slice", "eq", "ne", "lt", "le", "gt", "ge", "print", "printf", "println", "html", "js", "urlquery", "call"}
	for name := range funcs {
		if hoistSafe[name] == hoistUnsafe[name] {
			t.Errorf("template function %q is in neither or both of hoistSafe and hoistUnsafe", name)
		}
	}
	for _, list := range []map[string]bool{hoistSafe, hoistUnsafe} {
		for name := range list {
			if _, ok := funcs[name]; !ok && !slices.Contains(builtins, name) {
				t.Errorf("%q is no template function", name)
			}
		}
	}
}

// TestHoistBadCalls: the last check accepts a region's call only where
// html/template gives it the plain text escaper alone, here as in place of
// a region and in a title, an attribute, a script, a tag and a partial
// called from a title.
func TestHoistBadCalls(t *testing.T) {
	tests := []struct {
		name, base string
		bad        bool
	}{
		{"text", `<p>CALL</p>`, false},
		{"title", `<title>CALL</title>`, true},
		{"attribute", `<p title="CALL">x</p>`, true},
		{"script", `<script>CALL</script>`, true},
		{"tag", `<p CALL>x</p>`, true},
		{"partial called from a title", `<title>{{ template "p" }}</title>{{ define "p" }}CALL{{ end }}`, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ns := template.New("base.html").Funcs(template.FuncMap{hoistFunc: func(int) (template.HTML, error) { return "", nil }})
			if _, err := ns.Parse(strings.ReplaceAll(tt.base, "CALL", "{{ "+hoistFunc+" 7 }}")); err != nil {
				t.Fatal(err)
			}
			bad, err := badCalls(ns)
			if err != nil {
				t.Fatal(err)
			}
			if bad[7] != tt.bad {
				t.Errorf("bad calls %v, want region 7 bad: %v", bad, tt.bad)
			}
		})
	}
}

// TestHoistPutBack: a region whose call the last check refuses (here one
// placed in a title by hand, past the analysis) is put back, and only it.
func TestHoistPutBack(t *testing.T) {
	r := &Renderer{}
	base, shared, layouts, err := templateFiles(mapFS(map[string]string{
		"base.html":         `<title>{{ .Page.Title }}{{ t "a" }}</title><p>{{ .Page.Title }}{{ t "b" }}</p>{{ block "main" . }}{{ end }}`,
		"layouts/page.html": `{{ define "main" }}x{{ end }}`,
	}))
	if err != nil {
		t.Fatal(err)
	}
	funcs := r.funcs(&execState{})
	root, set, _, errs := parseSet(base, shared, layouts, funcs, false)
	if len(errs) > 0 {
		t.Fatal(errs.Err())
	}
	ns := namespaces(root, set)[0]
	tree := ns.Lookup("base.html").Tree
	before := tree.Root.String()
	region := func(a, b int) placed {
		return placed{name: "base.html", a: a, b: b, key: regionKey(tree, tree.Root.Nodes[a:b])}
	}
	title, para := region(2, 3), region(5, 6) // {{ t "a" }}, {{ t "b" }}
	call := func(int) (template.HTML, error) { return "", nil }
	out, kept, ok := r.place(ns, []placed{title, para}, funcs, call, nil, true)
	if !ok || len(out) != 1 || !reflect.DeepEqual(kept, []placed{para}) {
		t.Fatalf("placed %d regions %v (ok %v), want the paragraph's alone", len(out), kept, ok)
	}
	want := strings.Replace(before, `{{t "b"}}`, "{{"+hoistFunc+" 0}}", 1)
	if got := tree.Root.String(); got != want {
		t.Errorf("tree after placing\n%s\nwant\n%s", got, want)
	}
}

// TestHoistPlanReplay: a renderer's second set takes the regions from the
// plan the first one's analysis left, with the same trees and region ids;
// a plan that does not match the trees is not used.
func TestHoistPlanReplay(t *testing.T) {
	r := &Renderer{opts: Options{FS: os.DirFS("../..")}}
	base, shared, layouts, err := templateFiles(r.opts.FS)
	if err != nil {
		t.Fatal(err)
	}
	r.base, r.shared, r.layouts = base, shared, layouts
	shape := func(s *execSet) string {
		var b strings.Builder
		for _, ns := range namespaces(s.root, s.layouts) {
			trees, names := treesOf(ns)
			for _, tr := range trees {
				fmt.Fprintf(&b, "%v: %s\n", names[tr], tr.Root)
			}
		}
		for _, h := range s.hoists {
			fmt.Fprintf(&b, "region %d: %s\n", h.id, escaperRE.ReplaceAllString(h.t.Tree.Root.String(), ""))
		}
		return b.String()
	}
	parse := func() *execSet {
		s, _, errs := r.parseExecSet(false)
		if len(errs) > 0 {
			t.Fatal(errs.Err())
		}
		return s
	}
	first := parse()
	if len(first.hoists) == 0 || r.hoistPlan == nil {
		t.Fatal("nothing hoisted from the real site's templates")
	}
	plan := r.hoistPlan
	if got, want := shape(parse()), shape(first); got != want {
		t.Errorf("the replayed set differs from the analysed one:\n%s\nwant\n%s", got, want)
	}
	if !reflect.DeepEqual(r.hoistPlan, plan) {
		t.Error("the plan changed on replay")
	}
	// A plan whose places hold other nodes is analysed again.
	bad := make([][]placed, len(plan))
	for i, ns := range plan {
		bad[i] = slices.Clone(ns)
		for j := range bad[i] {
			bad[i][j].key += "x"
		}
	}
	r.hoistPlan = bad
	if got, want := shape(parse()), shape(first); got != want {
		t.Errorf("with a wrong plan the set differs from the analysed one:\n%s\nwant\n%s", got, want)
	}
	if !reflect.DeepEqual(r.hoistPlan, plan) {
		t.Error("a wrong plan was kept")
	}
}
