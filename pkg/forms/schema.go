// Package forms is the form handler: it reads the form schema the build
// exported (package formschema makes it) and does server-side validation,
// durable storage (SQLite or PostgreSQL), an outbox of notifications (SMTP,
// signed webhook) and the HTTP handler. It imports nothing of the content
// pipeline, so the handler stays a small separate program.
package forms

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"os"
	"sort"
	"strings"
)

// SchemaVersion is the version of the schema file format.
const SchemaVersion = 3

// Hidden inputs the form carries besides its fields and consents.
const (
	FieldLang = "lang"
	FieldPage = "page"
	FieldKey  = "idempotencyKey"
)

// Error codes: the handler answers them per field; the island and the
// no-JavaScript page show each code's message in the visitor's language.
const (
	CodeRequired = "required"
	CodeEmail    = "email"
	CodePhone    = "phone"
	CodeConsent  = "consent"
	CodeTooLong  = "tooLong"
	CodeInvalid  = "invalid"
)

// Codes lists every error code; each locale must have a message for each.
var Codes = []string{CodeRequired, CodeEmail, CodePhone, CodeConsent, CodeTooLong, CodeInvalid}

// Schema is the one definition of a form, exported by the build and loaded
// by the handler.
type Schema struct {
	Format int    `json:"format"`
	Form   string `json:"form"`
	// ID is the id of the <form> element on the site's pages; Subject
	// starts the notification e-mail's subject, Event names the webhook's
	// event (all from site.yaml's forms.<name>).
	ID       string `json:"id"`
	Subject  string `json:"subject"`
	Event    string `json:"event"`
	Endpoint string `json:"endpoint"`
	// Honeypot is the name of the text input people never see and bots
	// fill in (site.yaml's forms.<name>.honeypot).
	Honeypot string `json:"honeypot"`
	// Origin is the site's origin; set when the endpoint is on another origin
	// (CORS and cross-origin protection then allow exactly this origin).
	Origin        string             `json:"origin,omitempty"`
	DefaultLocale string             `json:"defaultLocale"`
	Locales       []string           `json:"locales"`
	Fields        []Field            `json:"fields"`
	Consents      []Consent          `json:"consents"`
	Clause        map[string]Text    `json:"clause"`
	ClauseVersion string             `json:"clauseVersion"`
	Thanks        map[string]string  `json:"thanks"`
	UI            map[string]UItexts `json:"ui"`
	// Hash is the SHA-256 of the schema with Hash empty; it names the exact
	// definition a submission was validated against.
	Hash string `json:"hash"`
}

// Field is one input of the form.
type Field struct {
	Name      string `json:"name"`
	Type      string `json:"type"` // text, email, tel
	Required  bool   `json:"required"`
	MaxLength int    `json:"maxLength"`
}

// Consent is one consent checkbox with its exact text per locale.
type Consent struct {
	Name     string          `json:"name"`
	Required bool            `json:"required"`
	Version  string          `json:"version"`
	Texts    map[string]Text `json:"texts"`
}

// Text is an exact text (Markdown source as written), its HTML and the
// SHA-256 of the source.
type Text struct {
	Source string `json:"source"`
	HTML   string `json:"html"`
	Hash   string `json:"hash"`
}

// UItexts are the strings of one locale the handler's own page needs.
type UItexts struct {
	Title    string            `json:"title"`
	Heading  string            `json:"heading"` // "please correct the marked fields"
	Submit   string            `json:"submit"`
	Labels   map[string]string `json:"labels"`
	Messages map[string]string `json:"messages"` // error code -> message; tooLong has {max}
	Honeypot string            `json:"honeypot"`
	Back     string            `json:"back"` // link text back to the site
	// Unavailable is shown when the submission could not be stored.
	Unavailable string `json:"unavailable"`
	Home        string `json:"homeURL"` // URL of the locale's home page
}

