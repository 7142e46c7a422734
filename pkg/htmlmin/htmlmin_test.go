package htmlmin

import (
	"bytes"
	"html/template"
	"strings"
	"testing"
	ttemplate "text/template"
	"text/template/parse"
)

func TestCompact(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"block tags lose the white space around them",
			"<div>\n  <p>One</p>\n  <p>Two</p>\n</div>\n", "<div><p>One</p><p>Two</p></div>"},
		{"white space with a line break in text collapses to one space",
			"<p>Some\n    text\t\n\tand more</p>", "<p>Some text and more</p>"},
		{"inline tags keep one space between them",
			"<p><a href=\"/a\">A</a>\n  <a href=\"/b\">B</a></p>", "<p><a href=\"/a\">A</a> <a href=\"/b\">B</a></p>"},
		{"white space without a line break between words stays",
			"<p>a  b\tc</p>", "<p>a  b\tc</p>"},
		{"pre keeps its white space, tags inside included",
			"<div>\n<pre class=\"chroma\"><code><span>a\n\n    b</span>\n</code></pre>\n</div>",
			"<div><pre class=\"chroma\"><code><span>a\n\n    b</span>\n</code></pre></div>"},
		{"pre in capitals", "<PRE>\n a\n</PRE>\n<p>x</p>", "<PRE>\n a\n</PRE><p>x</p>"},
		{"textarea keeps its value", "<form>\n<textarea name=\"m\">\n  line one\n  line two</textarea>\n</form>",
			"<form><textarea name=\"m\">\n  line one\n  line two</textarea></form>"},
		{"inline JSON (island props) stays byte for byte",
			"<li>\n<script type=\"application/json\" data-sg-props>{\"a\": 1,\n  \"b\": \"x  </p>\\n y\"}</script>\n</li>",
			"<li><script type=\"application/json\" data-sg-props>{\"a\": 1,\n  \"b\": \"x  </p>\\n y\"}</script></li>"},
		{"inline script stays byte for byte (a line comment needs its line break)",
			"<body>\n<script>\n// set up\nwindow.x = 1;\n</script>\n</body>", "<body><script>\n// set up\nwindow.x = 1;\n</script></body>"},
		{"inline style stays byte for byte", "<head>\n<style>\n  a { color: red }\n</style>\n</head>",
			"<head><style>\n  a { color: red }\n</style></head>"},
		{"a script's end tag ends it, not a look-alike", "<script>x = '</scripts>';\n</script>\n<p>a</p>",
			"<script>x = '</scripts>';\n</script><p>a</p>"},
		{"attribute values stay as written, white space between attributes collapses",
			"<a\n  href=\"/x  y\"\n  title='one\n  two'\n  data-x=a\n>t</a>", "<a href=\"/x  y\" title='one\n  two' data-x=a>t</a>"},
		{"a '>' inside a quoted value does not end the tag", "<p title=\"a > b\n c\">\n x</p>",
			"<p title=\"a > b\n c\">x</p>"},
		{"white space before /> stays (an unquoted value would take the slash)", "<br class=x\n  />", "<br class=x />"},
		{"comments stay, conditional ones included", "<div>\n<!-- keep\n  me -->\n<!--[if IE]><p>old</p><![endif]-->\n</div>",
			"<div><!-- keep\n  me --><!--[if IE]><p>old</p><![endif]--></div>"},
		{"doctype", "<!doctype html>\n<html lang=\"pl\">\n<head>\n<meta charset=\"utf-8\">\n<title>T</title>\n</head>\n<body>\n<main>\n<h1>T</h1>\n</main>\n</body>\n</html>\n",
			"<!doctype html><html lang=\"pl\"><head><meta charset=\"utf-8\"><title>T</title></head><body><main><h1>T</h1></main></body></html>"},
		{"a '<' that starts no tag is text", "<p>a < b\n and 1 <2</p>", "<p>a < b and 1 <2</p>"},
		{"entities stay", "<p>&lt;main&gt;\n&amp;</p>", "<p>&lt;main&gt; &amp;</p>"},
		{"inline SVG: white space between its elements collapses, attributes stay",
			"<span><svg viewBox=\"0 0 24 24\"\n  fill=\"none\">\n  <path d=\"M11 6a13 13 0 0 0 8.4-2.8\" />\n</svg></span>",
			"<span><svg viewBox=\"0 0 24 24\" fill=\"none\"> <path d=\"M11 6a13 13 0 0 0 8.4-2.8\" /> </svg></span>"},
		{"goldmark output", "<h2 id=\"a\">A</h2>\n<p>One\ntwo <em>x</em>\n<strong>y</strong></p>\n<ul>\n<li>i</li>\n</ul>\n",
			"<h2 id=\"a\">A</h2><p>One two <em>x</em> <strong>y</strong></p><ul><li>i</li></ul>"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := string(Compact([]byte(tc.in)))
			if got != tc.want {
				t.Errorf("Compact(%q)\n got %q\nwant %q", tc.in, got, tc.want)
			}
			if again := string(Compact([]byte(got))); again != got {
				t.Errorf("not idempotent: %q -> %q", got, again)
			}
		})
	}
}

