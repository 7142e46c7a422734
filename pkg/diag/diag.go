// Package diag is the one diagnostic type of sitegen: every user-facing error
// about content, config, templates, links or islands is a Diagnostic with a
// source position, collected into a List and printed sorted.
package diag

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Pos is a position in a source file. Line and Col are 1-based; zero means
// unknown.
type Pos struct {
	File string
	Line int
	Col  int
}

func (p Pos) String() string {
	file := QuoteBadName(p.File)
	switch {
	case p.File == "":
		return ""
	case p.Line == 0:
		return file
	case p.Col == 0:
		return fmt.Sprintf("%s:%d", file, p.Line)
	}
	return fmt.Sprintf("%s:%d:%d", file, p.Line, p.Col)
}

// QuoteBadName is name, quoted Go-style ("content/pl/\xff.md") when it is
// not valid UTF-8 or holds a control character, so that a message never
// prints raw bytes to the terminal.
func QuoteBadName(name string) string {
	if !utf8.ValidString(name) || strings.IndexFunc(name, unicode.IsControl) >= 0 {
		return strconv.Quote(name)
	}
	return name
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
	// Severity: an error (the zero value) fails a build and a check; a
	// warning fails a check only with --strict; a note is information that
	// is not a problem itself, such as a check a later stage had to skip
	// because of the errors before it.
	Severity Severity
	// Kind names the check that found the problem (sitegen check's
	// "broken-link", "image-alt", ...); empty for a build's diagnostics.
	Kind string
	// Page is the URL of the rendered page the problem shows on, when it
	// was found in a page's output.
	Page string
}

// Severity is how much a diagnostic weighs (see Diagnostic.Severity).
type Severity uint8

const (
	Error Severity = iota
	Warning
	Note
)

func (s Severity) String() string {
	switch s {
	case Warning:
		return "warning"
	case Note:
		return "note"
	}
	return "error"
}

// MarshalText writes the severity's name (JSON reports).
func (s Severity) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// Notef returns a note (not an error) at pos.
func Notef(pos Pos, format string, args ...any) Diagnostic {
	return Diagnostic{Pos: pos, Message: fmt.Sprintf(format, args...), Severity: Note}
}

// Error is the one-line form: file:line:col: message (hint: ...) (note: pos).
func (d Diagnostic) Error() string {
	var b strings.Builder
	if d.Severity != Error {
		b.WriteString(d.Severity.String() + ": ")
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

// ComparePos orders two diagnostics by file, line, column, message, hint,
// related position, severity, kind and page (for slices.SortFunc; sitegen
// check lists its diagnostics in this order).
func ComparePos(a, b Diagnostic) int {
	return cmp.Or(
		cmp.Compare(a.Pos.File, b.Pos.File),
		cmp.Compare(a.Pos.Line, b.Pos.Line),
		cmp.Compare(a.Pos.Col, b.Pos.Col),
		cmp.Compare(a.Message, b.Message),
		cmp.Compare(a.Hint, b.Hint),
		cmp.Compare(a.Related.String()+a.RelatedNote, b.Related.String()+b.RelatedNote),
		cmp.Compare(a.Severity, b.Severity),
		cmp.Compare(a.Kind, b.Kind),
		cmp.Compare(a.Page, b.Page),
	)
}

// Sort returns the list with errors before warnings before notes, each by
// ComparePos, and without exact duplicates; l stays as it was.
func (l List) Sort() List {
	l = slices.Clone(l)
	slices.SortStableFunc(l, func(a, b Diagnostic) int {
		return cmp.Or(cmp.Compare(a.Severity, b.Severity), ComparePos(a, b))
	})
	return slices.Compact(l)
}

// Err returns the list as an error, or nil when it holds no error (warnings
// and notes alone are not an error).
func (l List) Err() error {
	if l.Errors() == 0 {
		return nil
	}
	return l.Sort()
}

// Errors counts the diagnostics that are errors (not warnings or notes).
func (l List) Errors() int {
	n := 0
	for _, d := range l {
		if d.Severity == Error {
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