// HashText returns the hex SHA-256 of s.
func HashText(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

// Seal checks the schema and sets its hash.
func (s *Schema) Seal() error {
	s.Format = SchemaVersion
	s.Hash = ""
	if err := s.Check(); err != nil {
		return err
	}
	b, err := json.Marshal(s)
	if err != nil {
		return err
	}
	s.Hash = HashText(string(b))
	return nil
}

// Check reports what is missing or inconsistent in the schema.
func (s *Schema) Check() error {
	var errs []error
	add := func(format string, a ...any) { errs = append(errs, fmt.Errorf(format, a...)) }
	if s.Format != SchemaVersion {
		add("schema format %d, this handler reads %d", s.Format, SchemaVersion)
	}
	if s.Endpoint == "" {
		add("no endpoint")
	}
	if s.ID == "" || s.Subject == "" || s.Event == "" || s.Honeypot == "" {
		add("the form's element id, mail subject, event name and honeypot input must all be set")
	}
	if len(s.Locales) == 0 {
		add("no locales")
	}
	if !contains(s.Locales, s.DefaultLocale) {
		add("default locale %q is not among the locales %v", s.DefaultLocale, s.Locales)
	}
	if s.ClauseVersion == "" {
		add("no controller clause version")
	}
	seen := map[string]bool{s.Honeypot: true, FieldLang: true, FieldPage: true, FieldKey: true}
	for _, f := range s.Fields {
		if seen[f.Name] || f.Name == "" {
			add("field name %q is empty, repeated or reserved", f.Name)
		}
		seen[f.Name] = true
		switch f.Type {
		case "text", "email", "tel":
		default:
			add("field %s: type %q (want text, email or tel)", f.Name, f.Type)
		}
		if f.MaxLength <= 0 {
			add("field %s: maxLength must be positive", f.Name)
		}
	}
	for _, c := range s.Consents {
		if seen[c.Name] || c.Name == "" {
			add("consent name %q is empty, repeated or reserved", c.Name)
		}
		seen[c.Name] = true
		if c.Version == "" {
			add("consent %s: no version", c.Name)
		}
	}
	for _, l := range s.Locales {
		if s.Thanks[l] == "" {
			add("locale %s: no thank-you URL", l)
		}
		if _, ok := s.Clause[l]; !ok {
			add("locale %s: no controller clause", l)
		}
		for _, c := range s.Consents {
			if t, ok := c.Texts[l]; !ok || t.Source == "" {
				add("locale %s: consent %s has no text", l, c.Name)
			}
		}
		ui := s.UI[l]
		for _, code := range Codes {
			if ui.Messages[code] == "" {
				add("locale %s: no message for error code %q", l, code)
			}
		}
		for _, f := range s.Fields {
			if ui.Labels[f.Name] == "" {
				add("locale %s: field %s has no label", l, f.Name)
			}
		}
	}
	return errors.Join(errs...)
}

// Field returns the field with the name.
func (s *Schema) Field(name string) (Field, bool) {
	for _, f := range s.Fields {
		if f.Name == name {
			return f, true
		}
	}
	return Field{}, false
}

// Lang returns lang when the schema has it, else the default locale.
func (s *Schema) Lang(lang string) string {
	if contains(s.Locales, lang) {
		return lang
	}
	return s.DefaultLocale
}

// LangFromAcceptLanguage picks the first of the schema's locales named in an
// Accept-Language header, or "".
func (s *Schema) LangFromAcceptLanguage(h string) string {
	type pref struct {
		tag string
		q   float64
		i   int
	}
	var prefs []pref
	for i, part := range strings.Split(h, ",") {
		tag, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		q := 1.0
		if v, ok := strings.CutPrefix(strings.TrimSpace(params), "q="); ok {
			if _, err := fmt.Sscanf(v, "%g", &q); err != nil {
				q = 0
			}
		}
		base, _, _ := strings.Cut(strings.ToLower(tag), "-")
		prefs = append(prefs, pref{base, q, i})
	}
	sort.SliceStable(prefs, func(a, b int) bool { return prefs[a].q > prefs[b].q })
	for _, p := range prefs {
		if p.q > 0 && contains(s.Locales, p.tag) {
			return p.tag
		}
	}
	return ""
}

// Names returns the field and consent names in form order.
func (s *Schema) Names() []string {
	var out []string
	for _, f := range s.Fields {
		out = append(out, f.Name)
	}
	for _, c := range s.Consents {
		out = append(out, c.Name)
	}
	return out
}

// LoadSchema reads a schema file and checks it, including its hash.
func LoadSchema(path string) (*Schema, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read form schema: %w", err)
	}
	return ParseSchema(path, b)
}

// ParseSchema decodes and checks a schema.
func ParseSchema(name string, b []byte) (*Schema, error) {
	var s Schema
	dec := json.NewDecoder(strings.NewReader(string(b)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&s); err != nil {
		return nil, fmt.Errorf("form schema %s: %w", name, err)
	}
	want := s.Hash
	if err := s.Seal(); err != nil {
		return nil, fmt.Errorf("form schema %s: %w", name, err)
	}
	if want != s.Hash {
		return nil, fmt.Errorf("form schema %s: hash %s does not match its content (%s); rebuild the site instead of editing the file", name, want, s.Hash)
	}
	return &s, nil
}

// Marshal encodes the schema as indented JSON.
func (s *Schema) Marshal() ([]byte, error) {
	b, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// EndpointOrigins is the endpoint's origin when it is on another origin
// than the site (for the site's CSP), else nothing.
func (s *Schema) EndpointOrigins() []string {
	u, err := url.Parse(s.Endpoint)
	if err != nil || u.Host == "" {
		return nil
	}
	return []string{u.Scheme + "://" + u.Host}
}

// SchemaFile is where the build writes a form's schema in the output.
func SchemaFile(form string) string { return "_forms/" + form + ".schema.json" }