// TestCompactTemplates: the templates' text is compacted in place, the
// output is what compacting the rendered page would give, and errors still
// name the template's own lines.
func TestCompactTemplates(t *testing.T) {
	src := `<!doctype html>
<html lang="{{ .Lang }}">
<head>
  <title>{{ .Title }}</title>
  <script type="application/ld+json">{"name": {{ .Title }},
    "x": 1}</script>
</head>
<body class="a
  b">
  <nav>
    {{ range .Links }}
      <a href="{{ . }}"
         {{ if eq . "/" }} aria-current="page"{{ end }}>{{ . }}</a>
    {{ end }}
  </nav>
  <pre>
  {{ .Code }}
     indented</pre>
  <p>
    {{ .Title }}
    <em>after</em>
  </p>
  {{ template "attr" . }}
  <img alt="{{ template "alt" . }}" src="/x.png">
  <p>{{ .Missing.Field }}</p>
</body>
</html>
{{ define "attr" }}
  <div>
    x
  </div>
{{ end }}
{{ define "alt" }}one
  two{{ end }}`
	data := map[string]any{"Lang": "pl", "Title": "Tytuł", "Links": []string{"/", "/o-nas/"}, "Code": "a  b"}
	parsed := func(compact bool) *template.Template {
		tm := template.Must(template.New("page.html").Option("missingkey=zero").Parse(src))
		if compact {
			var trees []*parse.Tree
			for _, x := range tm.Templates() {
				trees = append(trees, x.Tree)
			}
			CompactTemplates(trees)
		}
		return tm
	}
	run := func(tm *template.Template) (string, error) {
		var b strings.Builder
		err := tm.Execute(&b, data)
		return b.String(), err
	}
	plain, errPlain := run(parsed(false))
	got, errGot := run(parsed(true))
	if errPlain == nil || errGot == nil || errPlain.Error() != errGot.Error() {
		t.Fatalf("the error changed:\nplain     %v\ncompacted %v", errPlain, errGot)
	}
	if !strings.Contains(errGot.Error(), "page.html:25:") {
		t.Errorf("the error does not name line 25 of the template: %v", errGot)
	}
	want := `<!doctype html><html lang="pl"><head><title>Tytuł</title><script type="application/ld+json">{"name": "Tytuł",
    "x": 1}</script></head><body class="a
  b"><nav><a href="/"  aria-current="page">/</a> <a href="/o-nas/" >/o-nas/</a> </nav><pre>
  a  b
     indented</pre><p>Tytuł <em>after</em></p><div>x</div> <img alt="one
  two" src="/x.png"><p>`
	if got != want {
		t.Errorf("compacted page\n got %q\nwant %q", got, want)
	}
	// The same page compacted after rendering: at most the spaces next to
	// actions differ (an action's output is not known when the template is
	// compacted).
	if after := string(Compact([]byte(plain))); len(got) > len(after)+8 {
		t.Errorf("compacting the template left %d bytes more than compacting its output:\n%q\n%q", len(got)-len(after), got, after)
	}
}

