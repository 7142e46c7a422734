package forms

import (
	"net/mail"
	"net/url"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

func TestValidate(t *testing.T) {
	s := testSchema(t)
	tests := []struct {
		name string
		edit func(v url.Values)
		want map[string]string
	}{
		{"valid", func(v url.Values) {}, nil},
		{"all missing", func(v url.Values) {
			for _, k := range []string{"name", "companyName", "email", "phone", "marketingEmail", "phoneContact"} {
				v.Del(k)
			}
		}, map[string]string{"name": CodeRequired, "companyName": CodeRequired, "email": CodeRequired, "phone": CodeRequired,
			"marketingEmail": CodeConsent, "phoneContact": CodeConsent}},
		{"spaces only", func(v url.Values) { v.Set("name", "   ") }, map[string]string{"name": CodeRequired}},
		{"display name in e-mail", func(v url.Values) { v.Set("email", "Jan <jan@example.com>") }, map[string]string{"email": CodeEmail}},
		{"two addresses", func(v url.Values) { v.Set("email", "a@example.com, b@example.com") }, map[string]string{"email": CodeEmail}},
		{"no dot in domain", func(v url.Values) { v.Set("email", "jan@localhost") }, map[string]string{"email": CodeEmail}},
		{"comment in e-mail", func(v url.Values) { v.Set("email", "jan@example.com (Jan)") }, map[string]string{"email": CodeEmail}},
		{"header injection in e-mail", func(v url.Values) { v.Set("email", "jan@example.com\r\nBcc: x@example.com") }, map[string]string{"email": CodeInvalid}},
		{"short phone", func(v url.Values) { v.Set("phone", "12345") }, map[string]string{"phone": CodePhone}},
		{"letters in phone", func(v url.Values) { v.Set("phone", "call me") }, map[string]string{"phone": CodePhone}},
		{"foreign phone", func(v url.Values) { v.Set("phone", "+49 30 901820") }, nil},
		{"too long", func(v url.Values) { v.Set("name", strings.Repeat("ą", 61)) }, map[string]string{"name": CodeTooLong}},
		{"60 runes fit", func(v url.Values) { v.Set("name", strings.Repeat("ą", 60)) }, nil},
		{"control character", func(v url.Values) { v.Set("companyName", "AC\x00ME") }, map[string]string{"companyName": CodeInvalid}},
		{"newline inside", func(v url.Values) { v.Set("name", "Jan\nKowalski") }, map[string]string{"name": CodeInvalid}},
		{"bidi override", func(v url.Values) { v.Set("name", "Jan\u202e") }, map[string]string{"name": CodeInvalid}},
		{"invalid UTF-8", func(v url.Values) { v.Set("name", "Jan\xff") }, map[string]string{"name": CodeInvalid}},
		{"consent off", func(v url.Values) { v.Set("phoneContact", "no") }, map[string]string{"phoneContact": CodeConsent}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := validValues()
			tt.edit(v)
			sub, errs := s.Validate(ParseForm(s, v))
			if len(errs) != len(tt.want) {
				t.Fatalf("errors %v, want %v", errs, tt.want)
			}
			for k, code := range tt.want {
				if errs[k] != code {
					t.Errorf("%s: %q, want %q (all: %v)", k, errs[k], code, errs)
				}
			}
			if tt.want == nil && sub == nil {
				t.Fatal("no submission for valid input")
			}
		})
	}
}

func TestValidateNormalizes(t *testing.T) {
	s := testSchema(t)
	v := validValues()
	v.Set("email", "Jan.Kowalski@Example.COM")
	v.Set("name", "  Jan  ")
	sub, errs := s.Validate(ParseForm(s, v))
	if errs != nil {
		t.Fatal(errs)
	}
	if sub.Values["phone"] != "+48601234567" {
		t.Errorf("phone %q, want E.164 +48601234567", sub.Values["phone"])
	}
	if sub.Values["name"] != "Jan" || sub.Email != "jan.kowalski@example.com" || sub.Values["email"] != "Jan.Kowalski@Example.COM" {
		t.Errorf("values %v, email %q", sub.Values, sub.Email)
	}
	if sub.Page != "/pl/o-nas/kontakt/" || sub.Lang != "pl" {
		t.Errorf("page %q lang %q", sub.Page, sub.Lang)
	}
}

func TestParseJSON(t *testing.T) {
	s := testSchema(t)
	in, err := ParseJSON(s, []byte(`{"name":"Jan","companyName":"ACME","email":"jan@example.com","phone":"+48601234567","marketingEmail":true,"phoneContact":"yes","lang":"en","idempotencyKey":"k-12345678"}`))
	if err != nil {
		t.Fatal(err)
	}
	sub, errs := s.Validate(in)
	if errs != nil || sub.Lang != "en" || sub.Key != "k-12345678" {
		t.Fatalf("%v %+v", errs, sub)
	}
	in, _ = ParseJSON(s, []byte(`{"name":["Jan"],"companyName":1,"email":"jan@example.com","phone":"+48601234567","marketingEmail":{},"phoneContact":true}`))
	_, errs = s.Validate(in)
	if errs["name"] != CodeInvalid || errs["companyName"] != CodeInvalid || errs["marketingEmail"] != CodeInvalid {
		t.Fatalf("non-string values: %v", errs)
	}
	if _, err := ParseJSON(s, []byte(`[1,2]`)); err == nil {
		t.Fatal("a JSON array was accepted")
	}
}

