package forms

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/net/html"
)

// HasForm reports whether a page holds the schema's form (an element with
// the form's id).
func (s *Schema) HasForm(page []byte) bool { return bytes.Contains(page, []byte(`id="`+s.ID+`"`)) }

type markupInput struct {
	typ                  string
	required             bool
	minLength, maxLength int
	value                string
	options              []string // a select's option values (the empty placeholder left out); a checkbox group's values
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
	group := map[string]bool{} // names of the checkboxes fields
	for _, f := range s.Fields {
		group[f.Name] = f.Type == TypeCheckboxes
	}
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode && (n.Data == "input" || n.Data == "textarea" || n.Data == "select") {
			name := attr(n, "name")
			if name != "" {
				ml, _ := strconv.Atoi(attr(n, "maxlength"))
				mn, _ := strconv.Atoi(attr(n, "minlength"))
				typ := attr(n, "type")
				if n.Data != "input" {
					typ = n.Data
				}
				_, req := attrOK(n, "required")
				in := markupInput{typ: typ, required: req, minLength: mn, maxLength: ml, value: attr(n, "value")}
				if n.Data == "select" {
					for _, o := range findAll(n, "option") {
						if v, ok := attrOK(o, "value"); !ok || v != "" {
							in.options = append(in.options, optionValue(o))
						}
					}
				}
				prev, dup := inputs[name]
				switch {
				case dup && group[name] && typ == "checkbox" && prev.typ == "checkboxes":
					prev.options = append(prev.options, in.value)
					prev.required = prev.required || req
					inputs[name] = prev
				case dup:
					bad("input %q appears twice", name)
				case group[name] && typ == "checkbox":
					inputs[name] = markupInput{typ: "checkboxes", required: req, options: []string{in.value}}
				default:
					inputs[name] = in
				}
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
		if HasOptions(f.Type) {
			if !slices.Equal(in.options, f.Options) {
				bad("field %q: options %q in the markup, %q in the schema", f.Name, in.options, f.Options)
			}
			// A required attribute on a box of a group would demand that
			// very box: the handler checks "at least one" itself.
			if f.Type == TypeCheckboxes && in.required {
				bad("field %q: a checkbox of the group is required; leave required off (the handler checks that at least one is ticked)", f.Name)
			}
			if f.Type == TypeSelect && in.required != f.Required {
				bad("field %q: required=%t in the markup, %t in the schema", f.Name, in.required, f.Required)
			}
			continue
		}
		if in.required != f.Required {
			bad("field %q: required=%t in the markup, %t in the schema", f.Name, in.required, f.Required)
		}
		if in.maxLength != f.MaxLength {
			bad("field %q: maxlength %d in the markup, %d in the schema", f.Name, in.maxLength, f.MaxLength)
		}
		if in.minLength != f.MinLength {
			bad("field %q: minlength %d in the markup, %d in the schema", f.Name, in.minLength, f.MinLength)
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

// findAll returns the elements named tag below n, in document order.
func findAll(n *html.Node, tag string) []*html.Node {
	var out []*html.Node
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.ElementNode && c.Data == tag {
			out = append(out, c)
		}
		out = append(out, findAll(c, tag)...)
	}
	return out
}

// optionValue is what an <option> sends: its value attribute, else its
// text.
func optionValue(o *html.Node) string {
	if v, ok := attrOK(o, "value"); ok {
		return v
	}
	var b strings.Builder
	for c := o.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.TextNode {
			b.WriteString(c.Data)
		}
	}
	return strings.TrimSpace(b.String())
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
