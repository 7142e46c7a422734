// Package gensite writes generated sites for benchmarks: many pages of
// Markdown with front matter, links between them and a shared data set.
package gensite

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
)

// Write writes into dir a site of n pages per locale (pl, en): ~600 words each,
// front matter, headings, lists, a table, a code block, links to other pages,
// and one data set shown on every page.
func Write(dir string, n int) error {
	var err error
	r := rand.New(rand.NewPCG(42, 1))
	words := map[string][]string{
		"pl": strings.Fields("automatyzacja rozmowa klient pracownik rekrutacja wiedza odpowiedź pytanie proces zespół dane platforma wdrożenie integracja kanał wiadomość wynik oszczędność czas jakość bezpieczeństwo"),
		"en": strings.Fields("automation conversation customer employee recruitment knowledge answer question process team data platform rollout integration channel message result saving time quality security"),
	}
	write := func(p, s string) {
		if err != nil {
			return
		}
		p = filepath.Join(dir, p)
		if err = os.MkdirAll(filepath.Dir(p), 0o755); err == nil {
			err = os.WriteFile(p, []byte(s), 0o644)
		}
	}
	write("site.yaml", "baseURL: https://bench.example\ntitle: Bench\nlocales:\n  - {code: pl, name: Polski, prefix: /pl, default: true}\n  - {code: en, name: English, prefix: /en}\n")
	write("schema.yaml", "types:\n  card:\n    fields:\n      title: {kind: text, required: true}\n      text: {kind: markdown, required: true}\n      tags: {kind: list, of: text}\n")
	write("templates/base.html", `<!doctype html><html lang="{{ .Lang }}"><head><meta charset="utf-8"><title>{{ .Page.Title }}</title><meta name="description" content="{{ .Page.Description }}"><link rel="canonical" href="{{ .Page.Permalink }}">{{ range .Alternates }}<link rel="alternate" hreflang="{{ .Lang }}" href="{{ .Permalink }}">{{ end }}</head><body><nav><a href="{{ ref "start" }}">{{ t "start" }}</a></nav><main>{{ block "main" . }}{{ end }}</main><footer>{{ .Site.Title }}</footer></body></html>`)
	write("templates/layouts/page.html", `{{ define "main" }}<h1>{{ .Page.Title }}</h1><time>{{ .Page.Date }}</time>{{ .Page.Content }}<ul>{{ range data "cards.cards" }}<li><h2>{{ .title }}</h2>{{ md .text }} {{ join ", " .tags }}</li>{{ end }}</ul>{{ end }}`)
	for _, lang := range []string{"pl", "en"} {
		var cards strings.Builder
		cards.WriteString("cards:\n  type: card\n  items:\n")
		for i := 0; i < 12; i++ {
			fmt.Fprintf(&cards, "    - {title: Karta %d, text: \"%s %s\", tags: [a, b]}\n", i, words[lang][i], words[lang][i+1])
		}
		write("content/"+lang+"/data/cards.yaml", cards.String())
		write("content/"+lang+"/i18n.yaml", "start: Start\n")
		write("content/"+lang+"/index.md", "---\nid: start\ntitle: Start\ndescription: Start.\n---\nStart.\n")
		for i := 0; i < n; i++ {
			var b strings.Builder
			w := words[lang]
			fmt.Fprintf(&b, "---\nid: p%06d\nslug: %s-%d\ntitle: %s %s %d\ndescription: %s %s.\ndate: 2025-%02d-%02d\n", i, w[i%len(w)], i, w[i%len(w)], w[(i+3)%len(w)], i, w[i%7], w[i%5], 1+i%12, 1+i%28)
			if i%5 == 0 {
				fmt.Fprintf(&b, "aliases: [/%s/archiwum/%d]\n", lang, i)
			}
			b.WriteString("---\n")
			for para := 0; para < 8; para++ {
				if para%3 == 0 {
					fmt.Fprintf(&b, "\n## %s %s\n\n", w[r.IntN(len(w))], w[r.IntN(len(w))])
				}
				for k := 0; k < 60; k++ {
					b.WriteString(w[r.IntN(len(w))])
					b.WriteByte(' ')
				}
				fmt.Fprintf(&b, "[%s](ref:p%06d).\n\n", w[para], (i+para+1)%n)
			}
			b.WriteString("- one\n- two\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n```go\nfunc main() { println(\"x\") }\n```\n")
			write(fmt.Sprintf("content/%s/p/%06d.md", lang, i), b.String())
		}
	}
	return err
}
