// Package esbuildmsg turns esbuild's messages into sitegen diagnostics, for
// every stage that runs esbuild (islands, assets): one conversion, so a
// JSX error and a CSS error read alike.
package esbuildmsg

import (
	"path/filepath"
	"strconv"
	"strings"

	"github.com/evanw/esbuild/pkg/api"

	"sitegen/pkg/diag"
)

// Diagnostics converts msgs, sorted. root is the folder esbuild worked in:
// files below it are named relative to it, with slashes.
func Diagnostics(root string, msgs []api.Message) diag.List {
	var l diag.List
	for _, m := range msgs {
		d := diag.Diagnostic{Message: m.Text}
		if loc := m.Location; loc != nil {
			d.Pos = diag.Pos{File: rel(root, loc.File), Line: loc.Line, Col: loc.Column + 1}
			if loc.LineText != "" {
				d.Line = loc.LineText
			}
			if loc.Suggestion != "" {
				d.Hint = "did you mean " + strconv.Quote(loc.Suggestion) + "?"
			}
		}
		for _, n := range m.Notes {
			if d.Hint == "" && n.Text != "" {
				d.Hint = n.Text
			}
		}
		l.Add(d)
	}
	return l.Sort()
}

// Err is Diagnostics as an error, nil when there are no messages.
func Err(root string, msgs []api.Message) error {
	if len(msgs) == 0 {
		return nil
	}
	return Diagnostics(root, msgs)
}

func rel(root, p string) string {
	if root != "" && filepath.IsAbs(p) {
		if r, err := filepath.Rel(root, p); err == nil && !strings.HasPrefix(r, "..") {
			return filepath.ToSlash(r)
		}
	}
	return filepath.ToSlash(p)
}
