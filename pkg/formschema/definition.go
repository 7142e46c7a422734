package formschema

import (
	"fmt"
	"strings"

	"sitegen/pkg/content"
)

// The form handler needs a form of a known shape, while the site declares
// its record types (schema.yaml). definitionOf reads the shape it needs
// from the site's form record and says precisely what is missing, so a site
// whose form type lacks a field the handler relies on fails at build time.
//
// The form record (type of the data set forms.<name>) has: title, submit,
// clause (markdown) and clauseVersion (text); fields, a list of records
// with name, label, type (text), required (bool) and maxLength (integer);
// consents, a list of records with name, text (markdown), version (text)
// and required (bool).

type definition struct {
	Title, Submit, ClauseVersion string
	Clause                       content.Text
	Fields                       []fieldDef
	Consents                     []consentDef
}

type fieldDef struct {
	Name, Label, Type    string
	Required             bool
	MinLength, MaxLength int
	Options              []optionDef
}

// optionDef is one option of a select or checkboxes field: the value sent
// and its label in the locale.
type optionDef struct{ Value, Label string }

type consentDef struct {
	Name, Version string
	Text          content.Text
	Required      bool
}

// shapeError collects what the record lacks.
type shapeError []string

func (e shapeError) Error() string {
	return "the form's record type must declare " + strings.Join(e, "; ") + " (schema.yaml)"
}

type reader struct {
	where   string
	missing *shapeError
}

func (r reader) get(rec content.Record, field, kind string) any {
	v, ok := rec[field]
	if !ok {
		*r.missing = append(*r.missing, fmt.Sprintf("%s%s (%s)", r.where, field, kind))
	}
	return v
}

func (r reader) text(rec content.Record, field string) string {
	s, ok := r.get(rec, field, "text").(string)
	if !ok && rec[field] != nil {
		*r.missing = append(*r.missing, fmt.Sprintf("%s%s as text", r.where, field))
	}
	return s
}

func (r reader) markdown(rec content.Record, field string) content.Text {
	t, ok := r.get(rec, field, "markdown").(content.Text)
	if !ok && rec[field] != nil {
		*r.missing = append(*r.missing, fmt.Sprintf("%s%s as markdown", r.where, field))
	}
	return t
}

func (r reader) boolean(rec content.Record, field string) bool {
	b, ok := r.get(rec, field, "bool").(bool)
	if !ok && rec[field] != nil {
		*r.missing = append(*r.missing, fmt.Sprintf("%s%s as bool", r.where, field))
	}
	return b
}

func (r reader) integer(rec content.Record, field string) int {
	n, ok := r.get(rec, field, "integer").(int)
	if !ok && rec[field] != nil {
		*r.missing = append(*r.missing, fmt.Sprintf("%s%s as integer", r.where, field))
	}
	return n
}

// optional reads a field a form record may leave out (its schema need not
// declare it): minLength, options.
func (r reader) optional(rec content.Record, field string) (any, bool) {
	v, ok := rec[field]
	return v, ok && v != nil
}

func (r reader) records(rec content.Record, field string) []content.Record {
	l, ok := r.get(rec, field, "list of records").([]content.Record)
	if !ok && rec[field] != nil {
		*r.missing = append(*r.missing, fmt.Sprintf("%s%s as a list of records", r.where, field))
	}
	return l
}

// definitionOf reads a form definition from the site's form record.
func definitionOf(rec content.Record) (*definition, error) {
	var missing shapeError
	r := reader{missing: &missing}
	d := &definition{
		Title: r.text(rec, "title"), Submit: r.text(rec, "submit"),
		Clause: r.markdown(rec, "clause"), ClauseVersion: r.text(rec, "clauseVersion"),
	}
	fr := reader{where: "fields[].", missing: &missing}
	fields := r.records(rec, "fields")
	for _, f := range fields {
		fd := fieldDef{Name: fr.text(f, "name"), Label: fr.text(f, "label"), Type: fr.text(f, "type"),
			Required: fr.boolean(f, "required"), MaxLength: fr.integer(f, "maxLength")}
		if v, ok := fr.optional(f, "minLength"); ok {
			n, isInt := v.(int)
			if !isInt {
				missing = append(missing, "fields[].minLength as integer")
			}
			fd.MinLength = n
		}
		if v, ok := fr.optional(f, "options"); ok {
			l, isList := v.([]content.Record)
			if !isList {
				missing = append(missing, "fields[].options as a list of records (value, label)")
			}
			or := reader{where: "fields[].options[].", missing: &missing}
			for _, o := range l {
				fd.Options = append(fd.Options, optionDef{Value: or.text(o, "value"), Label: or.text(o, "label")})
			}
		}
		d.Fields = append(d.Fields, fd)
	}
	cr := reader{where: "consents[].", missing: &missing}
	for _, c := range r.records(rec, "consents") {
		d.Consents = append(d.Consents, consentDef{Name: cr.text(c, "name"), Text: cr.markdown(c, "text"),
			Version: cr.text(c, "version"), Required: cr.boolean(c, "required")})
	}
	if len(missing) > 0 {
		return nil, dedupeShape(missing)
	}
	return d, nil
}

func dedupeShape(in shapeError) shapeError {
	seen := map[string]bool{}
	var out shapeError
	for _, s := range in {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}
