package forms

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"html/template"
	"net/http"
	"net/url"
	"strconv"
	"strings"
)

// pageRenderer renders the handler's own page: the form again, in the
// visitor's language, with what they typed and a message at each invalid
// field. It needs no site templates at run time.
type pageRenderer struct {
	schema *Schema
	tmpl   *template.Template
	csp    string
}

type pageField struct {
	ID, Name, Type, Label, Value, Error, Autocomplete string
	Required                                          bool
	MaxLength                                         int
	Focus                                             bool
}

type pageConsent struct {
	ID, Name, Error string
	HTML            template.HTML
	Required        bool
	Checked         bool
	Focus           bool
}

type pageData struct {
	FormID, Lang, Title, Heading, Notice, Action, Submit, Key, Page, Back, Home, Honeypot, Trap string
	Fields                                                                                      []pageField
	Consents                                                                                    []pageConsent
	Clause                                                                                      template.HTML
	Errors                                                                                      []pageField
}

var autocomplete = map[string]string{"email": "email", "tel": "tel"}

const pageHTML = `<!doctype html>
<html lang="{{ .Lang }}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>{{ if .Errors }}{{ .Heading }} – {{ end }}{{ .Title }}</title>
<style>
body{font:1rem/1.5 system-ui,sans-serif;color:#14171f;background:#f6f7fb;margin:0}
main{max-width:40rem;margin:0 auto;padding:2rem 1rem}
h1{font-size:1.75rem;line-height:1.2}
.summary{border:2px solid #b3261e;background:#fff;padding:1rem;border-radius:.5rem}
.summary h2{font-size:1.125rem;margin:0 0 .5rem;color:#b3261e}
.summary a{color:#b3261e}
form{background:#fff;padding:1.5rem;border-radius:.75rem;margin-top:1.5rem}
.field{margin-bottom:1rem}
label{display:block;font-weight:600}
input[type=text],input[type=email],input[type=tel]{box-sizing:border-box;width:100%;font:inherit;padding:.625rem .75rem;border:1px solid #5b6275;border-radius:.375rem;margin-top:.25rem}
[aria-invalid=true]{border-color:#b3261e;outline:1px solid #b3261e}
.error{color:#b3261e;margin:.25rem 0 0;font-weight:600}
.consent{display:grid;grid-template-columns:auto 1fr;gap:.5rem;margin-bottom:1rem}
.consent .error{grid-column:2}
.consent input{width:1.25rem;height:1.25rem;margin-top:.125rem}
.consent label{font-weight:400}
.clause{font-size:.875rem;color:#3d4354}
.hp{position:absolute;left:-10000px;width:1px;height:1px;overflow:hidden}
button{font:inherit;font-weight:600;background:#2446d8;color:#fff;border:0;border-radius:.5rem;padding:.75rem 1.5rem;cursor:pointer}
button:focus-visible,input:focus-visible,a:focus-visible{outline:3px solid #f0a500;outline-offset:2px}
</style>
</head>
<body>
<main>
<h1>{{ .Title }}</h1>
{{- if .Notice }}
<div class="summary" role="alert"><p>{{ .Notice }}</p></div>
{{- end }}
{{- if .Errors }}
<div class="summary" role="alert" aria-labelledby="summary-title">
<h2 id="summary-title">{{ .Heading }}</h2>
<ul>
{{- range .Errors }}
<li><a href="#{{ .ID }}">{{ if .Label }}{{ .Label }}: {{ end }}{{ .Error }}</a></li>
{{- end }}
</ul>
</div>
{{- end }}
<form id="{{ .FormID }}" method="post" action="{{ .Action }}" novalidate>
<input type="hidden" name="lang" value="{{ .Lang }}">
<input type="hidden" name="page" value="{{ .Page }}">
<input type="hidden" name="idempotencyKey" value="{{ .Key }}">
{{- range .Fields }}
<div class="field">
<label for="{{ .ID }}">{{ .Label }}{{ if .Required }}<span aria-hidden="true"> *</span>{{ end }}</label>
<input id="{{ .ID }}" name="{{ .Name }}" type="{{ .Type }}" value="{{ .Value }}"{{ with .Autocomplete }} autocomplete="{{ . }}"{{ end }}{{ if .Required }} required{{ end }} maxlength="{{ .MaxLength }}"{{ if .Error }} aria-invalid="true" aria-describedby="{{ .ID }}-error"{{ end }}{{ if .Focus }} autofocus{{ end }}>
{{- if .Error }}
<p class="error" id="{{ .ID }}-error">{{ .Error }}</p>
{{- end }}
</div>
{{- end }}
<div class="hp" aria-hidden="true"><label for="{{ .FormID }}-{{ .Trap }}">{{ .Honeypot }}</label><input id="{{ .FormID }}-{{ .Trap }}" type="text" name="{{ .Trap }}" tabindex="-1" autocomplete="off"></div>
{{- range .Consents }}
<div class="consent">
<input id="{{ .ID }}" type="checkbox" name="{{ .Name }}" value="yes"{{ if .Checked }} checked{{ end }}{{ if .Required }} required{{ end }}{{ if .Error }} aria-invalid="true" aria-describedby="{{ .ID }}-error"{{ end }}{{ if .Focus }} autofocus{{ end }}>
<label for="{{ .ID }}">{{ .HTML }}{{ if .Required }}<span aria-hidden="true"> *</span>{{ end }}</label>
{{- if .Error }}
<p class="error" id="{{ .ID }}-error">{{ .Error }}</p>
{{- end }}
</div>
{{- end }}
<div class="clause">{{ .Clause }}</div>
<button type="submit">{{ .Submit }}</button>
</form>
{{- if .Home }}
<p><a href="{{ .Home }}">{{ .Back }}</a></p>
{{- end }}
</main>
</body>
</html>
`

