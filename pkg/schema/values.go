package schema

import (
	"encoding/json"
	"fmt"
	"strings"

	"gopkg.in/yaml.v3"

	"sitegen/pkg/diag"
)

// Record is one decoded record: every field its type declares, by the
// field's name as written in YAML (templates read {{ .title }}). A field the
// source leaves out holds its default or the zero value of its kind, so a
// template never meets a missing key.
type Record map[string]any

// Text is text that may hold inline Markdown (kind markdown). It remembers
// where it was written so that a broken link inside it is reported at its
// source.
type Text struct {
	Source string
	Pos    diag.Pos
}

// Link is a link target (kind link): "ref:<page-id>[#anchor]", a legacy short
// path declared in site.yaml, an absolute site path, "#anchor", or an
// external URL. It is resolved per locale and checked at build time.
type Link struct {
	Target string
	Pos    diag.Pos
}

// File is a site path of a static file (kinds file and image); it must exist
// under assets/static/.
type File struct {
	Path string
	Pos  diag.Pos
}

func scalar(file string, n *yaml.Node) (string, diag.Pos, error) {
	pos := diag.Pos{File: file, Line: n.Line, Col: n.Column}
	if n.Kind != yaml.ScalarNode {
		return "", pos, fmt.Errorf("expected text, got %s", describe(n))
	}
	if n.Tag == "!!null" {
		return "", pos, nil
	}
	return n.Value, pos, nil
}

// DecodeNode implements yamlx.NodeDecoder. Pos is where the text itself
// starts (after an opening quote), so a link in a one-line value is
// reported at its own column.
func (t *Text) DecodeNode(file string, n *yaml.Node) (err error) {
	t.Source, t.Pos, err = scalar(file, n)
	switch {
	case n.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle) != 0:
		t.Pos.Col++
	case n.Style&(yaml.LiteralStyle|yaml.FoldedStyle) != 0:
		// The text starts on the next line, indented by an amount the
		// node does not tell: links in it are reported by line.
		t.Pos.Line++
		t.Pos.Col = 0
	}
	return err
}

// DecodeNode implements yamlx.NodeDecoder.
func (l *Link) DecodeNode(file string, n *yaml.Node) (err error) {
	l.Target, l.Pos, err = scalar(file, n)
	if err == nil && strings.TrimSpace(l.Target) != l.Target {
		return fmt.Errorf("link %q has surrounding spaces", l.Target)
	}
	return err
}

// DecodeNode implements yamlx.NodeDecoder.
func (f *File) DecodeNode(file string, n *yaml.Node) (err error) {
	f.Path, f.Pos, err = scalar(file, n)
	if err == nil && f.Path != "" && !strings.HasPrefix(f.Path, "/") {
		return fmt.Errorf("file path %q must start with / (a path under assets/static/)", f.Path)
	}
	return err
}

func (t Text) IsEmpty() bool  { return t.Source == "" }
func (l Link) IsEmpty() bool  { return l.Target == "" }
func (f File) IsEmpty() bool  { return f.Path == "" }
func (t Text) String() string { return t.Source }
func (l Link) String() string { return l.Target }
func (f File) String() string { return f.Path }

func (t Text) MarshalJSON() ([]byte, error) { return json.Marshal(t.Source) }
func (l Link) MarshalJSON() ([]byte, error) { return json.Marshal(l.Target) }
func (f File) MarshalJSON() ([]byte, error) { return json.Marshal(f.Path) }

func describe(n *yaml.Node) string {
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
