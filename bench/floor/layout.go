package main

import (
	"bytes"
	"fmt"
	"html/template"
	"os"
	"path/filepath"
	"strings"

	"gopkg.in/yaml.v3"
)

// layout lays a page out as the harness's peers do, with html/template, and
// holds each locale's cards (data/cards.yaml).
type layout struct {
	tmpl  *template.Template
	cards map[string][]card
}

type card struct {
	Title string   `yaml:"title"`
	Text  string   `yaml:"text"`
	Tags  []string `yaml:"tags"`
}

// frontMatter is what the harness's pages say of themselves.
type frontMatter struct {
	Title       string   `yaml:"title"`
	Description string   `yaml:"description"`
	Date        string   `yaml:"date"`
	Tags        []string `yaml:"tags"`
	Slug        string   `yaml:"slug"`
	ID          string   `yaml:"id"`
	Aliases     []string `yaml:"aliases"`
}

const pageLayout = `<!DOCTYPE html>
<html lang="{{ .Lang }}">
<head>
<meta charset="utf-8">
<title>{{ .Page.Title }}</title>
<meta name="description" content="{{ .Page.Description }}">
</head>
<body>
<nav><a href="/{{ .Lang }}/">{{ .Lang }}</a> | <a href="/pl/">Polski</a> | <a href="/en/">English</a></nav>
<main>
<article>
<h1>{{ .Page.Title }}</h1>
<p><time datetime="{{ slice .Page.Date 0 10 }}">{{ slice .Page.Date 0 10 }}</time> · {{ join .Page.Tags }}</p>
{{ .Content }}
</article>
</main>
<section class="cards">
{{- range .Cards }}
<div class="card"><h3>{{ .Title }}</h3><p>{{ .Text }}</p><p>{{ join .Tags }}</p></div>
{{- end }}
</section>
<footer>SSG bench · {{ .Lang }}</footer>
</body>
</html>
`

func newLayout(src string) (*layout, error) {
	tmpl, err := template.New("page").Funcs(template.FuncMap{"join": func(s []string) string { return strings.Join(s, ", ") }}).Parse(pageLayout)
	if err != nil {
		return nil, err
	}
	l := &layout{tmpl: tmpl, cards: map[string][]card{}}
	dirs, err := os.ReadDir(src)
	if err != nil {
		return nil, err
	}
	for _, d := range dirs {
		b, err := os.ReadFile(filepath.Join(src, d.Name(), "data", "cards.yaml"))
		if err != nil {
			continue // a locale without cards
		}
		var set struct {
			Cards struct {
				Items []card `yaml:"items"`
			} `yaml:"cards"`
		}
		if err := yaml.Unmarshal(b, &set); err != nil {
			return nil, fmt.Errorf("%s cards: %w", d.Name(), err)
		}
		l.cards[d.Name()] = set.Cards.Items
	}
	return l, nil
}

// page decodes front and replaces buf's HTML body with the whole page.
func (l *layout) page(buf *bytes.Buffer, lang string, front []byte) error {
	var fm frontMatter
	if err := yaml.Unmarshal(front, &fm); err != nil {
		return err
	}
	if len(fm.Date) < 10 {
		return fmt.Errorf("date %q", fm.Date)
	}
	body := template.HTML(buf.String())
	buf.Reset()
	return l.tmpl.Execute(buf, struct {
		Lang    string
		Page    frontMatter
		Content template.HTML
		Cards   []card
	}{lang, fm, body, l.cards[lang]})
}
