package yamlx

import (
	"bytes"
	"fmt"
	"strings"
)

// opening is a quote or flow bracket that a YAML line opens and leaves open.
type opening struct {
	char  rune
	col   int // 1-based, in characters (as yaml.v3 counts)
	quote bool
}

var closerOf = map[rune]string{'[': "]", '{': "}", '"': `"`, '\'': "'"}

func (o opening) what() string {
	switch o.char {
	case '"', '\'':
		return fmt.Sprintf("the quoted string (%c) opened here is not closed on its line", o.char)
	case '[':
		return "the flow list ([) opened here is not closed"
	}
	return "the flow mapping ({) opened here is not closed"
}

func (o opening) hint() string {
	if o.quote {
		return fmt.Sprintf("end the string with %c on the same line, or leave out the quotes", o.char)
	}
	return "end it with " + closerOf[o.char] + ", or write the items as a block list or mapping, one per line"
}

// explains reports whether the opening left open is what yaml.v3's message
// (without its "yaml: line N: " prefix) complains of.
func (o opening) explains(msg string) bool {
	if o.quote {
		return msg == "found unexpected end of stream"
	}
	return strings.HasPrefix(msg, "did not find expected ',' or '"+closerOf[o.char]+"'")
}

// sourceLine is line n (1-based) of src, or "".
func sourceLine(src []byte, n int) string {
	if n < 1 {
		return ""
	}
	for i := 1; i < n; i++ {
		j := bytes.IndexByte(src, '\n')
		if j < 0 {
			return ""
		}
		src = src[j+1:]
	}
	if j := bytes.IndexByte(src, '\n'); j >= 0 {
		src = src[:j]
	}
	return strings.TrimRight(string(src), "\r")
}

// unclosedOpening scans one line of block YAML and returns the quote that
// opens a scalar and is not closed on the line, or else the innermost flow
// bracket ([ or {) left open at its end. Quotes inside plain scalars
// (It's) and after a comment's # open nothing.
func unclosedOpening(line string) (opening, bool) {
	rs := []rune(line)
	var open []opening // unclosed flow brackets, innermost last
	valueStart := true // at the start of a node: a quote here opens a string
	for i := 0; i < len(rs); i++ {
		c := rs[i]
		switch {
		case c == ' ' || c == '\t':
			continue
		case c == '#' && (i == 0 || rs[i-1] == ' ' || rs[i-1] == '\t'):
			i = len(rs) // a comment runs to the end of the line
		case (c == '"' || c == '\'') && valueStart:
			end := closingQuote(rs, i)
			if end < 0 {
				return opening{char: c, col: i + 1, quote: true}, true
			}
			i, valueStart = end, false
		case c == '[' || c == '{':
			open = append(open, opening{char: c, col: i + 1})
			valueStart = true
		case (c == ']' || c == '}') && len(open) > 0:
			open, valueStart = open[:len(open)-1], false
		case c == ',' && len(open) > 0:
			valueStart = true
		case (c == '-' || c == '?' || c == ':') && (i+1 == len(rs) || rs[i+1] == ' ' || rs[i+1] == '\t'):
			valueStart = true
		default:
			valueStart = false
		}
	}
	if len(open) > 0 {
		return open[len(open)-1], true
	}
	return opening{}, false
}

// closingQuote is the index of the quote closing the string opened at rs[at],
// or -1 when the line ends first. In single quotes a quote is doubled, in "..."
// a backslash escapes the next character.
func closingQuote(rs []rune, at int) int {
	q := rs[at]
	for i := at + 1; i < len(rs); i++ {
		switch {
		case q == '"' && rs[i] == '\\':
			i++
		case rs[i] == q && q == '\'' && i+1 < len(rs) && rs[i+1] == '\'':
			i++
		case rs[i] == q:
			return i
		}
	}
	return -1
}
