// Package schema reads the content types a site declares in schema.yaml and
// decodes YAML records against them. The engine knows field kinds (text,
// markdown, number, integer, bool, date, enum, list, record, link, file,
// image); the site knows what its records are. Every problem is a diagnostic
// at its file:line:col.
package schema

import (
	"errors"
	"fmt"
	"io/fs"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"sitegen/pkg/diag"
	"sitegen/pkg/yamlx"
)

// FileName is the schema file at the root of a site.
const FileName = "schema.yaml"

// Kind is the kind of a field's value.
type Kind string

// The field kinds.
const (
	KindText     Kind = "text"     // plain text: string
	KindMarkdown Kind = "markdown" // inline Markdown, links checked: Text
	KindNumber   Kind = "number"   // int for whole numbers, else float64
	KindInteger  Kind = "integer"  // int
	KindBool     Kind = "bool"     // bool
	KindDate     Kind = "date"     // YYYY-MM-DD or RFC 3339: string
	KindEnum     Kind = "enum"     // one of values: string
	KindList     Kind = "list"     // items of kind `of`: []string, []Record or []any
	KindRecord   Kind = "record"   // a nested record: Record
	KindLink     Kind = "link"     // a link target, resolved per locale: Link
	KindFile     Kind = "file"     // a static file that must exist: File
	KindImage    Kind = "image"    // a static image that must exist: File
)

// Kinds lists every kind in the order the documentation gives them.
var Kinds = []Kind{KindText, KindMarkdown, KindNumber, KindInteger, KindBool, KindDate, KindEnum, KindList, KindRecord, KindLink, KindFile, KindImage}

// Schema is the site's schema.yaml.
type Schema struct {
	File  string
	Types []*Type // in the order the file declares them
	// Page declares the params of a page's front matter; nil leaves them
	// free-form.
	Page *Type
	// Sections declares the params of sections by section type; a type
	// not listed has free-form params.
	Sections map[string]*Type
	byName   map[string]*Type
}

// Type is a record type.
type Type struct {
	Name        string
	Description string
	Fields      []*Field // in declaration order
	Pos         diag.Pos
}

// Field is one field of a record type (or the item spec of a list).
type Field struct {
	Name        string
	Kind        Kind
	Required    bool
	Description string
	Values      []string // enum
	Of          *Field   // list items
	Type        string   // record: the named type
	Default     any      // decoded by kind; nil when none
	Pos         diag.Pos

	defaultNode *yaml.Node
}

// paramTypes returns types followed by the page and section params types,
// the latter sorted by section type.
func (s *Schema) paramTypes(types []*Type) []*Type {
	out := append([]*Type{}, types...)
	if s.Page != nil {
		out = append(out, s.Page)
	}
	keys := make([]string, 0, len(s.Sections))
	for k := range s.Sections {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		out = append(out, s.Sections[k])
	}
	return out
}

// Type returns the type named name.
func (s *Schema) Type(name string) (*Type, bool) {
	if s == nil {
		return nil, false
	}
	t, ok := s.byName[name]
	return t, ok
}

// TypeNames lists the declared type names, sorted.
func (s *Schema) TypeNames() []string {
	if s == nil {
		return nil
	}
	names := make([]string, 0, len(s.Types))
	for _, t := range s.Types {
		names = append(names, t.Name)
	}
	sort.Strings(names)
	return names
}

// Field returns the field named name.
func (t *Type) Field(name string) (*Field, bool) {
	for _, f := range t.Fields {
		if f.Name == name {
			return f, true
		}
	}
	return nil, false
}

// Load reads schema.yaml from fsys. A site without one gets an empty schema:
// it may have pages but no data sets.
func Load(fsys fs.FS) (*Schema, error) {
	src, err := fs.ReadFile(fsys, FileName)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return Parse(FileName, nil)
		}
		return nil, diag.New(diag.Pos{File: FileName}, "cannot read: %v", err)
	}
	return Parse(FileName, src)
}

