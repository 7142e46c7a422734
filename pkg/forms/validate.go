package forms

import (
	"encoding/json"
	"fmt"
	"net/mail"
	"net/url"
	"regexp"
	"sort"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/nyaruka/phonenumbers"
)

// DefaultRegion is the region of phone numbers written without a country code.
const DefaultRegion = "PL"

// Input is what a visitor sent, before validation.
type Input struct {
	Values   map[string]string // fields and hidden inputs, as sent
	Checked  map[string]bool   // consents ticked
	Invalid  map[string]bool   // values that were not text (JSON)
	Honeypot string
	Lang     string
	Page     string
	Key      string
}

// Submission is a validated submission, ready to store.
type Submission struct {
	ID         string
	Key        string
	CreatedAt  time.Time
	Lang       string
	Page       string
	Values     map[string]string // field -> normalized value
	Email      string            // normalized address for GDPR lookups ("" if none)
	Consents   []ConsentRecord
	Spam       string // why it looks like spam; "" when it does not
	SchemaHash string
}

// ConsentRecord is one append-only consent row.
type ConsentRecord struct {
	Type          string
	Granted       bool
	Version       string
	TextHash      string
	Lang          string
	Page          string
	ClauseVersion string
	RecordedAt    time.Time
}

var keyRE = regexp.MustCompile(`^[A-Za-z0-9_-]{8,100}$`)

// ParseForm turns a url-encoded form into an Input.
func ParseForm(s *Schema, form url.Values) Input {
	in := Input{Values: map[string]string{}, Checked: map[string]bool{}, Invalid: map[string]bool{}}
	for _, f := range s.Fields {
		in.Values[f.Name] = form.Get(f.Name)
	}
	for _, c := range s.Consents {
		in.Checked[c.Name] = truthy(form.Get(c.Name))
	}
	in.Honeypot = form.Get(s.Honeypot)
	in.Lang = form.Get(FieldLang)
	in.Page = form.Get(FieldPage)
	in.Key = form.Get(FieldKey)
	return in
}

// ParseJSON turns a JSON object into an Input. Field values must be strings;
// consents may be booleans or the strings a checkbox sends.
func ParseJSON(s *Schema, body []byte) (Input, error) {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(body, &raw); err != nil {
		return Input{}, fmt.Errorf("body is not a JSON object: %w", err)
	}
	in := Input{Values: map[string]string{}, Checked: map[string]bool{}, Invalid: map[string]bool{}}
	str := func(name string) (string, bool) {
		m, ok := raw[name]
		if !ok || string(m) == "null" {
			return "", true
		}
		var v string
		if err := json.Unmarshal(m, &v); err != nil {
			return "", false
		}
		return v, true
	}
	for _, f := range s.Fields {
		v, ok := str(f.Name)
		in.Values[f.Name] = v
		if !ok {
			in.Invalid[f.Name] = true
		}
	}
	for _, c := range s.Consents {
		m, ok := raw[c.Name]
		if !ok {
			continue
		}
		var b bool
		if json.Unmarshal(m, &b) == nil {
			in.Checked[c.Name] = b
			continue
		}
		var v string
		if json.Unmarshal(m, &v) == nil {
			in.Checked[c.Name] = truthy(v)
			continue
		}
		in.Invalid[c.Name] = true
	}
	in.Honeypot, _ = str(s.Honeypot)
	in.Lang, _ = str(FieldLang)
	in.Page, _ = str(FieldPage)
	in.Key, _ = str(FieldKey)
	return in, nil
}

func truthy(v string) bool {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "yes", "on", "true", "1":
		return true
	}
	return false
}

// Validate checks an input against the schema. It returns the submission
// (without ID and time) or the error code of every invalid field.
func (s *Schema) Validate(in Input) (*Submission, map[string]string) {
	errs := map[string]string{}
	sub := &Submission{Values: map[string]string{}, SchemaHash: s.Hash}
	for _, f := range s.Fields {
		v, code := checkField(f, in.Values[f.Name], in.Invalid[f.Name])
		if code != "" {
			errs[f.Name] = code
			continue
		}
		sub.Values[f.Name] = v
		if f.Type == "email" && sub.Email == "" {
			sub.Email = NormalizeEmail(v)
		}
	}
	for _, c := range s.Consents {
		if in.Invalid[c.Name] {
			errs[c.Name] = CodeInvalid
		} else if c.Required && !in.Checked[c.Name] {
			errs[c.Name] = CodeConsent
		}
	}
	if len(errs) > 0 {
		return nil, errs
	}
	sub.Lang = s.Lang(in.Lang)
	sub.Page = cleanPage(in.Page)
	if keyRE.MatchString(in.Key) {
		sub.Key = in.Key
	}
	sub.Spam = spamReason(s, in, sub)
	return sub, nil
}

