package diag

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"unicode/utf8"
)

// AttachSource fills the Line of every diagnostic in err from the files in
// fsys (the site's source tree), so Pretty can show it. err is returned as
// the same kind of value; other errors are returned as they are.
func AttachSource(fsys fs.FS, err error) error {
	if err == nil || fsys == nil {
		return err
	}
	files := map[string][][]byte{}
	line := func(p Pos) string {
		if p.File == "" || p.Line <= 0 {
			return ""
		}
		lines, ok := files[p.File]
		if !ok {
			b, err := fs.ReadFile(fsys, p.File)
			if err == nil {
				lines = bytes.Split(bytes.ReplaceAll(b, []byte("\r\n"), []byte("\n")), []byte("\n"))
			}
			files[p.File] = lines
		}
		if p.Line > len(lines) {
			return ""
		}
		return string(bytes.TrimRight(lines[p.Line-1], "\r"))
	}
	var list List
	if errors.As(err, &list) {
		out := make(List, len(list))
		for i, d := range list {
			d.Line = line(d.Pos)
			out[i] = d
		}
		return out
	}
	var d Diagnostic
	if errors.As(err, &d) {
		d.Line = line(d.Pos)
		return d
	}
	return err
}

// Pretty is the multi-line form for people: the one-line message, then the
// source line with a caret under the column (when the line is known), then
// the hint and the related position on lines of their own.
//
//	content/pl/data/home.yaml:5:14: field "value": expected text, got a list
//	    5 |     - value: [1, 2]
//	      |              ^
//	  hint: ...
func (d Diagnostic) Pretty() string {
	var b strings.Builder
	if d.Severity != Error {
		b.WriteString(d.Severity.String() + ": ")
	}
	if p := d.Pos.String(); p != "" {
		b.WriteString(p)
		b.WriteString(": ")
	}
	b.WriteString(d.Message)
	if d.Line != "" && utf8.ValidString(d.Line) {
		num := fmt.Sprint(d.Pos.Line)
		pad := strings.Repeat(" ", len(num))
		fmt.Fprintf(&b, "\n  %s | %s", num, d.Line)
		if d.Pos.Col > 0 {
			fmt.Fprintf(&b, "\n  %s | %s^", pad, caretPad(d.Line, d.Pos.Col))
		}
	}
	if d.Hint != "" {
		b.WriteString("\n  hint: ")
		b.WriteString(d.Hint)
	}
	if r := d.Related.String(); r != "" {
		b.WriteString("\n  ")
		if d.RelatedNote != "" {
			b.WriteString(d.RelatedNote)
			b.WriteString(" ")
		}
		b.WriteString(r)
	}
	return b.String()
}

// caretPad is the white space before a caret under column col (1-based,
// counted in characters as yaml.v3 and Go's template parser count them):
// tabs stay tabs so the caret lines up whatever the tab width.
func caretPad(line string, col int) string {
	var b strings.Builder
	n := 0
	for _, r := range line {
		if n >= col-1 {
			break
		}
		if r == '\t' {
			b.WriteByte('\t')
		} else {
			b.WriteByte(' ')
		}
		n++
	}
	for ; n < col-1; n++ {
		b.WriteByte(' ')
	}
	return b.String()
}