var nameRE = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_]*$`)

// Parse parses a schema file.
func Parse(file string, src []byte) (*Schema, error) {
	s := &Schema{File: file, byName: map[string]*Type{}, Sections: map[string]*Type{}}
	var errs diag.List
	var doc yaml.Node
	if err := yaml.Unmarshal(src, &doc); err != nil {
		errs.AddErr(diag.Pos{File: file}, yamlx.SyntaxError(file, src, err, 0))
		return nil, errs.Err()
	}
	if len(doc.Content) == 0 {
		return s, nil
	}
	root := doc.Content[0]
	if root.Kind != yaml.MappingNode {
		return nil, diag.New(yamlx.Pos(file, root), "the schema is a mapping with types").
			WithHint("types: {myType: {fields: {title: text}}}")
	}
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], root.Content[i+1]
		switch k.Value {
		case "types":
			s.parseTypes(&errs, v)
		case "page", "sections":
			s.parseParams(&errs, k, v)
		default:
			d := diag.New(yamlx.Pos(file, k), "unknown key %q in the schema", k.Value)
			if c := yamlx.Closest(k.Value, []string{"types", "page", "sections"}); c != "" {
				d = d.WithHint("did you mean %q?", c)
			}
			errs.Add(d)
		}
	}
	// Resolve record references and decode defaults once every type is known.
	for _, t := range s.paramTypes(s.Types) {
		for _, f := range t.Fields {
			s.check(&errs, t, f)
		}
	}
	if len(errs) > 0 {
		return nil, errs.Err()
	}
	return s, nil
}

func (s *Schema) parseTypes(errs *diag.List, n *yaml.Node) {
	if n.Kind != yaml.MappingNode {
		errs.Addf(yamlx.Pos(s.File, n), "types must be a mapping of type name to its fields")
		return
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		pos := yamlx.Pos(s.File, k)
		if !nameRE.MatchString(k.Value) {
			errs.Addf(pos, "type name %q may hold only letters, digits and _ and starts with a letter", k.Value)
			continue
		}
		if prev, dup := s.byName[k.Value]; dup {
			errs.Add(diag.New(pos, "type %q is already declared", k.Value).WithRelated(prev.Pos, "first declared at"))
			continue
		}
		t := s.parseType(errs, k, v, "type "+strconv.Quote(k.Value))
		if t == nil {
			continue
		}
		s.Types = append(s.Types, t)
		s.byName[t.Name] = t
	}
}

// parseType reads a type's description and fields; what names it in
// messages.
func (s *Schema) parseType(errs *diag.List, k, v *yaml.Node, what string) *Type {
	pos := yamlx.Pos(s.File, k)
	t := &Type{Name: k.Value, Pos: pos}
	if v.Kind != yaml.MappingNode {
		errs.Addf(yamlx.Pos(s.File, v), "%s must be a mapping with fields (and a description)", what)
		return nil
	}
	declared := 0
	for j := 0; j+1 < len(v.Content); j += 2 {
		tk, tv := v.Content[j], v.Content[j+1]
		switch tk.Value {
		case "description":
			t.Description = s.text(errs, tv)
		case "fields":
			declared = len(tv.Content)
			t.Fields = s.parseFields(errs, tv)
		default:
			d := diag.New(yamlx.Pos(s.File, tk), "unknown key %q in %s", tk.Value, what)
			if c := yamlx.Closest(tk.Value, []string{"description", "fields"}); c != "" {
				d = d.WithHint("did you mean %q?", c)
			} else {
				d = d.WithHint("a type has description and fields")
			}
			errs.Add(d)
		}
	}
	if declared == 0 {
		errs.Addf(pos, "%s declares no fields", what)
	}
	return t
}

// parseParams reads the params declarations of pages or of section types.
func (s *Schema) parseParams(errs *diag.List, k, v *yaml.Node) {
	switch k.Value {
	case "page":
		s.Page = s.parseType(errs, k, v, "page params")
		if s.Page != nil {
			s.Page.Name = "page params"
		}
	case "sections":
		if v.Kind != yaml.MappingNode {
			errs.Addf(yamlx.Pos(s.File, v), "sections must be a mapping of section type to its params")
			return
		}
		for i := 0; i+1 < len(v.Content); i += 2 {
			sk, sv := v.Content[i], v.Content[i+1]
			if _, dup := s.Sections[sk.Value]; dup {
				errs.Addf(yamlx.Pos(s.File, sk), "section type %q is declared twice", sk.Value)
				continue
			}
			if t := s.parseType(errs, sk, sv, "params of section "+strconv.Quote(sk.Value)); t != nil {
				t.Name = sk.Value + " section params"
				s.Sections[sk.Value] = t
			}
		}
	}
}

func (s *Schema) text(errs *diag.List, n *yaml.Node) string {
	if n.Kind != yaml.ScalarNode {
		errs.Addf(yamlx.Pos(s.File, n), "expected text, got %s", describe(n))
		return ""
	}
	return n.Value
}

func (s *Schema) parseFields(errs *diag.List, n *yaml.Node) []*Field {
	if n.Kind != yaml.MappingNode {
		errs.Addf(yamlx.Pos(s.File, n), "fields must be a mapping of field name to kind")
		return nil
	}
	var out []*Field
	seen := map[string]bool{}  // written here
	merged := map[string]int{} // taken from <<, by index in out; a field written here overrides
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if k.Tag == "!!merge" {
			// <<: *common takes the fields of an anchored mapping (or a
			// list of them), so shared fields are written once.
			for _, m := range mergeSources(v) {
				for _, f := range s.parseFields(errs, m) {
					if _, dup := merged[f.Name]; !dup && !seen[f.Name] {
						merged[f.Name] = len(out)
						out = append(out, f)
					}
				}
			}
			continue
		}
		if !nameRE.MatchString(k.Value) {
			errs.Addf(yamlx.Pos(s.File, k), "field name %q may hold only letters, digits and _ and starts with a letter", k.Value)
			continue
		}
		if seen[k.Value] {
			errs.Addf(yamlx.Pos(s.File, k), "field %q is declared twice", k.Value)
			continue
		}
		seen[k.Value] = true
		f := s.parseField(errs, v)
		if f == nil {
			continue
		}
		f.Name = k.Value
		if j, ok := merged[f.Name]; ok {
			out[j] = f
			continue
		}
		out = append(out, f)
	}
	return out
}

func mergeSources(v *yaml.Node) []*yaml.Node {
	v = yamlx.Resolve(v)
	if v.Kind == yaml.SequenceNode {
		var out []*yaml.Node
		for _, c := range v.Content {
			out = append(out, yamlx.Resolve(c))
		}
		return out
	}
	return []*yaml.Node{v}
}

var fieldKeys = []string{"kind", "required", "default", "description", "values", "of", "type"}

// parseField reads a field spec: a kind alone ("text") or a mapping.
func (s *Schema) parseField(errs *diag.List, n *yaml.Node) *Field {
	f := &Field{Pos: yamlx.Pos(s.File, n)}
	if n.Kind == yaml.ScalarNode {
		f.Kind = Kind(n.Value)
		if !s.kindOK(errs, n, f.Kind) {
			return nil
		}
		return f
	}
	if n.Kind != yaml.MappingNode {
		errs.Addf(f.Pos, "a field is a kind (text, markdown, ...) or a mapping with kind, got %s", describe(n))
		return nil
	}
	var kindNode *yaml.Node
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		switch k.Value {
		case "kind":
			kindNode = v
			f.Kind = Kind(s.text(errs, v))
		case "required":
			if v.Tag != "!!bool" {
				errs.Addf(yamlx.Pos(s.File, v), "required is true or false, got %s", describe(v))
			}
			f.Required = v.Value == "true"
		case "default":
			f.defaultNode = v
		case "description":
			f.Description = s.text(errs, v)
		case "values":
			if v.Kind != yaml.SequenceNode {
				errs.Addf(yamlx.Pos(s.File, v), "values must be a list, got %s", describe(v))
				continue
			}
			for _, x := range v.Content {
				f.Values = append(f.Values, s.text(errs, x))
			}
		case "of":
			f.Of = s.parseField(errs, v)
		case "type":
			f.Type = s.text(errs, v)
		default:
			d := diag.New(yamlx.Pos(s.File, k), "unknown key %q in a field", k.Value)
			if c := yamlx.Closest(k.Value, fieldKeys); c != "" {
				d = d.WithHint("did you mean %q?", c)
			} else {
				d = d.WithHint("a field has %s", strings.Join(fieldKeys, ", "))
			}
			errs.Add(d)
		}
	}
	if kindNode == nil {
		errs.Add(diag.New(f.Pos, "field has no kind").WithHint("one of: %s", kindList()))
		return nil
	}
	if !s.kindOK(errs, kindNode, f.Kind) {
		return nil
	}
	return f
}

func kindList() string {
	names := make([]string, len(Kinds))
	for i, k := range Kinds {
		names[i] = string(k)
	}
	return strings.Join(names, ", ")
}

func (s *Schema) kindOK(errs *diag.List, n *yaml.Node, k Kind) bool {
	for _, x := range Kinds {
		if x == k {
			return true
		}
	}
	d := diag.New(yamlx.Pos(s.File, n), "unknown field kind %q", string(k))
	if c := yamlx.Closest(string(k), strings.Split(kindList(), ", ")); c != "" {
		d = d.WithHint("did you mean %q?", c)
	} else {
		d = d.WithHint("one of: %s", kindList())
	}
	errs.Add(d)
	return false
}

// check verifies what needs the whole schema: record references, list item
// specs, enum values, and defaults (decoded with the field's own kind).
func (s *Schema) check(errs *diag.List, t *Type, f *Field) {
	what := fmt.Sprintf("field %q of %s", f.Name, t.Name)
	if f.Of != nil {
		f.Of.Name = f.Name
	}
	switch f.Kind {
	case KindList:
		if f.Of == nil {
			errs.Add(diag.New(f.Pos, "%s is a list without of", what).WithHint("say what its items are: of: text, or of: {kind: record, type: name}"))
			return
		}
		if f.Of.Kind == KindList {
			errs.Addf(f.Of.Pos, "%s: a list of lists is not supported; use a list of records", what)
			return
		}
		s.check(errs, t, f.Of)
	case KindRecord:
		if f.Type == "" {
			errs.Add(diag.New(f.Pos, "%s is a record without type", what).WithHint("type: the name of a type declared in this file"))
			return
		}
		if _, ok := s.byName[f.Type]; !ok {
			d := diag.New(f.Pos, "%s refers to unknown type %q", what, f.Type)
			if c := yamlx.Closest(f.Type, s.TypeNames()); c != "" {
				d = d.WithHint("did you mean %q?", c)
			}
			errs.Add(d)
			return
		}
	case KindEnum:
		if len(f.Values) == 0 {
			errs.Addf(f.Pos, "%s is an enum without values", what)
			return
		}
	}
	if f.Of != nil && f.Kind != KindList {
		errs.Addf(f.Pos, "%s: of applies to lists only", what)
	}
	if f.Type != "" && f.Kind != KindRecord {
		errs.Addf(f.Pos, "%s: type applies to records only", what)
	}
	if len(f.Values) > 0 && f.Kind != KindEnum {
		errs.Addf(f.Pos, "%s: values apply to enums only", what)
	}
	if f.defaultNode != nil {
		if f.Required {
			errs.Addf(yamlx.Pos(s.File, f.defaultNode), "%s is required and has a default; drop one", what)
			return
		}
		d := decoder{schema: s, file: s.File}
		f.Default = d.value(f.defaultNode, f)
		errs.Merge(d.errs)
	}
}