// checkField returns the normalized value or an error code.
func checkField(f Field, raw string, invalid bool) (string, string) {
	if invalid || !utf8.ValidString(raw) {
		return "", CodeInvalid
	}
	v := strings.TrimSpace(raw)
	if v == "" {
		if f.Required {
			return "", CodeRequired
		}
		return "", ""
	}
	if hasControl(v) {
		return "", CodeInvalid
	}
	if utf8.RuneCountInString(v) > f.MaxLength {
		return "", CodeTooLong
	}
	switch f.Type {
	case "email":
		if !ValidEmail(v) {
			return "", CodeEmail
		}
	case "tel":
		n, ok := ParsePhone(v)
		if !ok {
			return "", CodePhone
		}
		v = n
	}
	return v, ""
}

// hasControl reports control, format (bidi overrides, zero-width) and
// separator characters other than the plain space.
func hasControl(s string) bool {
	for _, r := range s {
		if r == ' ' {
			continue
		}
		if unicode.IsControl(r) || unicode.Is(unicode.Cf, r) || unicode.Is(unicode.Zl, r) || unicode.Is(unicode.Zp, r) || r == utf8.RuneError {
			return true
		}
	}
	return false
}

// ValidEmail reports whether v is a bare e-mail address (no display name,
// no angle brackets, no comments) with a dotted domain.
func ValidEmail(v string) bool {
	a, err := mail.ParseAddress(v)
	if err != nil || a.Name != "" || a.Address != v {
		return false
	}
	at := strings.LastIndexByte(v, '@')
	domain := v[at+1:]
	if !strings.Contains(domain, ".") || strings.HasPrefix(domain, "[") || strings.HasSuffix(domain, ".") || strings.Contains(domain, "..") {
		return false
	}
	return true
}

// NormalizeEmail lower-cases an address for lookups.
func NormalizeEmail(v string) string { return strings.ToLower(strings.TrimSpace(v)) }

// ParsePhone validates a phone number (default region PL) and returns it in
// E.164 form.
func ParsePhone(v string) (string, bool) {
	n, err := phonenumbers.Parse(v, DefaultRegion)
	if err != nil || !phonenumbers.IsValidNumber(n) {
		return "", false
	}
	return phonenumbers.Format(n, phonenumbers.E164), true
}

func cleanPage(p string) string {
	if !utf8.ValidString(p) || len(p) > 512 || !strings.HasPrefix(p, "/") || strings.HasPrefix(p, "//") || hasControl(p) {
		return ""
	}
	return p
}

var linkRE = regexp.MustCompile(`(?i)https?://|www\.|<a\s|\[url`)

// spamReason says why a valid submission looks like spam, or "".
func spamReason(s *Schema, in Input, sub *Submission) string {
	if strings.TrimSpace(in.Honeypot) != "" {
		return "honeypot"
	}
	for _, f := range s.Fields {
		if f.Type == "text" && linkRE.MatchString(sub.Values[f.Name]) {
			return "link in " + f.Name
		}
	}
	return ""
}

// DerivedKey is the idempotency key of a submission that came without one
// (a post without JavaScript): the same values on the same UTC day are the
// same submission.
func DerivedKey(sub *Submission, day time.Time) string {
	names := make([]string, 0, len(sub.Values))
	for n := range sub.Values {
		names = append(names, n)
	}
	sort.Strings(names)
	var b strings.Builder
	b.WriteString(day.UTC().Format("2006-01-02"))
	b.WriteString("\x00" + sub.Lang)
	for _, n := range names {
		b.WriteString("\x00" + n + "=" + sub.Values[n])
	}
	for _, c := range sub.Consents {
		fmt.Fprintf(&b, "\x00%s=%t", c.Type, c.Granted)
	}
	return "d-" + HashText(b.String())[:40]
}

// Records returns the consent rows of a submission: one per consent of the
// schema, granted or not, with the exact text's version and hash.
func (s *Schema) Records(in Input, lang, page string, now time.Time) []ConsentRecord {
	var out []ConsentRecord
	for _, c := range s.Consents {
		out = append(out, ConsentRecord{
			Type: c.Name, Granted: in.Checked[c.Name], Version: c.Version, TextHash: c.Texts[lang].Hash,
			Lang: lang, Page: page, ClauseVersion: s.ClauseVersion, RecordedAt: now.UTC(),
		})
	}
	return out
}
