package formschema

import (
	"strings"
	"testing"

	"sitegen/pkg/forms"
)

func testSchema(name, id, endpoint string, fields ...string) *forms.Schema {
	s := &forms.Schema{Form: name, ID: id, Endpoint: endpoint, Honeypot: "website"}
	for _, f := range fields {
		s.Fields = append(s.Fields, forms.Field{Name: f, Type: "text", Required: true, MaxLength: 40})
	}
	return s
}

func formMarkup(id, endpoint string, fields ...string) string {
	var b strings.Builder
	b.WriteString(`<form id="` + id + `" method="post" action="` + endpoint + `">`)
	b.WriteString(`<input type="hidden" name="lang" value="de"><input type="hidden" name="page" value="/"><input type="hidden" name="idempotencyKey" value="k">`)
	b.WriteString(`<input type="text" name="website">`)
	for _, f := range fields {
		b.WriteString(`<input type="text" name="` + f + `" required maxlength="40">`)
	}
	return b.String() + `</form>`
}

// TestSetChecksEachFormOnAPage: a page is checked against the schema of
// each form it holds, found by the form's own element id, and an error
// names that form's schema file.
func TestSetChecksEachFormOnAPage(t *testing.T) {
	set := Set{testSchema("contact", "contact-form", "/api/contact", "name"), testSchema("newsletter", "signup", "/api/news", "email")}
	good := formMarkup("contact-form", "/api/contact", "name") + formMarkup("signup", "/api/news", "email")
	if err := set.CheckPage([]byte(good), "de"); err != nil {
		t.Errorf("matching forms: %v", err)
	}
	if !set.HasForm([]byte(formMarkup("signup", "/x"))) || set.HasForm([]byte(`<form id="other"></form>`)) {
		t.Error("HasForm does not go by the forms' ids")
	}
	bad := formMarkup("contact-form", "/api/contact", "name") + formMarkup("signup", "/api/news", "email", "city")
	err := set.CheckPage([]byte(bad), "de")
	if err == nil || !strings.Contains(err.Error(), forms.SchemaFile("newsletter")) || !strings.Contains(err.Error(), `"city"`) ||
		strings.Contains(err.Error(), forms.SchemaFile("contact")) {
		t.Errorf("a page whose second form has an extra field: %v", err)
	}
	files, err := Set{}.Files()
	if err != nil || len(files) != 0 {
		t.Errorf("no forms: %v %v", files, err)
	}
	if d, _ := (Set{}).Digest(); d != "" {
		t.Errorf("digest of no forms %q", d)
	}
}