func TestSpamKeptApart(t *testing.T) {
	s := testSchema(t)
	v := validValues()
	v.Set(testHoneypot, "http://spam.example")
	sub, _ := s.Validate(ParseForm(s, v))
	if sub.Spam != "honeypot" {
		t.Errorf("honeypot: spam %q", sub.Spam)
	}
	v = validValues()
	v.Set("companyName", "Buy at https://spam.example")
	sub, _ = s.Validate(ParseForm(s, v))
	if !strings.HasPrefix(sub.Spam, "link") {
		t.Errorf("link: spam %q", sub.Spam)
	}
}

func TestDerivedKey(t *testing.T) {
	s := testSchema(t)
	sub, _ := s.Validate(ParseForm(s, validValues()))
	day := time.Date(2026, 11, 24, 10, 0, 0, 0, time.UTC)
	a, b := DerivedKey(sub, day), DerivedKey(sub, day.Add(time.Hour))
	if a != b || !keyRE.MatchString(a) {
		t.Errorf("same values, same day: %q %q", a, b)
	}
	if DerivedKey(sub, day.AddDate(0, 0, 1)) == a {
		t.Error("next day gives the same key")
	}
}

func TestLangFromAcceptLanguage(t *testing.T) {
	s := testSchema(t)
	for h, want := range map[string]string{"en-GB,en;q=0.9": "en", "de,pl;q=0.5,en;q=0.4": "pl", "de": "", "": "", "en;q=0,pl;q=0.1": "pl"} {
		if got := s.LangFromAcceptLanguage(h); got != want {
			t.Errorf("%q: %q, want %q", h, got, want)
		}
	}
}

func TestNeutralizeCell(t *testing.T) {
	for in, want := range map[string]string{"=1+1": "'=1+1", "+48": "'+48", "-x": "'-x", "@SUM(A1)": "'@SUM(A1)", "\tx": "'\tx", "\rx": "'\rx", "Jan": "Jan", "": ""} {
		if got := NeutralizeCell(in); got != want {
			t.Errorf("%q: %q, want %q", in, got, want)
		}
	}
}

func TestSchemaHash(t *testing.T) {
	s := testSchema(t)
	b, _ := s.Marshal()
	if _, err := ParseSchema("x", b); err != nil {
		t.Fatal(err)
	}
	tampered := strings.Replace(string(b), `"maxLength": 60`, `"maxLength": 6000`, 1)
	if _, err := ParseSchema("x", []byte(tampered)); err == nil || !strings.Contains(err.Error(), "hash") {
		t.Fatalf("edited schema accepted: %v", err)
	}
}

// FuzzValidateForm: no input panics, and whatever is accepted keeps the
// rules (valid UTF-8, no control characters, within limits, a bare e-mail
// address, an E.164 phone number).
func FuzzValidateForm(f *testing.F) {
	f.Add("name=Jan&companyName=ACME&email=jan%40example.com&phone=601234567&marketingEmail=yes&phoneContact=yes")
	f.Add("name=%00&email=%3Ca%40b.c%3E&phone=%2B4860")
	f.Add("email=a%40b.co%0D%0ABcc%3A+x%40y.z&phone=+48+601+234+567")
	s := testSchema(f)
	f.Fuzz(func(t *testing.T, body string) {
		form, err := url.ParseQuery(body)
		if err != nil {
			return
		}
		checkAccepted(t, s, ParseForm(s, form))
	})
}

// FuzzValidateJSON is FuzzValidateForm for script posts.
func FuzzValidateJSON(f *testing.F) {
	f.Add(`{"name":"Jan","companyName":"ACME","email":"jan@example.com","phone":"601234567","marketingEmail":true,"phoneContact":"yes"}`)
	f.Add(`{"name":"\u0000","email":"x@y","phone":1}`)
	s := testSchema(f)
	f.Fuzz(func(t *testing.T, body string) {
		in, err := ParseJSON(s, []byte(body))
		if err != nil {
			return
		}
		checkAccepted(t, s, in)
	})
}

func checkAccepted(t *testing.T, s *Schema, in Input) {
	sub, errs := s.Validate(in)
	if sub == nil {
		if len(errs) == 0 {
			t.Fatal("rejected without an error code")
		}
		for k, code := range errs {
			if s.Message("en", k, code) == "" {
				t.Fatalf("code %q of %s has no message", code, k)
			}
		}
		return
	}
	for _, f := range s.Fields {
		v := sub.Values[f.Name]
		if !utf8.ValidString(v) || hasControl(v) || utf8.RuneCountInString(v) > f.MaxLength {
			t.Fatalf("accepted %s=%q", f.Name, v)
		}
		switch f.Type {
		case "email":
			a, err := mail.ParseAddress(v)
			if err != nil || a.Address != v {
				t.Fatalf("accepted e-mail %q", v)
			}
		case "tel":
			if !strings.HasPrefix(v, "+") {
				t.Fatalf("phone %q is not E.164", v)
			}
		}
	}
}

// FuzzCSV: no exported cell begins with a formula character.
func FuzzCSV(f *testing.F) {
	f.Add("=HYPERLINK(\"http://x\")")
	f.Add("\t@x")
	f.Fuzz(func(t *testing.T, v string) {
		c := NeutralizeCell(v)
		if c != "" && strings.ContainsRune("=+-@\t\r", rune(c[0])) {
			t.Fatalf("%q stays %q", v, c)
		}
	})
}
