package devserver

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"sitegen/pkg/diag"
)

// problem is a failed build as open tabs and the terminal show it.
type problem struct {
	Errors []problemItem `json:"errors"`
}

type problemItem struct {
	File    string `json:"file,omitempty"`
	Line    int    `json:"line,omitempty"`
	Col     int    `json:"col,omitempty"`
	Message string `json:"message"`
	Hint    string `json:"hint,omitempty"`
	// Severity is "error", "warning" or "note": a build's count of errors
	// leaves the others out, and so do the overlay and the terminal.
	Severity diag.Severity `json:"severity"`
	// Source is the text of the line, when the file could be read.
	Source *string `json:"source,omitempty"`
}

// problemOf turns a build error into items, with the source line of each
// position read from the site at root.
func problemOf(root string, err error) problem {
	var list diag.List
	var d diag.Diagnostic
	switch {
	case errors.As(err, &list):
	case errors.As(err, &d):
		list = diag.List{d}
	default:
		list = diag.List{{Message: err.Error()}}
	}
	var p problem
	for _, d := range list.Sort() {
		it := problemItem{File: d.Pos.File, Line: d.Pos.Line, Col: d.Pos.Col, Message: d.Message, Hint: d.Hint, Severity: d.Severity}
		if d.Pos.File != "" && d.Pos.Line > 0 {
			if s, ok := sourceLine(filepath.Join(root, filepath.FromSlash(d.Pos.File)), d.Pos.Line); ok {
				it.Source = &s
			}
		}
		p.Errors = append(p.Errors, it)
	}
	return p
}

func sourceLine(file string, line int) (string, bool) {
	f, err := os.Open(file)
	if err != nil {
		return "", false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64*1024), 4<<20)
	for n := 1; sc.Scan(); n++ {
		if n == line {
			return strings.TrimRight(sc.Text(), "\r"), true
		}
	}
	return "", false
}

// text is the terminal report: file:line:col: message, the source line and a
// caret under the column.
func (p problem) text() string {
	var b strings.Builder
	errs := 0
	for _, it := range p.Errors {
		if it.Severity == diag.Error {
			errs++
		}
		d := diag.Diagnostic{Pos: diag.Pos{File: it.File, Line: it.Line, Col: it.Col}, Message: it.Message, Hint: it.Hint, Severity: it.Severity}
		b.WriteString(d.Error())
		b.WriteByte('\n')
		if it.Source != nil {
			num := fmt.Sprintf("%5d | ", it.Line)
			b.WriteString(num + *it.Source + "\n")
			if it.Col > 0 {
				b.WriteString(strings.Repeat(" ", len(num)+it.Col-1) + "^\n")
			}
		}
	}
	fmt.Fprintf(&b, "sitegen: build failed with %d error(s); still serving the last good build\n", errs)
	return b.String()
}
