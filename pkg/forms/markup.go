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
	c := markupCheck{inputs: map[string]markupInput{}}
	if a := attr(form, "action"); a != s.Endpoint {
		c.bad("the form posts to %q, the schema's endpoint is %q", a, s.Endpoint)
	}
	if m := attr(form, "method"); m != "post" {
		c.bad("the form's method is %q, not post", m)
	}
	group := map[string]bool{} // names of the checkboxes fields
	for _, f := range s.Fields {
		group[f.Name] = f.Type == TypeCheckboxes
	}
	c.collect(form, group)
	if in, ok := c.want(FieldLang, "hidden"); ok && in.value != lang {
		c.bad("hidden input lang is %q on a %s page", in.value, lang)
	}
	c.want(FieldPage, "hidden")
	c.want(FieldKey, "hidden")
	c.want(s.Honeypot, "text")
	for _, f := range s.Fields {
		if in, ok := c.want(f.Name, f.Type); ok {
			c.field(f, in)
		}
	}
	for _, cs := range s.Consents {
		in, ok := c.want(cs.Name, "checkbox")
		if ok && in.required != cs.Required {
			c.bad("consent %q: required=%t in the markup, %t in the schema", cs.Name, in.required, cs.Required)
		}
	}
	for name := range c.inputs {
		c.bad("input %q is not in the schema", name)
	}
	return errors.Join(c.errs...)
}

// markupCheck holds the inputs of a form's markup not yet matched to the
// schema, and the problems found.
type markupCheck struct {
	inputs map[string]markupInput
	errs   []error
}

func (c *markupCheck) bad(format string, a ...any) { c.errs = append(c.errs, fmt.Errorf(format, a...)) }

// collect reads the inputs, text areas and selects below n; the boxes of a
// checkbox group (group[name]) become one input of type checkboxes.
func (c *markupCheck) collect(n *html.Node, group map[string]bool) {
	if n.Type == html.ElementNode && (n.Data == "input" || n.Data == "textarea" || n.Data == "select") {
		if name := attr(n, "name"); name != "" {
			c.add(name, readInput(n), group[name])
		}
	}
	for ch := n.FirstChild; ch != nil; ch = ch.NextSibling {
		c.collect(ch, group)
	}
}

// readInput is what the markup of one input element declares.
func readInput(n *html.Node) markupInput {
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
	return in
}

func (c *markupCheck) add(name string, in markupInput, inGroup bool) {
	prev, dup := c.inputs[name]
	switch {
	case dup && inGroup && in.typ == "checkbox" && prev.typ == "checkboxes":
		prev.options = append(prev.options, in.value)
		prev.required = prev.required || in.required
		c.inputs[name] = prev
	case dup:
		c.bad("input %q appears twice", name)
	case inGroup && in.typ == "checkbox":
		c.inputs[name] = markupInput{typ: "checkboxes", required: in.required, options: []string{in.value}}
	default:
		c.inputs[name] = in
	}
}

// want takes the input name out of the markup's, checking its type.
func (c *markupCheck) want(name, typ string) (markupInput, bool) {
	in, ok := c.inputs[name]
	delete(c.inputs, name)
	if !ok {
		c.bad("no input %q", name)
		return in, false
	}
	if in.typ != typ {
		c.bad("input %q has type %q, the schema says %q", name, in.typ, typ)
	}
	return in, true
}

// field checks an input's attributes against its field in the schema.
func (c *markupCheck) field(f Field, in markupInput) {
	if HasOptions(f.Type) {
		if !slices.Equal(in.options, f.Options) {
			c.bad("field %q: options %q in the markup, %q in the schema", f.Name, in.options, f.Options)
		}
		// A required attribute on a box of a group would demand that
		// very box: the handler checks "at least one" itself.
		if f.Type == TypeCheckboxes && in.required {
			c.bad("field %q: a checkbox of the group is required; leave required off (the handler checks that at least one is ticked)", f.Name)
		}
		if f.Type == TypeSelect && in.required != f.Required {
			c.bad("field %q: required=%t in the markup, %t in the schema", f.Name, in.required, f.Required)
		}
		return
	}
	if in.required != f.Required {
		c.bad("field %q: required=%t in the markup, %t in the schema", f.Name, in.required, f.Required)
	}
	if in.maxLength != f.MaxLength {
		c.bad("field %q: maxlength %d in the markup, %d in the schema", f.Name, in.maxLength, f.MaxLength)
	}
	if in.minLength != f.MinLength {
		c.bad("field %q: minlength %d in the markup, %d in the schema", f.Name, in.minLength, f.MinLength)
	}
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
