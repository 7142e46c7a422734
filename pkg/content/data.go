package content

import (
	"strings"

	"gopkg.in/yaml.v3"

	"sitegen/pkg/diag"
	"sitegen/pkg/schema"
	"sitegen/pkg/yamlx"
)

// DataSet is one named, typed set of records: "<file>.<key>".
type DataSet struct {
	Name string // e.g. "sales.features"
	Type string // a record type declared in the site's schema, e.g. "feature"
	// Value is a []Record (for items) or one Record (for item).
	Value any
	Pos   diag.Pos
}

// ParseData parses one data file against the site's schema. base is the file
// name without extension.
func ParseData(sch *schema.Schema, file, base string, src []byte) ([]*DataSet, diag.List) {
	var errs diag.List
	var doc yaml.Node
	if err := yaml.Unmarshal(src, &doc); err != nil {
		errs.AddErr(diag.Pos{File: file}, yamlx.SyntaxError(file, src, err, 0))
		return nil, errs
	}
	if len(doc.Content) == 0 {
		return nil, nil
	}
	root := doc.Content[0]
	if root.Kind != yaml.MappingNode {
		errs.Addf(yamlx.Pos(file, root), "a data file is a mapping of named sets, each with type and items (or item)")
		return nil, errs
	}
	var sets []*DataSet
	for i := 0; i+1 < len(root.Content); i += 2 {
		key, body := root.Content[i], root.Content[i+1]
		set, e := parseSet(sch, file, base+"."+key.Value, key, body)
		errs.Merge(e)
		if set != nil {
			sets = append(sets, set)
		}
	}
	return sets, errs
}

func parseSet(sch *schema.Schema, file, name string, key, body *yaml.Node) (*DataSet, diag.List) {
	var errs diag.List
	pos := yamlx.Pos(file, key)
	if body.Kind != yaml.MappingNode {
		errs.Add(diag.New(yamlx.Pos(file, body), "data set %q must be a mapping with type and items (or item)", name))
		return nil, errs
	}
	var typ, items, item *yaml.Node
	for i := 0; i+1 < len(body.Content); i += 2 {
		k, v := body.Content[i], body.Content[i+1]
		switch k.Value {
		case "type":
			typ = v
		case "items":
			items = v
		case "item":
			item = v
		default:
			errs.Add(diag.New(yamlx.Pos(file, k), "unknown key %q in data set %q", k.Value, name).WithHint("a set has type and items (or item)"))
		}
	}
	if typ == nil {
		errs.Add(typeHint(sch, diag.New(pos, "data set %q has no type", name)))
		return nil, errs
	}
	t, ok := sch.Type(typ.Value)
	if !ok {
		d := diag.New(yamlx.Pos(file, typ), "unknown record type %q in data set %q", typ.Value, name)
		if c := yamlx.Closest(typ.Value, sch.TypeNames()); c != "" {
			d = d.WithHint("did you mean %q?", c)
			errs.Add(d)
		} else {
			errs.Add(typeHint(sch, d))
		}
		return nil, errs
	}
	set := &DataSet{Name: name, Type: typ.Value, Pos: pos}
	switch {
	case items != nil && item != nil:
		errs.Add(diag.New(pos, "data set %q has both items and item", name))
	case item != nil:
		rec, e := sch.Decode(file, t, item)
		errs.Merge(e)
		set.Value = rec
	case items != nil:
		recs := make([]Record, 0, len(items.Content))
		if items.Tag != "!!null" {
			if items.Kind != yaml.SequenceNode {
				errs.Add(diag.New(yamlx.Pos(file, items), "items of data set %q must be a list", name))
				return nil, errs
			}
			for _, n := range items.Content {
				rec, e := sch.Decode(file, t, n)
				errs.Merge(e)
				recs = append(recs, rec)
			}
		}
		set.Value = recs
	default:
		errs.Add(diag.New(pos, "data set %q has neither items nor item", name))
	}
	return set, errs
}

func typeHint(sch *schema.Schema, d diag.Diagnostic) diag.Diagnostic {
	names := sch.TypeNames()
	if len(names) == 0 {
		return d.WithHint("the site declares no record types; declare them in %s", schema.FileName)
	}
	return d.WithHint("one of: %s (declared in %s)", strings.Join(names, ", "), schema.FileName)
}
