// Package diag is the one diagnostic type of sitegen: every user-facing error
// about content, config, templates, links or islands is a Diagnostic with a
// source position, collected into a List and printed sorted.
package diag

import (
	"errors"
	"fmt"
	"sort"
	"strings"
)

// Pos is a position in a source file. Line and Col are 1-based; zero means
// unknown.
type Pos struct {
	File string
	Line int
	Col  int
}

func (p Pos) String() string {
	switch {
	case p.File == "":
		return ""
	case p.Line == 0:
		return p.File
	case p.Col == 0:
		return fmt.Sprintf("%s:%d", p.File, p.Line)
	}
	return fmt.Sprintf("%s:%d:%d", p.File, p.Line, p.Col)
}

// Diagnostic is one problem found in the user's source tree. Positions are
// values: a message never spells out a position, so tools can sort, group
// and point at them.
type Diagnostic struct {
	Pos     Pos
	Message string
	Hint    string
	// Related is a second place the problem involves (where a duplicate was
	// first defined, the page being rendered), described by RelatedNote;
	// zero when there is none.
	Related     Pos
	RelatedNote string
	// Line is the text of the source line at Pos, filled by AttachSource;
	// Pretty shows it with a caret under the column.
	Line string
	// Note marks information that is not an error itself, such as a check a
	// later stage had to skip because of the errors before it.
	Note bool
}

// Notef returns a note (not an error) at pos.
func Notef(pos Pos, format string, args ...any) Diagnostic {
	return Diagnostic{Pos: pos, Message: fmt.Sprintf(format, args...), Note: true}
}

// Error is the one-line form: file:line:col: message (hint: ...) (note: pos).
func (d Diagnostic) Error() string {
	var b strings.Builder
	if d.Note {
		b.WriteString("note: ")
	}
	if p := d.Pos.String(); p != "" {
		b.WriteString(p)
		b.WriteString(": ")
	}
	b.WriteString(d.Message)
	if d.Hint != "" {
		b.WriteString(" (hint: ")
		b.WriteString(d.Hint)
		b.WriteString(")")
	}
	if r := d.Related.String(); r != "" {
		b.WriteString(" (")
		if d.RelatedNote != "" {
			b.WriteString(d.RelatedNote)
			b.WriteString(" ")
		}
		b.WriteString(r)
		b.WriteString(")")
	}
	return b.String()
}

// WithRelated returns d with a second position and what it is ("first
// defined at", "rendering").
func (d Diagnostic) WithRelated(pos Pos, note string) Diagnostic {
	d.Related, d.RelatedNote = pos, note
	return d
}

// New returns a diagnostic at pos.
func New(pos Pos, format string, args ...any) Diagnostic {
	return Diagnostic{Pos: pos, Message: fmt.Sprintf(format, args...)}
}

// WithHint returns d with a hint attached.
func (d Diagnostic) WithHint(format string, args ...any) Diagnostic {
	d.Hint = fmt.Sprintf(format, args...)
	return d
}

// List collects diagnostics. The zero value is ready to use. It is not safe for
// concurrent use; stages that work in parallel collect per worker and Merge.
type List []Diagnostic

// Add appends d.
func (l *List) Add(d Diagnostic) { *l = append(*l, d) }

// Addf appends a diagnostic at pos.
func (l *List) Addf(pos Pos, format string, args ...any) { l.Add(New(pos, format, args...)) }

// Merge appends every diagnostic of other.
func (l *List) Merge(other List) { *l = append(*l, other...) }

// AddErr appends err: a Diagnostic or List as is, anything else at pos.
func (l *List) AddErr(pos Pos, err error) {
	if err == nil {
		return
	}
	var list List
	if errors.As(err, &list) {
		l.Merge(list)
		return
	}
	var d Diagnostic
	if errors.As(err, &d) {
		l.Add(d)
		return
	}
	l.Add(Diagnostic{Pos: pos, Message: err.Error()})
}

// Sort orders by file, line, column, message, notes after errors, and drops
// exact duplicates.
func (l List) Sort() List {
	sort.SliceStable(l, func(i, j int) bool {
		a, b := l[i], l[j]
		if a.Note != b.Note {
			return b.Note
		}
		if a.Pos.File != b.Pos.File {
			return a.Pos.File < b.Pos.File
		}
		if a.Pos.Line != b.Pos.Line {
			return a.Pos.Line < b.Pos.Line
		}
		if a.Pos.Col != b.Pos.Col {
			return a.Pos.Col < b.Pos.Col
		}
		if a.Message != b.Message {
			return a.Message < b.Message
		}
		if a.Hint != b.Hint {
			return a.Hint < b.Hint
		}
		return a.Related.String()+a.RelatedNote < b.Related.String()+b.RelatedNote
	})
	out := l[:0]
	for i, d := range l {
		if i > 0 && d == l[i-1] {
			continue
		}
		out = append(out, d)
	}
	return out
}

// Err returns the list as an error, or nil when it holds no error (notes
// alone are not an error).
func (l List) Err() error {
	if l.Errors() == 0 {
		return nil
	}
	return l.Sort()
}

// Errors counts the diagnostics that are errors, not notes.
func (l List) Errors() int {
	n := 0
	for _, d := range l {
		if !d.Note {
			n++
		}
	}
	return n
}

func (l List) Error() string {
	lines := make([]string, len(l))
	for i, d := range l {
		lines[i] = d.Error()
	}
	return strings.Join(lines, "\n")
}