func newPageRenderer(s *Schema) (*pageRenderer, error) {
	t, err := template.New("page").Parse(pageHTML)
	if err != nil {
		return nil, err
	}
	action := "'self'"
	if u, err := url.Parse(s.Endpoint); err == nil && u.Host != "" {
		action = u.Scheme + "://" + u.Host
	}
	csp := "default-src 'none'; style-src 'unsafe-inline'; img-src 'self'; form-action " + action + "; base-uri 'none'; frame-ancestors 'none'"
	return &pageRenderer{schema: s, tmpl: t, csp: csp}, nil
}

// Message returns the text of an error code in lang.
func (s *Schema) Message(lang, field, code string) string {
	m := s.UI[s.Lang(lang)].Messages[code]
	if f, ok := s.Field(field); ok {
		m = strings.ReplaceAll(m, "{max}", strconv.Itoa(f.MaxLength))
	}
	return m
}

func randomKey() string {
	var b [16]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

func (p *pageRenderer) data(lang string, in Input, errs map[string]string, notice string) pageData {
	s := p.schema
	ui := s.UI[lang]
	key := in.Key
	if !keyRE.MatchString(key) {
		key = randomKey()
	}
	d := pageData{FormID: s.ID, Lang: lang, Title: ui.Title, Heading: ui.Heading, Notice: notice, Action: s.Endpoint, Submit: ui.Submit,
		Key: key, Page: cleanPage(in.Page), Back: ui.Back, Home: ui.Home, Honeypot: ui.Honeypot, Trap: s.Honeypot,
		Clause: template.HTML(s.Clause[lang].HTML)}
	first := true
	for _, f := range s.Fields {
		pf := pageField{ID: s.ID + "-" + f.Name, Name: f.Name, Type: f.Type, Label: ui.Labels[f.Name], Value: in.Values[f.Name],
			Required: f.Required, MaxLength: f.MaxLength, Autocomplete: autocomplete[f.Type]}
		if code := errs[f.Name]; code != "" {
			pf.Error = s.Message(lang, f.Name, code)
			pf.Focus, first = first, false
			d.Errors = append(d.Errors, pf)
		}
		d.Fields = append(d.Fields, pf)
	}
	for _, c := range s.Consents {
		pc := pageConsent{ID: s.ID + "-" + c.Name, Name: c.Name, HTML: template.HTML(c.Texts[lang].HTML), Required: c.Required, Checked: in.Checked[c.Name]}
		if code := errs[c.Name]; code != "" {
			pc.Error = s.Message(lang, c.Name, code)
			pc.Focus, first = first, false
			d.Errors = append(d.Errors, pageField{ID: pc.ID, Label: ui.Labels[c.Name], Error: pc.Error})
		}
		d.Consents = append(d.Consents, pc)
	}
	return d
}

func (p *pageRenderer) write(w http.ResponseWriter, status int, lang string, in Input, errs map[string]string, notice string) {
	var buf bytes.Buffer
	if err := p.tmpl.Execute(&buf, p.data(lang, in, errs, notice)); err != nil {
		http.Error(w, "internal error", http.StatusInternalServerError)
		return
	}
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	h.Set("Content-Security-Policy", p.csp)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "strict-origin-when-cross-origin")
	w.WriteHeader(status)
	w.Write(buf.Bytes())
}
