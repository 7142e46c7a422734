// Package yamlx decodes yaml.v3 nodes into Go values strictly: unknown fields,
// wrong types and missing required fields (struct tag `sg:"required"`) become
// diagnostics at the node's file:line:col, all of them, not just the first.
package yamlx

import (
	"errors"
	"fmt"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"unicode"

	"gopkg.in/yaml.v3"

	"sitegen/pkg/diag"
)

// NodeDecoder is implemented by types that decode themselves from a node and
// want to remember where they came from (links, files, Markdown text).
type NodeDecoder interface {
	DecodeNode(file string, n *yaml.Node) error
}

// Pos returns the position of n in file.
func Pos(file string, n *yaml.Node) diag.Pos {
	if n == nil {
		return diag.Pos{File: file}
	}
	return diag.Pos{File: file, Line: n.Line, Col: n.Column}
}

// Field returns the value node of key in mapping node n, or nil.
func Field(n *yaml.Node, key string) *yaml.Node {
	n = resolve(n)
	if n == nil || n.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return n.Content[i+1]
		}
	}
	return nil
}

// Index returns item i of sequence node n, or n itself when there is none.
func Index(n *yaml.Node, i int) *yaml.Node {
	n = resolve(n)
	if n == nil || n.Kind != yaml.SequenceNode || i >= len(n.Content) {
		return n
	}
	return n.Content[i]
}

var lineRE = regexp.MustCompile(`^yaml: line (\d+): (.*)$`)

// SyntaxError turns a yaml.v3 parse error of src into a diagnostic, shifting
// its line by lineOffset lines (for YAML embedded after other text, like
// front matter). When the reported line opens a quoted string or a flow
// list or mapping that it does not close, the diagnostic points at that
// opening, with the column, and says what is left open.
func SyntaxError(file string, src []byte, err error, lineOffset int) error {
	msg := err.Error()
	if m := lineRE.FindStringSubmatch(msg); m != nil {
		line, _ := strconv.Atoi(m[1])
		if strings.HasPrefix(m[2], "did not find expected") {
			line++ // yaml.v3 reports these at its 0-based context mark
		}
		pos := diag.Pos{File: file, Line: line + lineOffset}
		// yaml.v3 gives the line where an unclosed string or flow
		// collection opens, except on the first line (its mark 0 reads as
		// "none"), where it gives the line of the problem instead.
		for _, n := range []int{line, 1} {
			if o, ok := unclosedOpening(sourceLine(src, n)); ok && o.explains(m[2]) {
				pos.Line, pos.Col = n+lineOffset, o.col
				return diag.New(pos, "YAML syntax error: %s (%s)", o.what(), m[2]).WithHint("%s", o.hint())
			}
		}
		return diag.New(pos, "YAML syntax error: %s", m[2])
	}
	var te *yaml.TypeError
	if errors.As(err, &te) {
		return diag.New(diag.Pos{File: file, Line: 1 + lineOffset}, "%s", strings.Join(te.Errors, "; "))
	}
	return diag.New(diag.Pos{File: file, Line: 1 + lineOffset}, "YAML syntax error: %s", strings.TrimPrefix(msg, "yaml: "))
}

// Resolve follows aliases and unwraps a document node.
func Resolve(n *yaml.Node) *yaml.Node { return resolve(n) }

func resolve(n *yaml.Node) *yaml.Node {
	for n != nil && n.Kind == yaml.AliasNode {
		n = n.Alias
	}
	if n != nil && n.Kind == yaml.DocumentNode && len(n.Content) == 1 {
		return resolve(n.Content[0])
	}
	return n
}

// Decode decodes n into v (a pointer) and returns every problem found.
func Decode(file string, n *yaml.Node, v any) diag.List {
	d := decoder{file: file}
	d.value(resolve(n), reflect.ValueOf(v).Elem(), "")
	return d.errs
}

type decoder struct {
	file string
	errs diag.List
	// Alias expansion is bounded: an anchor used many times inside anchors
	// used many times ("billion laughs") or inside itself would otherwise
	// take exponential time or never end.
	aliasDepth int // aliases being expanded, innermost last
	expanded   int // values visited inside alias expansions
	tooMany    bool
}

const (
	maxAliasDepth = 16
	maxExpanded   = 100_000
)

var nodeDecoderType = reflect.TypeOf((*NodeDecoder)(nil)).Elem()

func (d *decoder) fail(n *yaml.Node, format string, args ...any) {
	d.errs.Add(diag.New(Pos(d.file, n), format, args...))
}

