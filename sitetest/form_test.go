package sitetest

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"sitegen/pkg/forms"
)

// startForms starts the real demo-request handler on the schema the build
// wrote into the site, with a SQLite file of the test.
func (s *browserSuite) startForms(t *testing.T) http.Handler {
	t.Helper()
	schema, err := forms.LoadSchema(filepath.Join(s.out, filepath.FromSlash(forms.SchemaFile("demo"))))
	if err != nil {
		t.Fatalf("the build's form schema: %v", err)
	}
	svc, err := forms.Start(context.Background(), forms.ServerConfig{
		DB:  "sqlite:" + filepath.Join(t.TempDir(), "forms.db"),
		Log: slog.New(slog.NewTextHandler(testWriter{t}, &slog.HandlerOptions{Level: slog.LevelWarn})),
	}, schema)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { svc.Close() })
	s.formSchema, s.formStore = schema, svc.Store
	return svc.Handler
}

type testWriter struct{ t *testing.T }

func (w testWriter) Write(p []byte) (int, error) {
	w.t.Log(strings.TrimSpace(string(p)))
	return len(p), nil
}

var formPages = map[string]string{"pl": "/pl/o-nas/kontakt/", "en": "/en/about-us/contact/"}

// testForm fills the real form on the built site, with and without
// JavaScript, in each language: every validation message next to its
// field, then the thank-you page and the submission in the database.
func (s *browserSuite) testForm(t *testing.T) {
	var subs []subtest
	for _, lang := range []string{"pl", "en"} {
		subs = append(subs, subtest{"js-" + lang, func(t *testing.T) { s.testFormJS(t, lang) }})
		subs = append(subs, subtest{"nojs-" + lang, func(t *testing.T) { s.testFormNoJS(t, lang) }})
	}
	s.concurrently(t, subs)
}

// formCase makes one field invalid and names the code the form must show.
type formCase struct {
	field, code string
	value       string // set as the field's value (bypassing maxlength); "" unticks a consent
}

func (s *browserSuite) formCases() []formCase {
	var long string
	for _, f := range s.formSchema.Fields {
		if f.Name == "companyName" {
			long = strings.Repeat("x", f.MaxLength+1)
		}
	}
	return []formCase{
		{"name", forms.CodeRequired, ""},
		{"email", forms.CodeEmail, "anna@example"},
		{"email", forms.CodeEmail, "Anna <anna@example.com>"},
		{"phone", forms.CodePhone, "123456"}, // passes the island's loose check: the handler's 422 shows it
		{"companyName", forms.CodeTooLong, long},
		{"name", forms.CodeInvalid, "Anna\u0007"},
		{"marketingEmail", forms.CodeConsent, ""},
	}
}

// fillValid types valid values and ticks the consents; it returns the e-mail.
func (s *browserSuite) fillValid(tb *tab, lang, tag string) string {
	email := fmt.Sprintf("anna.%s.%s@example.com", tag, lang)
	vals := map[string]string{"name": "Anna", "companyName": "Testowa sp. z o.o.", "email": email, "phone": "+48 600 100 200"}
	for _, f := range s.formSchema.Fields {
		tb.do(chromedp.SendKeys(chromedp.ID("demo-form-"+f.Name), vals[f.Name]))
	}
	for _, c := range s.formSchema.Consents {
		tb.press("#demo-form-" + c.Name)
	}
	return email
}

// press clicks an element like click, without waiting for scrolling to
// settle (that wait runs page script, which a no-JavaScript tab lacks).
func (tb *tab) press(sel string) {
	tb.t.Helper()
	tb.do(chromedp.ScrollIntoView(chromedp.CSS(sel)), chromedp.Click(chromedp.CSS(sel)))
}

func (tb *tab) setValue(field, value string) {
	tb.t.Helper()
	jsEval[bool](tb, fmt.Sprintf(`(() => { const el = document.getElementById('demo-form-' + %s);
	  if (el.type === 'checkbox') el.checked = %s !== ''; else el.value = %s;
	  el.dispatchEvent(new Event('input', { bubbles: true })); el.dispatchEvent(new Event('change', { bubbles: true })); return true; })()`,
		jsStr(field), jsStr(value), jsStr(value)))
}

type shownError struct {
	Invalid string `json:"invalid"`
	Text    string `json:"text"`
	Focus   string `json:"focus"`
	Status  string `json:"status"`
}

func readError(tb *tab, field string) shownError {
	return jsEval[shownError](tb, fmt.Sprintf(`(() => { const el = document.getElementById('demo-form-' + %s);
	  const d = el.getAttribute('aria-describedby'); const e = d && document.getElementById(d);
	  const st = document.querySelector('.demo-form__status');
	  return { invalid: el.getAttribute('aria-invalid') || '', text: e ? e.textContent : '',
	    focus: document.activeElement ? document.activeElement.id : '', status: st ? st.textContent : '' }; })()`, jsStr(field)))
}

func (tb *tab) waitPath(p string) {
	tb.t.Helper()
	tb.waitJS(fmt.Sprintf(`location.pathname === %s && document.readyState === 'complete'`, jsStr(p)), 10*time.Second, "the page %s", p)
}

