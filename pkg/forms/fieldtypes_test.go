package forms

import (
	"net/url"
	"strings"
	"testing"
)

// typesSchema is a contact form with a message box, a select and a
// checkbox group.
func typesSchema(t testing.TB) *Schema {
	t.Helper()
	s := testSchema(t)
	s.Fields = []Field{
		{Name: "email", Type: TypeEmail, Required: true, MaxLength: 254},
		{Name: "message", Type: TypeTextarea, Required: true, MinLength: 10, MaxLength: 2000},
		{Name: "topic", Type: TypeSelect, Required: true, Options: []string{"sales", "support"}},
		{Name: "channels", Type: TypeCheckboxes, Options: []string{"email", "phone", "chat"}},
	}
	for _, l := range s.Locales {
		ui := s.UI[l]
		ui.Labels = map[string]string{"email": "E-mail", "message": l + " Message", "topic": l + " Topic", "channels": l + " Channels"}
		ui.OptionLabels = map[string]map[string]string{
			"topic":    {"sales": l + " Sales", "support": l + " Support"},
			"channels": {"email": "E-mail", "phone": l + " Phone", "chat": "Chat"},
		}
		ui.Messages[CodeTooShort] = l + ": at least {min}"
		s.UI[l] = ui
	}
	if err := s.Seal(); err != nil {
		t.Fatal(err)
	}
	return s
}

func typesValues() url.Values {
	return url.Values{"email": {"jan@example.com"}, "message": {"Hello,\r\nplease call me back.\r\n\tThanks"}, "topic": {"sales"},
		"channels": {"phone", "email"}, "marketingEmail": {"yes"}, "phoneContact": {"yes"}, "lang": {"en"}, "page": {"/en/contact/"}}
}