func kindName(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	}
	if n.Tag == "!!null" {
		return "nothing"
	}
	return fmt.Sprintf("%q", n.Value)
}

func where(field string) string {
	if field == "" {
		return ""
	}
	return "field " + strconv.Quote(field) + ": "
}

func (d *decoder) value(n *yaml.Node, v reflect.Value, field string) {
	if n != nil && n.Kind == yaml.AliasNode {
		if d.aliasDepth >= maxAliasDepth || d.expanded >= maxExpanded {
			if !d.tooMany {
				d.tooMany = true
				d.fail(n, "%saliases (*name) nest or repeat too much to expand", where(field))
			}
			return
		}
		d.aliasDepth++
		defer func() { d.aliasDepth-- }()
	}
	if d.aliasDepth > 0 {
		d.expanded++
		if d.expanded > maxExpanded {
			return
		}
	}
	n = resolve(n)
	if n == nil {
		return
	}
	if v.CanAddr() && v.Addr().Type().Implements(nodeDecoderType) {
		if err := v.Addr().Interface().(NodeDecoder).DecodeNode(d.file, n); err != nil {
			d.errs.AddErr(Pos(d.file, n), fmt.Errorf("%s%w", where(field), err))
		}
		return
	}
	switch v.Kind() {
	case reflect.Pointer:
		if n.Tag == "!!null" {
			return
		}
		v.Set(reflect.New(v.Type().Elem()))
		d.value(n, v.Elem(), field)
	case reflect.Struct:
		d.structure(n, v, field)
	case reflect.Slice:
		d.list(n, v, field)
	case reflect.Map:
		d.mapping(n, v, field)
	case reflect.Interface:
		var x any
		if err := n.Decode(&x); err != nil {
			d.fail(n, "%s%v", where(field), err)
			return
		}
		if x != nil {
			v.Set(reflect.ValueOf(normalize(x)))
		}
	case reflect.String:
		if n.Kind != yaml.ScalarNode {
			d.fail(n, "%sexpected text, got %s", where(field), kindName(n))
			return
		}
		if n.Tag != "!!null" {
			v.SetString(n.Value)
		}
	case reflect.Bool:
		b, err := strconv.ParseBool(n.Value)
		if n.Kind != yaml.ScalarNode || n.Tag != "!!bool" || err != nil {
			d.fail(n, "%sexpected true or false, got %s", where(field), kindName(n))
			return
		}
		v.SetBool(b)
	case reflect.Int, reflect.Int64, reflect.Int32:
		i, err := strconv.ParseInt(n.Value, 10, 64)
		if n.Kind != yaml.ScalarNode || n.Tag != "!!int" || err != nil {
			d.fail(n, "%sexpected a whole number, got %s", where(field), kindName(n))
			return
		}
		v.SetInt(i)
	case reflect.Float64, reflect.Float32:
		f, err := strconv.ParseFloat(n.Value, 64)
		if n.Kind != yaml.ScalarNode || (n.Tag != "!!int" && n.Tag != "!!float") || err != nil {
			d.fail(n, "%sexpected a number, got %s", where(field), kindName(n))
			return
		}
		v.SetFloat(f)
	default:
		d.fail(n, "%scannot decode into %s", where(field), v.Type())
	}
}

// list decodes a sequence into the slice v (null leaves it nil).
func (d *decoder) list(n *yaml.Node, v reflect.Value, field string) {
	if n.Tag == "!!null" {
		return
	}
	if n.Kind != yaml.SequenceNode {
		d.fail(n, "%sexpected a list, got %s", where(field), kindName(n))
		return
	}
	s := reflect.MakeSlice(v.Type(), len(n.Content), len(n.Content))
	for i, item := range n.Content {
		d.value(item, s.Index(i), fmt.Sprintf("%s[%d]", field, i))
	}
	v.Set(s)
}

// mapping decodes a mapping into the map v (null leaves it nil).
func (d *decoder) mapping(n *yaml.Node, v reflect.Value, field string) {
	if n.Tag == "!!null" {
		return
	}
	if n.Kind != yaml.MappingNode {
		d.fail(n, "%sexpected a mapping, got %s", where(field), kindName(n))
		return
	}
	m := reflect.MakeMapWithSize(v.Type(), len(n.Content)/2)
	for i := 0; i+1 < len(n.Content); i += 2 {
		k := reflect.New(v.Type().Key()).Elem()
		d.value(n.Content[i], k, field)
		e := reflect.New(v.Type().Elem()).Elem()
		d.value(n.Content[i+1], e, field+"."+n.Content[i].Value)
		m.SetMapIndex(k, e)
	}
	v.Set(m)
}

