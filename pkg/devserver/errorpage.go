package devserver

import (
	"html/template"
	"net/http"
)

var errorPageTmpl = template.Must(template.New("error").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Build failed | sitegen</title>
<script type="module" src="{{ .Script }}" data-sitegen-dev data-file=""></script>
</head>
<body style="font:16px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#0f172a">
<h1 style="color:#b91c1c">Build failed</h1>
<p>{{ .Why }} Fix the file and save: this page reloads by itself.</p>
{{ range .Problem.Errors }}<section style="margin:1.5rem 0">
<p style="font:600 14px/1.4 ui-monospace,monospace;color:#1e3a8a">{{ .File }}{{ if .Line }}:{{ .Line }}{{ if .Col }}:{{ .Col }}{{ end }}{{ end }}</p>
<p>{{ .Message }}</p>{{ with .Hint }}<p style="color:#475569">Hint: {{ . }}</p>{{ end }}
{{ with .Source }}<pre style="background:#f1f5f9;padding:.6rem .8rem;border-radius:6px;overflow:auto">{{ . }}</pre>{{ end }}
</section>{{ end }}
</body></html>
`))

// errorPage answers every page request while there has been no good build,
// and a page that does not render (why says which).
func (s *Server) errorPage(w http.ResponseWriter, r *http.Request, why string) {
	p := problem{}
	s.events.mu.Lock()
	if s.events.current != nil {
		p, _ = s.events.current.data.(problem)
	}
	s.events.mu.Unlock()
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusInternalServerError)
	errorPageTmpl.Execute(w, struct {
		Script, Why string
		Problem     problem
	}{ScriptPath, why, p})
}
