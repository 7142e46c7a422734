package forms

import "testing"

// TestFormElement: CheckMarkup parses the form element alone when the id is
// on a <form> tag, and the whole page otherwise.
func TestFormElement(t *testing.T) {
	const FormID = "lead-form"
	form := `<form id="` + FormID + `" action="/api/demo" method="post"><input name="a"><textarea name="b"></textarea></form>`
	for _, c := range []struct{ name, page, want string }{
		{"form in a page", `<html><body><main><p>x</p>` + form + `<p>after</p><form id="other"></form></main></body></html>`, form},
		{"id after other attributes", `<div><form class="f" id="` + FormID + `" method="post"></form></div>`, `<form class="f" id="` + FormID + `" method="post"></form>`},
		{"id on another element", `<form action="/x"><div id="` + FormID + `"></div></form>`, `<form action="/x"><div id="` + FormID + `"></div></form>`},
		{"no closing tag", `<p><form id="` + FormID + `">`, `<p><form id="` + FormID + `">`},
		{"no form", `<p>none</p>`, `<p>none</p>`},
	} {
		if got := string(formElement([]byte(c.page), FormID)); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}
