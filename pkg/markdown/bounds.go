package markdown

import (
	"bytes"

	"sitegen/pkg/diag"
)

// Markdown whose parsing cost grows faster than its size is refused before
// it is parsed, at the line that starts it: goldmark walks every open
// container for each line (a list nested 2,000 deep took 12.6 s for 4 MB),
// and scans the rest of a paragraph for each unclosed "[" or "](" (50,000
// of them: 18 s for 200 KB). Within these bounds the cost is linear.
const (
	// MaxNesting is how deep lists and block quotes may nest.
	MaxNesting = 64
	// MaxIndent is the most columns a list item or quote may be indented.
	MaxIndent = 4 * MaxNesting
	// MaxBrackets is the most "[" one paragraph (text between blank
	// lines) may hold.
	MaxBrackets = 256
)

// checkBounds returns the diagnostic of the first place src exceeds a bound.
func checkBounds(src Source) (diag.Diagnostic, bool) {
	text := src.Text
	brackets, paraLine := 0, 0
	for line, start := 0, 0; start < len(text); line++ {
		end := bytes.IndexByte(text[start:], '\n')
		if end < 0 {
			end = len(text)
		} else {
			end += start
		}
		l := text[start:end]
		if len(bytes.TrimSpace(l)) == 0 {
			brackets, paraLine = 0, line+1
		}
		if n := bytes.Count(l, []byte("[")); n > 0 {
			brackets += n
			if brackets > MaxBrackets {
				return diag.New(at(src.Pos, paraLine, 0), "markdown: a paragraph with more than %d \"[\" (links or brackets); parsing it would take time growing with their square", MaxBrackets).
					WithHint("split it with blank lines, or write brackets as &#91;"), true
			}
		}
		if depth, col := nesting(l); depth > MaxNesting || col > MaxIndent {
			return diag.New(at(src.Pos, line, col+1), "markdown: lists or quotes nested more than %d deep (or indented more than %d columns); parsing them would take time growing with the depth", MaxNesting, MaxIndent).
				WithHint("flatten the list"), true
		}
		start = end + 1
	}
	return diag.Diagnostic{}, false
}

// nesting counts the container markers (">", "-", "*", "+", "1." or "1)"
// followed by a space) a line starts with, and the column of the last one;
// it stops at the first marker past a bound.
func nesting(l []byte) (depth, col int) {
	if thematicBreak(l) {
		return 0, 0
	}
	i, c := 0, 0
	for i < len(l) {
		switch ch := l[i]; {
		case ch == ' ':
			i, c = i+1, c+1
		case ch == '\t':
			i, c = i+1, c+4-c%4
		case ch == '>':
			depth, col = depth+1, c
			if depth > MaxNesting || c > MaxIndent {
				return depth, col
			}
			i, c = i+1, c+1
		case (ch == '-' || ch == '*' || ch == '+') && i+1 < len(l) && (l[i+1] == ' ' || l[i+1] == '\t'):
			depth, col = depth+1, c
			if depth > MaxNesting || c > MaxIndent {
				return depth, col
			}
			i, c = i+1, c+1
		case ch >= '0' && ch <= '9':
			j := i
			for j < len(l) && j-i < 10 && l[j] >= '0' && l[j] <= '9' {
				j++
			}
			if j+1 < len(l) && (l[j] == '.' || l[j] == ')') && (l[j+1] == ' ' || l[j+1] == '\t') {
				depth, col = depth+1, c
				if depth > MaxNesting || c > MaxIndent {
					return depth, col
				}
				c += j + 1 - i
				i = j + 1
				continue
			}
			return depth, col
		default:
			return depth, col
		}
	}
	return depth, col
}

// at is the position line lines (and column col, 0 for none) into a
// source starting at pos.
func at(pos diag.Pos, line, col int) diag.Pos {
	switch {
	case line > 0:
		pos.Line += line
		pos.Col = col
	case pos.Col > 0 && col > 0:
		pos.Col += col - 1
	}
	return pos
}

// thematicBreak reports whether l is a line such as "- - -" or "***",
// which is no list.
func thematicBreak(l []byte) bool {
	var mark byte
	n := 0
	for _, ch := range l {
		switch {
		case ch == ' ' || ch == '\t':
		case (ch == '-' || ch == '*' || ch == '_') && (mark == 0 || ch == mark):
			mark = ch
			n++
		default:
			return false
		}
	}
	return n >= 3
}
