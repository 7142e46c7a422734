package schema

import (
	"fmt"
	"path"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"sitegen/pkg/diag"
	"sitegen/pkg/yamlx"
)

// Decode decodes n as a record of type t; file names n's source in
// diagnostics. It returns every problem found, not just the first.
func (s *Schema) Decode(file string, t *Type, n *yaml.Node) (Record, diag.List) {
	d := decoder{schema: s, file: file}
	rec := d.record(yamlx.Resolve(n), t, "")
	return rec, d.errs
}

// DecodeParams decodes the params mapping of a page or section against t.
// Unlike a record, params hold only what the source gives (and defaults):
// templates test them with {{ with .Params.x }}.
func (s *Schema) DecodeParams(file string, t *Type, n *yaml.Node) (map[string]any, diag.List) {
	d := decoder{schema: s, file: file, sparse: true}
	rec := d.record(yamlx.Resolve(n), t, "params")
	return rec, d.errs
}

type decoder struct {
	schema *Schema
	file   string
	sparse bool // leave out absent fields that have no default
	errs   diag.List
}

func (d *decoder) fail(n *yaml.Node, format string, args ...any) {
	d.errs.Add(diag.New(yamlx.Pos(d.file, n), format, args...))
}

func where(field string) string {
	if field == "" {
		return ""
	}
	return "field " + strconv.Quote(field) + ": "
}

func (d *decoder) record(n *yaml.Node, t *Type, field string) Record {
	if n.Kind != yaml.MappingNode {
		d.fail(n, "%sexpected a %s (a mapping), got %s", where(field), t.Name, describe(n))
		return nil
	}
	rec := make(Record, len(t.Fields))
	for i := 0; i+1 < len(n.Content); i += 2 {
		key, val := n.Content[i], n.Content[i+1]
		f, ok := t.Field(key.Value)
		if !ok {
			names := make([]string, len(t.Fields))
			for j, f := range t.Fields {
				names[j] = f.Name
			}
			dg := diag.New(yamlx.Pos(d.file, key), "unknown field %q in %s", key.Value, t.Name)
			if s := yamlx.Closest(key.Value, names); s != "" {
				dg = dg.WithHint("did you mean %q?", s)
			} else {
				dg = dg.WithHint("known fields: %s", strings.Join(names, ", "))
			}
			d.errs.Add(dg)
			continue
		}
		if _, dup := rec[f.Name]; dup {
			d.fail(key, "field %q is given twice", f.Name)
			continue
		}
		before := len(d.errs)
		v := d.value(val, f)
		rec[f.Name] = v
		if f.Required && len(d.errs) == before && isEmpty(v) {
			d.fail(val, "field %q of %s must not be empty", f.Name, t.Name)
		}
	}
	for _, f := range t.Fields {
		if _, ok := rec[f.Name]; ok {
			continue
		}
		if f.Required {
			d.errs.Add(diag.New(yamlx.Pos(d.file, n), "%s is missing required field %q", t.Name, f.Name))
		}
		switch {
		case f.Default != nil:
			rec[f.Name] = f.Default
		case !d.sparse:
			rec[f.Name] = Zero(f)
		}
	}
	return rec
}

var (
	imageExts  = []string{".avif", ".gif", ".jpeg", ".jpg", ".png", ".svg", ".webp"}
	imageHint  = strings.Join(imageExts, ", ")
	scalarKind = map[Kind]bool{KindText: true, KindDate: true, KindEnum: true}
)

