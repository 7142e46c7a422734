package forms

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"

	"golang.org/x/net/html"
)

// HasForm reports whether a page holds the schema's form (an element with
// the form's id).
func (s *Schema) HasForm(page []byte) bool { return bytes.Contains(page, []byte(`id="`+s.ID+`"`)) }

type markupInput struct {
	typ       string
	required  bool
	maxLength int
	value     string
}

// formElement returns the form element of a page (forms do not nest, so
// it ends at the first </form> after its start), or the whole page when it
// cannot be cut out: parsing the form alone costs a twentieth of the page.
func formElement(page []byte, id string) []byte {
	i := bytes.Index(page, []byte(`id="`+id+`"`))
	if i < 0 {
		return page
	}
	start := bytes.LastIndex(page[:i], []byte("<form"))
	if start < 0 || bytes.IndexByte(page[start:i], '>') >= 0 {
		return page // the id is not on the form's own tag
	}
	end := bytes.Index(page[start:], []byte("</form>"))
	if end < 0 {
		return page
	}
	return page[start : start+end+len("</form>")]
}

// CheckMarkup checks that the form a page renders posts to the schema's
// endpoint with exactly the schema's fields, types, limits and consents, so
// the markup and the handler cannot drift apart.
func (s *Schema) CheckMarkup(page []byte, lang string) error {
	doc, err := html.Parse(bytes.NewReader(formElement(page, s.ID)))
	if err != nil {
		return err
	}
	form := find(doc, func(n *html.Node) bool { return n.Data == "form" && attr(n, "id") == s.ID })
	if form == nil {
		return fmt.Errorf("no <form id=%q>", s.ID)
	}
	var errs []error
	bad := func(format string, a ...any) { errs = append(errs, fmt.Errorf(format, a...)) }
	if a := attr(form, "action"); a != s.Endpoint {
		bad("the form posts to %q, the schema's endpoint is %q", a, s.Endpoint)
	}
	if m := attr(form, "method"); m != "post" {
		bad("the form's method is %q, not post", m)
	}
	inputs := map[string]markupInput{}
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode && (n.Data == "input" || n.Data == "textarea" || n.Data == "select") {
			name := attr(n, "name")
			if name != "" {
				if _, dup := inputs[name]; dup {
					bad("input %q appears twice", name)
				}
				ml, _ := strconv.Atoi(attr(n, "maxlength"))
				typ := attr(n, "type")
				if n.Data != "input" {
					typ = n.Data
				}
				_, req := attrOK(n, "required")
				inputs[name] = markupInput{typ: typ, required: req, maxLength: ml, value: attr(n, "value")}
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(form)
	want := func(name, typ string) (markupInput, bool) {
		in, ok := inputs[name]
		delete(inputs, name)
		if !ok {
			bad("no input %q", name)
			return in, false
		}
		if in.typ != typ {
			bad("input %q has type %q, the schema says %q", name, in.typ, typ)
		}
		return in, true
	}
	if in, ok := want(FieldLang, "hidden"); ok && in.value != lang {
		bad("hidden input lang is %q on a %s page", in.value, lang)
	}
	want(FieldPage, "hidden")
	want(FieldKey, "hidden")
	want(s.Honeypot, "text")
	for _, f := range s.Fields {
		in, ok := want(f.Name, f.Type)
		if !ok {
			continue
		}
		if in.required != f.Required {
			bad("field %q: required=%t in the markup, %t in the schema", f.Name, in.required, f.Required)
		}
		if in.maxLength != f.MaxLength {
			bad("field %q: maxlength %d in the markup, %d in the schema", f.Name, in.maxLength, f.MaxLength)
		}
	}
	for _, c := range s.Consents {
		in, ok := want(c.Name, "checkbox")
		if ok && in.required != c.Required {
			bad("consent %q: required=%t in the markup, %t in the schema", c.Name, in.required, c.Required)
		}
	}
	for name := range inputs {
		bad("input %q is not in the schema", name)
	}
	return errors.Join(errs...)
}

func find(n *html.Node, match func(*html.Node) bool) *html.Node {
	if n.Type == html.ElementNode && match(n) {
		return n
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if m := find(c, match); m != nil {
			return m
		}
	}
	return nil
}

func attr(n *html.Node, key string) string {
	v, _ := attrOK(n, key)
	return v
}

func attrOK(n *html.Node, key string) (string, bool) {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val, true
		}
	}
	return "", false
}