// normalize turns map[string]any trees decoded by yaml.v3 into ones that
// templates and encoding/json handle (yaml.v3 already uses string keys for
// plain mappings; other key types are stringified).
func normalize(x any) any {
	switch t := x.(type) {
	case map[string]any:
		for k, v := range t {
			t[k] = normalize(v)
		}
		return t
	case map[any]any:
		m := make(map[string]any, len(t))
		for k, v := range t {
			m[fmt.Sprint(k)] = normalize(v)
		}
		return m
	case []any:
		for i, v := range t {
			t[i] = normalize(v)
		}
		return t
	}
	return x
}

type fieldInfo struct {
	index    int
	name     string
	required bool
}

// fieldsOf lists the fields of struct type t a mapping may set. They are
// worked out once per type (like encoding/json's field cache: a memo of a
// pure function of the type, never changed once stored); callers only read
// them.
func fieldsOf(t reflect.Type) []fieldInfo {
	if f, ok := fieldCache.Load(t); ok {
		return f.([]fieldInfo)
	}
	f, _ := fieldCache.LoadOrStore(t, structFields(t))
	return f.([]fieldInfo)
}

var fieldCache sync.Map // reflect.Type → []fieldInfo

func structFields(t reflect.Type) []fieldInfo {
	var out []fieldInfo
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get("yaml"), ",")
		if name == "-" {
			continue
		}
		if name == "" {
			name = strings.ToLower(f.Name)
		}
		out = append(out, fieldInfo{index: i, name: name, required: f.Tag.Get("sg") == "required"})
	}
	return out
}

// TypeName is how a record type is named in messages: lowerCamel Go name.
func TypeName(t reflect.Type) string {
	name := t.Name()
	if name == "" {
		return "record"
	}
	r := []rune(name)
	r[0] = unicode.ToLower(r[0])
	return string(r)
}

func (d *decoder) structure(n *yaml.Node, v reflect.Value, field string) {
	t := v.Type()
	if n.Kind != yaml.MappingNode {
		d.fail(n, "%sexpected a %s (a mapping), got %s", where(field), TypeName(t), kindName(n))
		return
	}
	fields := fieldsOf(t)
	seen := map[string]bool{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		key, val := n.Content[i], n.Content[i+1]
		var fi *fieldInfo
		for j := range fields {
			if fields[j].name == key.Value {
				fi = &fields[j]
				break
			}
		}
		if fi == nil {
			names := make([]string, len(fields))
			for j, f := range fields {
				names[j] = f.name
			}
			dg := diag.New(Pos(d.file, key), "unknown field %q in %s", key.Value, TypeName(t))
			if s := closest(key.Value, names); s != "" {
				dg = dg.WithHint("did you mean %q?", s)
			} else {
				dg = dg.WithHint("known fields: %s", strings.Join(names, ", "))
			}
			d.errs.Add(dg)
			continue
		}
		if seen[fi.name] {
			d.fail(key, "field %q is given twice", fi.name)
			continue
		}
		seen[fi.name] = true
		before := len(d.errs)
		d.value(val, v.Field(fi.index), fi.name)
		if fi.required && len(d.errs) == before && isEmpty(v.Field(fi.index)) {
			d.fail(val, "field %q of %s must not be empty", fi.name, TypeName(t))
		}
	}
	for _, f := range fields {
		if f.required && !seen[f.name] {
			d.errs.Add(diag.New(Pos(d.file, n), "%s is missing required field %q", TypeName(t), f.name))
		}
	}
}

// Emptier lets NodeDecoder types say whether they hold a value.
type Emptier interface{ IsEmpty() bool }

func isEmpty(v reflect.Value) bool {
	if v.CanAddr() {
		if e, ok := v.Addr().Interface().(Emptier); ok {
			return e.IsEmpty()
		}
	}
	switch v.Kind() {
	case reflect.String, reflect.Slice, reflect.Map:
		return v.Len() == 0
	}
	return false
}

// Closest returns the candidate within edit distance 2 of s, if any: the
// "did you mean" of every diagnostic.
func Closest(s string, candidates []string) string { return closest(s, candidates) }

// Distance is the edit distance (Levenshtein) of a and b, ignoring case.
func Distance(a, b string) int { return distance(strings.ToLower(a), strings.ToLower(b)) }

func closest(s string, candidates []string) string {
	best, bestD := "", 3
	for _, c := range candidates {
		if d := distance(strings.ToLower(s), strings.ToLower(c)); d < bestD {
			best, bestD = c, d
		}
	}
	return best
}

func distance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
