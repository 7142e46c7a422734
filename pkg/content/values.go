package content

import (
	"encoding/json"
	"fmt"
	"strings"

	"gopkg.in/yaml.v3"

	"sitegen/pkg/diag"
)

// Text is text that may hold inline Markdown. It remembers where it was
// written so that a broken link inside it is reported at its source.
type Text struct {
	Source string
	Pos    diag.Pos
}

// Link is a link target (see the package documentation of records.go).
type Link struct {
	Target string
	Pos    diag.Pos
}

// File is a site path of a static file.
type File struct {
	Path string
	Pos  diag.Pos
}

func scalar(file string, n *yaml.Node) (string, diag.Pos, error) {
	pos := diag.Pos{File: file, Line: n.Line, Col: n.Column}
	if n.Kind != yaml.ScalarNode {
		return "", pos, fmt.Errorf("expected text, got a %s", map[yaml.Kind]string{yaml.MappingNode: "mapping", yaml.SequenceNode: "list"}[n.Kind])
	}
	if n.Tag == "!!null" {
		return "", pos, nil
	}
	return n.Value, pos, nil
}

// DecodeNode implements yamlx.NodeDecoder.
func (t *Text) DecodeNode(file string, n *yaml.Node) (err error) {
	t.Source, t.Pos, err = scalar(file, n)
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