// value decodes n by the kind of f; f.Name names it in messages.
func (d *decoder) value(n *yaml.Node, f *Field) any {
	n = yamlx.Resolve(n)
	if n == nil || (n.Kind == yaml.ScalarNode && n.Tag == "!!null") {
		return Zero(f)
	}
	w := where(f.Name)
	switch f.Kind {
	case KindText, KindDate, KindEnum:
		if n.Kind != yaml.ScalarNode {
			d.fail(n, "%sexpected text, got %s", w, describe(n))
			return ""
		}
		switch {
		case f.Kind == KindDate && CheckDate(n.Value) != nil:
			d.fail(n, "%s%v", w, CheckDate(n.Value))
		case f.Kind == KindEnum && !contains(f.Values, n.Value):
			dg := diag.New(yamlx.Pos(d.file, n), "%s%q is not one of: %s", w, n.Value, strings.Join(f.Values, ", "))
			if c := yamlx.Closest(n.Value, f.Values); c != "" {
				dg = dg.WithHint("did you mean %q?", c)
			}
			d.errs.Add(dg)
		}
		return n.Value
	case KindMarkdown:
		var t Text
		d.node(n, w, &t)
		return t
	case KindLink:
		var l Link
		d.node(n, w, &l)
		return l
	case KindFile, KindImage:
		var fl File
		if d.node(n, w, &fl) && f.Kind == KindImage && fl.Path != "" && !contains(imageExts, strings.ToLower(path.Ext(fl.Path))) {
			d.fail(n, "%s%s is not an image (%s)", w, fl.Path, imageHint)
		}
		return fl
	case KindBool:
		b, err := strconv.ParseBool(n.Value)
		if n.Kind != yaml.ScalarNode || n.Tag != "!!bool" || err != nil {
			d.fail(n, "%sexpected true or false, got %s", w, describe(n))
		}
		return b
	case KindInteger:
		i, err := strconv.Atoi(n.Value)
		if n.Kind != yaml.ScalarNode || n.Tag != "!!int" || err != nil {
			d.fail(n, "%sexpected a whole number, got %s", w, describe(n))
		}
		return i
	case KindNumber:
		if n.Kind == yaml.ScalarNode && n.Tag == "!!int" {
			if i, err := strconv.Atoi(n.Value); err == nil {
				return i
			}
		}
		x, err := strconv.ParseFloat(n.Value, 64)
		if n.Kind != yaml.ScalarNode || (n.Tag != "!!int" && n.Tag != "!!float") || err != nil {
			d.fail(n, "%sexpected a number, got %s", w, describe(n))
			return 0
		}
		return x
	case KindRecord:
		t, _ := d.schema.Type(f.Type)
		return d.record(n, t, f.Name)
	case KindList:
		if n.Kind != yaml.SequenceNode {
			d.fail(n, "%sexpected a list, got %s", w, describe(n))
			return Zero(f)
		}
		item := *f.Of
		switch {
		case scalarKind[f.Of.Kind]:
			out := make([]string, len(n.Content))
			for i, c := range n.Content {
				item.Name = fmt.Sprintf("%s[%d]", f.Name, i)
				out[i], _ = d.value(c, &item).(string)
			}
			return out
		case f.Of.Kind == KindRecord:
			out := make([]Record, len(n.Content))
			for i, c := range n.Content {
				item.Name = fmt.Sprintf("%s[%d]", f.Name, i)
				out[i], _ = d.value(c, &item).(Record)
			}
			return out
		}
		out := make([]any, len(n.Content))
		for i, c := range n.Content {
			item.Name = fmt.Sprintf("%s[%d]", f.Name, i)
			out[i] = d.value(c, &item)
		}
		return out
	}
	d.fail(n, "%sunknown kind %q", w, f.Kind)
	return nil
}

// node decodes a self-decoding value, reporting its error; it reports
// whether the value decoded cleanly.
func (d *decoder) node(n *yaml.Node, w string, v yamlx.NodeDecoder) bool {
	if err := v.DecodeNode(d.file, n); err != nil {
		d.errs.Add(diag.New(yamlx.Pos(d.file, n), "%s%v", w, err))
		return false
	}
	return true
}

// Zero is the value of a field the source leaves out and that has no
// default: the zero value of its kind.
func Zero(f *Field) any {
	switch f.Kind {
	case KindMarkdown:
		return Text{}
	case KindLink:
		return Link{}
	case KindFile, KindImage:
		return File{}
	case KindBool:
		return false
	case KindNumber, KindInteger:
		return 0
	case KindRecord:
		return Record(nil)
	case KindList:
		switch {
		case f.Of == nil:
			return []any(nil)
		case scalarKind[f.Of.Kind]:
			return []string(nil)
		case f.Of.Kind == KindRecord:
			return []Record(nil)
		}
		return []any(nil)
	}
	return ""
}

func isEmpty(v any) bool {
	switch x := v.(type) {
	case string:
		return x == ""
	case Text:
		return x.IsEmpty()
	case Link:
		return x.IsEmpty()
	case File:
		return x.IsEmpty()
	case []string:
		return len(x) == 0
	case []Record:
		return len(x) == 0
	case []any:
		return len(x) == 0
	case Record:
		return x == nil
	}
	return false
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