func (s *browserSuite) storedEmails(t *testing.T, email string) int {
	recs, err := s.formStore.Records(context.Background(), forms.Filter{Email: email})
	if err != nil {
		t.Fatal(err)
	}
	return len(recs)
}

func (s *browserSuite) testFormJS(t *testing.T, lang string) {
	p := formPages[lang]
	tb := s.newTab(t, tabOptions{consent: "accept"})
	tb.navigate(p, 200)
	tb.do(chromedp.ScrollIntoView(chromedp.CSS("#demo-form")))
	tb.waitJS(`document.querySelector('sg-island[data-island="DemoForm"][data-hydrated]') && document.getElementById('demo-form').noValidate`,
		6*time.Second, "DemoForm to hydrate")
	email := s.fillValid(tb, lang, "js")
	for _, c := range s.formCases() {
		orig := jsEval[string](tb, fmt.Sprintf(`(() => { const el = document.getElementById('demo-form-' + %s); return el.type === 'checkbox' ? (el.checked ? 'yes' : '') : el.value; })()`, jsStr(c.field)))
		tb.setValue(c.field, c.value)
		tb.click(".demo-form__submit")
		want := s.formSchema.Message(lang, c.field, c.code)
		if err := tb.poll(fmt.Sprintf(`(() => { const e = document.getElementById('demo-form-' + %s + '-error'); return e && e.textContent === %s; })()`, jsStr(c.field), jsStr(want)), 6*time.Second); err != nil {
			got := readError(tb, c.field)
			t.Errorf("%s=%q: shows %q, want the %s message %q", c.field, c.value, got.Text, c.code, want)
		}
		got := readError(tb, c.field)
		if got.Invalid != "true" || got.Focus != "demo-form-"+c.field || got.Status != want {
			t.Errorf("%s (%s): aria-invalid %q, focus on %q, status %q", c.field, c.code, got.Invalid, got.Focus, got.Status)
		}
		tb.setValue(c.field, orig)
		tb.waitJS(`!document.querySelector('.demo-form__error')`, 4*time.Second, "the message of %s to clear", c.field)
	}
	if n := s.storedEmails(t, email); n != 0 {
		t.Fatalf("%d submissions stored while the form was invalid", n)
	}
	tb.click(".demo-form__submit")
	tb.waitPath(s.formSchema.Thanks[lang])
	if n := s.storedEmails(t, email); n != 1 {
		t.Errorf("%d submissions of %s stored, want 1", n, email)
	}
	tb.checkNoErrors()
}

func (s *browserSuite) testFormNoJS(t *testing.T, lang string) {
	p := formPages[lang]
	tb := s.newTab(t, tabOptions{noScript: true})
	tb.navigate(p, 200)
	s.checkScriptsOff(t, tb)
	email := s.fillValid(tb, lang, "nojs")
	// A number the browser cannot check (type=tel has no format): the
	// handler answers with its own page in the visitor's language.
	phone := "#demo-form-phone"
	tb.do(chromedp.SendKeys(chromedp.CSS(phone), kb.End+strings.Repeat(kb.Backspace, 20)+"123456"))
	tb.press(`#demo-form [type=submit]`)
	want := s.formSchema.Message(lang, "phone", forms.CodePhone)
	tb.waitJS(fmt.Sprintf(`(() => { const e = document.getElementById('demo-form-phone-error'); return e && e.textContent === %s; })()`, jsStr(want)),
		busyBudget, "the handler's page with the phone message")
	type page struct {
		Lang, Name, Email, Phone, Title, Alert, Focus string
		Checked                                       bool
	}
	got := jsEval[page](tb, `(() => { const v = (n) => document.getElementById('demo-form-' + n).value;
	  const a = document.querySelector('[role=alert]');
	  return { Lang: document.documentElement.lang, Name: v('name'), Email: v('email'), Phone: v('phone'), Title: document.title,
	    Alert: a ? a.textContent : '', Focus: (document.querySelector('[autofocus]') || {}).id || '',
	    Checked: document.getElementById('demo-form-marketingEmail').checked }; })()`)
	if got.Lang != lang || got.Name != "Anna" || got.Email != email || got.Phone != "123456" || !got.Checked {
		t.Errorf("the handler's page does not keep what was typed (lang %q): %+v", lang, got)
	}
	if !strings.Contains(got.Alert, want) || !strings.Contains(got.Title, s.formSchema.UI[lang].Heading) {
		t.Errorf("error summary %q, title %q", got.Alert, got.Title)
	}
	if got.Focus != "demo-form-phone" {
		t.Errorf("autofocus on %q, want the phone field (the first invalid one)", got.Focus)
	}
	if n := s.storedEmails(t, email); n != 0 {
		t.Fatalf("%d submissions stored after a 422", n)
	}
	// Correct the number and send again: 303 to the thank-you page.
	tb.do(chromedp.SendKeys(chromedp.CSS(phone), kb.End+strings.Repeat(kb.Backspace, 20)+"+48 600 100 200"))
	tb.press(`#demo-form [type=submit]`)
	tb.waitPath(s.formSchema.Thanks[lang])
	if n := s.storedEmails(t, email); n != 1 {
		t.Errorf("%d submissions of %s stored, want 1", n, email)
	}
}
