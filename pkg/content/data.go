package content

import (
	"reflect"
	"sort"
	"strings"

	"gopkg.in/yaml.v3"

	"sitegen/pkg/diag"
	"sitegen/pkg/yamlx"
)

// DataSet is one named, typed set of records: "<file>.<key>".
type DataSet struct {
	Name string // e.g. "sales.features"
	Type string // a record type name, e.g. "feature"
	// Value is a slice of pointers to records (for items) or one pointer (for item).
	Value any
	Pos   diag.Pos
}

// RecordTypes lists the record type names in order.
func RecordTypes() []string {
	names := make([]string, 0, len(recordTypes))
	for n := range recordTypes {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// ParseData parses one data file. base is the file name without extension.
func ParseData(file, base string, src []byte) ([]*DataSet, diag.List) {
	var errs diag.List
	var doc yaml.Node
	if err := yaml.Unmarshal(src, &doc); err != nil {
		errs.AddErr(diag.Pos{File: file}, yamlx.SyntaxError(file, err))
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
		set, e := parseSet(file, base+"."+key.Value, key, body)
		errs.Merge(e)
		if set != nil {
			sets = append(sets, set)
		}
	}
	return sets, errs
}

func parseSet(file, name string, key, body *yaml.Node) (*DataSet, diag.List) {
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
		errs.Add(diag.New(pos, "data set %q has no type", name).WithHint("one of: %s", strings.Join(RecordTypes(), ", ")))
		return nil, errs
	}
	newRecord, ok := recordTypes[typ.Value]
	if !ok {
		d := diag.New(yamlx.Pos(file, typ), "unknown record type %q in data set %q", typ.Value, name)
		errs.Add(d.WithHint("one of: %s", strings.Join(RecordTypes(), ", ")))
		return nil, errs
	}
	set := &DataSet{Name: name, Type: typ.Value, Pos: pos}
	switch {
	case items != nil && item != nil:
		errs.Add(diag.New(pos, "data set %q has both items and item", name))
	case item != nil:
		rec := newRecord()
		errs.Merge(yamlx.Decode(file, item, rec))
		set.Value = rec
	case items != nil:
		elem := reflect.TypeOf(newRecord())
		s := reflect.MakeSlice(reflect.SliceOf(elem), 0, len(items.Content))
		if items.Tag != "!!null" {
			if items.Kind != yaml.SequenceNode {
				errs.Add(diag.New(yamlx.Pos(file, items), "items of data set %q must be a list", name))
				return nil, errs
			}
			for _, n := range items.Content {
				rec := newRecord()
				errs.Merge(yamlx.Decode(file, n, rec))
				s = reflect.Append(s, reflect.ValueOf(rec))
			}
		}
		set.Value = s.Interface()
	default:
		errs.Add(diag.New(pos, "data set %q has neither items nor item", name))
	}
	return set, errs
}