func TestValidateFieldTypes(t *testing.T) {
	s := typesSchema(t)
	tests := []struct {
		name string
		edit func(v url.Values)
		want map[string]string
	}{
		{"valid", func(v url.Values) {}, nil},
		{"message missing", func(v url.Values) { v.Del("message") }, map[string]string{"message": CodeRequired}},
		{"message too short", func(v url.Values) { v.Set("message", "Hi there") }, map[string]string{"message": CodeTooShort}},
		{"ten runes fit", func(v url.Values) { v.Set("message", "ąąąąąąąąąą") }, nil},
		{"message too long", func(v url.Values) { v.Set("message", strings.Repeat("a", 2001)) }, map[string]string{"message": CodeTooLong}},
		{"NUL in message", func(v url.Values) { v.Set("message", "Hello there\x00") }, map[string]string{"message": CodeInvalid}},
		{"bidi override in message", func(v url.Values) { v.Set("message", "Hello there\u202e") }, map[string]string{"message": CodeInvalid}},
		{"topic missing", func(v url.Values) { v.Del("topic") }, map[string]string{"topic": CodeRequired}},
		{"topic not an option", func(v url.Values) { v.Set("topic", "hacking") }, map[string]string{"topic": CodeInvalid}},
		{"no channel (optional)", func(v url.Values) { v.Del("channels") }, nil},
		{"channel not an option", func(v url.Values) { v["channels"] = []string{"email", "fax"} }, map[string]string{"channels": CodeInvalid}},
		{"channel twice", func(v url.Values) { v["channels"] = []string{"email", "email"} }, map[string]string{"channels": CodeInvalid}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := typesValues()
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
	sub, errs := s.Validate(ParseForm(s, typesValues()))
	if errs != nil {
		t.Fatal(errs)
	}
	for k, want := range map[string]string{"message": "Hello,\nplease call me back.\n\tThanks", "topic": "sales", "channels": "email,phone"} {
		if sub.Values[k] != want {
			t.Errorf("%s = %q, want %q", k, sub.Values[k], want)
		}
	}
	if got := s.Message("en", "message", CodeTooShort); got != "en: at least 10" {
		t.Errorf("tooShort message %q", got)
	}
}

func TestParseJSONCheckboxes(t *testing.T) {
	s := typesSchema(t)
	for body, want := range map[string]string{
		`{"channels":["chat","email"]}`: "email,chat",
		`{"channels":"phone"}`:          "phone",
		`{"channels":null}`:             "",
	} {
		in, err := ParseJSON(s, []byte(body))
		if err != nil {
			t.Fatal(err)
		}
		got, code := checkBoxes(s.Fields[3], in.Multi["channels"], in.Invalid["channels"])
		if got != want || code != "" {
			t.Errorf("%s: %q %q, want %q", body, got, code, want)
		}
	}
	in, _ := ParseJSON(s, []byte(`{"channels":[1]}`))
	if _, code := checkBoxes(s.Fields[3], in.Multi["channels"], in.Invalid["channels"]); code != CodeInvalid {
		t.Errorf("a number among the channels: %q", code)
	}
}

func TestCheckField(t *testing.T) {
	for _, tt := range []struct {
		f    Field
		want string
	}{
		{Field{Name: "m", Type: "textarea", MaxLength: 10}, ""},
		{Field{Name: "m", Type: "textarea", MinLength: 3, MaxLength: 10}, ""},
		{Field{Name: "m", Type: "textare", MaxLength: 10}, `type "textare" (want text, email, tel, textarea, select, checkboxes)`},
		{Field{Name: "m", Type: "textarea"}, "maxLength must be positive"},
		{Field{Name: "m", Type: "text", MinLength: 11, MaxLength: 10}, "minLength 11 must be between 0 and maxLength 10"},
		{Field{Name: "m", Type: "text", MaxLength: 10, Options: []string{"a"}}, "a text field takes no options (only select and checkboxes do)"},
		{Field{Name: "t", Type: "select"}, "a select needs options"},
		{Field{Name: "t", Type: "select", Options: []string{"a", "a"}}, `option value "a" is given twice`},
		{Field{Name: "t", Type: "checkboxes", Options: []string{"a b"}}, `option value "a b" may hold only letters, digits, '.', '_' and '-' (at most 100)`},
		{Field{Name: "t", Type: "checkboxes", Options: []string{"a"}, MaxLength: 5}, "a checkboxes takes no minLength or maxLength (its options bound the value)"},
		{Field{Name: "t", Type: "select", Options: []string{"ja-問い合わせ"}}, ""},
	} {
		got := ""
		if err := CheckField(tt.f); err != nil {
			got = err.Error()
		}
		if got != tt.want {
			t.Errorf("CheckField(%+v) = %q, want %q", tt.f, got, tt.want)
		}
	}
}

const typesForm = `<form id="lead-form" method="post" action="/api/demo">
<input type="hidden" name="lang" value="en"><input type="hidden" name="page" value="/en/"><input type="hidden" name="idempotencyKey" value="">
<input type="text" name="website">
<input type="email" name="email" required maxlength="254">
<textarea name="message" required minlength="10" maxlength="2000"></textarea>
<select name="topic" required><option value="">Choose</option><option value="sales">Sales</option><option>support</option></select>
<fieldset><input type="checkbox" name="channels" value="email"><input type="checkbox" name="channels" value="phone"><input type="checkbox" name="channels" value="chat"></fieldset>
<input type="checkbox" name="marketingEmail" required><input type="checkbox" name="phoneContact" required>
</form>`

func TestCheckMarkupFieldTypes(t *testing.T) {
	s := typesSchema(t)
	if err := s.CheckMarkup([]byte(typesForm), "en"); err != nil {
		t.Fatalf("the form matches its schema: %v", err)
	}
	for _, tt := range []struct{ old, new, want string }{
		{`<textarea name="message" required minlength="10"`, `<textarea name="message" required`, `field "message": minlength 0 in the markup, 10 in the schema`},
		{`<textarea name="message"`, `<input type="text" name="message"`, `input "message" has type "text", the schema says "textarea"`},
		{`<option>support</option>`, `<option>support</option><option>other</option>`, `field "topic": options ["sales" "support" "other"] in the markup, ["sales" "support"] in the schema`},
		{`<select name="topic" required>`, `<select name="topic">`, `field "topic": required=false in the markup, true in the schema`},
		{` value="chat">`, ` value="fax">`, `field "channels": options ["email" "phone" "fax"] in the markup, ["email" "phone" "chat"] in the schema`},
		{`name="channels" value="email">`, `name="channels" value="email" required>`, `field "channels": a checkbox of the group is required`},
		{`name="channels" value="phone">`, `name="channels" value="phone"><input type="text" name="channels">`, `input "channels" appears twice`},
	} {
		page := strings.Replace(typesForm, tt.old, tt.new, 1)
		if page == typesForm {
			t.Fatalf("%q not in the form", tt.old)
		}
		err := s.CheckMarkup([]byte(page), "en")
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s -> %s: %v, want %q", tt.old, tt.new, err, tt.want)
		}
	}
}

// TestHandlerPageFieldTypes: the handler's own page shows a textarea, a
// select and a checkbox group again with what the visitor sent.
func TestHandlerPageFieldTypes(t *testing.T) {
	s := typesSchema(t)
	p, err := newPageRenderer(s)
	if err != nil {
		t.Fatal(err)
	}
	in := ParseForm(s, typesValues())
	in.Values["message"] = "short"
	var b strings.Builder
	if err := p.tmpl.Execute(&b, p.data("en", in, map[string]string{"message": CodeTooShort}, "")); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		`<textarea id="lead-form-message" name="message" rows="6" required minlength="10" maxlength="2000" aria-invalid="true"`,
		`>short</textarea>`, `en: at least 10`,
		`<option value="sales" selected>en Sales</option>`, `<option value="support">en Support</option>`,
		`name="channels" value="phone" checked> <label for="lead-form-channels-2">en Phone</label>`,
		`name="channels" value="chat"> <label`,
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("page lacks %s", want)
		}
	}
}