// TestCompactTemplatesLeavesWhatItCannotFollow: a template whose branches
// end in different places of the HTML, and a template called inside a tag,
// are left as written.
func TestCompactTemplatesLeavesWhatItCannotFollow(t *testing.T) {
	tests := []struct{ name, src, keep string }{
		{"branches that end apart", "<div>{{ if .X }}<pre>{{ else }}<p>{{ end }}\n   a\n   b</div>", "\n   a\n   b"},
		{"a template called inside a tag", `{{ define "v" }}one
   two{{ end }}<p {{ template "v" }}>x</p>`, "one\n   two"},
		{"a partial called inside an attribute", `{{ define "v" }}one
   two{{ end }}<p title="{{ partial "v" . }}">x</p>`, "one\n   two"},
		{"a template that opens a pre another closes", `{{ define "open" }}<div>
  <pre>{{ end }}{{ template "open" }}
  code
     indented
{{ template "close" }}{{ define "close" }}</pre>
</div>{{ end }}`, "\n  code\n     indented\n"},
		{"a template that ends inside a tag", `{{ define "a" }}<a
   href="/"{{ end }}{{ template "a" }}>x</a>
   <p>y</p>`, "<a\n   href"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tm := ttemplate.Must(ttemplate.New("t").Funcs(ttemplate.FuncMap{"partial": func(string, any) string { return "" }}).Parse(tc.src))
			var trees []*parse.Tree
			for _, x := range tm.Templates() {
				trees = append(trees, x.Tree)
			}
			CompactTemplates(trees)
			var all strings.Builder
			for _, x := range tm.Templates() {
				all.WriteString(x.Tree.Root.String())
			}
			if !strings.Contains(all.String(), tc.keep) {
				t.Errorf("%q was compacted:\n%s", tc.keep, all.String())
			}
		})
	}
}

func TestHTML(t *testing.T) {
	in := []byte("<!DOCTYPE html>\n<html lang=\"pl\"><head><meta charset=\"utf-8\">\n<title>/pl/</title>" +
		"<script type=\"application/ld+json\">{\"a\":  1}</script></head>\n<body>\n<p class=\"x\" hidden=\"\"><a href=\"/pl/\">/pl/</a></p>\n" +
		"<pre> a\n  b</pre>\n<input type=\"text\" name=\"q\"></body></html>\n")
	got, err := New().HTML(in)
	if err != nil {
		t.Fatal(err)
	}
	want := "<!doctype html><html lang=\"pl\"><head><meta charset=\"utf-8\"><title>/pl/</title>" +
		"<script type=\"application/ld+json\">{\"a\":  1}</script></head><body><p class=\"x\" hidden><a href=\"/pl/\">/pl/</a></p>" +
		"<pre> a\n  b</pre><input type=\"text\" name=\"q\"></body></html>"
	if string(got) != want {
		t.Errorf("HTML\n got %q\nwant %q", got, want)
	}
}

func TestSVG(t *testing.T) {
	in := []byte(`<svg aria-hidden="true" focusable="false" class="icon icon-x"
  xmlns="http://www.w3.org/2000/svg"
  width="24"
  height="24"
  viewBox="0 0 24 24"
  stroke-width="2"
>
  <path d="M18 6 6 18" />
  <path d="m6 6 12 12" />
</svg>`)
	got, err := New().SVG(in)
	if err != nil {
		t.Fatal(err)
	}
	for _, keep := range []string{`aria-hidden="true"`, `focusable="false"`, `class="icon icon-x"`, `viewBox="0 0 24 24"`, `stroke-width="2"`} {
		if !bytes.Contains(got, []byte(keep)) {
			t.Errorf("%s lost: %s", keep, got)
		}
	}
	if bytes.ContainsAny(got, "\n") || bytes.Contains(got, []byte("xmlns")) || len(got) >= len(in) {
		t.Errorf("not minified: %s", got)
	}
}

// benchPage is a page like the ssgbench corpus's: a Markdown body (goldmark
// output) in a small template.
var benchPage = []byte(strings.Repeat(`<h2 id="introduction">Introduction</h2>
<p>Week is package render map link task winter memory test through secure layout summer. Page is response build local
through week but image autumn simple. See also: <a href="/en/or-and-add-1713/">Or and add</a>.</p>
<ul>
<li>Menu result dynamic disk winter heading (<a href="/en/important-with-template/">Important</a>)</li>
<li>Only browser version local</li>
</ul>
<pre><code class="language-go">func main() {
	fmt.Println("hi")
}
</code></pre>
`, 12))

// BenchmarkCompact and BenchmarkFullMinifier compare the cost per byte of
// compaction (what the build runs on each Markdown body) and of
// tdewolff/minify's HTML minifier (what minifying each page whole would run).
func BenchmarkCompact(b *testing.B) {
	b.SetBytes(int64(len(benchPage)))
	for b.Loop() {
		Compact(benchPage)
	}
}

func BenchmarkFullMinifier(b *testing.B) {
	m := New()
	b.SetBytes(int64(len(benchPage)))
	for b.Loop() {
		if _, err := m.HTML(benchPage); err != nil {
			b.Fatal(err)
		}
	}
}
