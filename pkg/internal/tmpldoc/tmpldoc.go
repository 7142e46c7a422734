// Package tmpldoc reads the function reference of docs/templates.md, so tests
// can hold it to the functions the engine registers and run its examples.
//
// Each function has a heading "### `name`" and, below it, one or more
// examples: a fenced block tagged go-html-template (the template text)
// followed by a fenced block tagged html (what it renders).
package tmpldoc

import (
	"bufio"
	"bytes"
	"fmt"
	"strings"
)

// Example is one template text and its expected output.
type Example struct {
	Input, Want string
	Line        int // of the input block's opening fence
}

// Func is the entry of one template function.
type Func struct {
	Name     string
	Line     int
	Examples []Example
}

// Parse returns the entries of md in order. A code block outside an entry, an
// input without an output after it, or an output without its input is an
// error naming the line.
func Parse(md []byte) ([]Func, error) {
	var (
		funcs   []Func
		pending *Example // an input waiting for its output
		block   *strings.Builder
		tag     string
		start   int
	)
	sc := bufio.NewScanner(bytes.NewReader(md))
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if block != nil {
			if line != "```" {
				block.WriteString(line)
				block.WriteByte('\n')
				continue
			}
			text := block.String()
			block = nil
			switch tag {
			case "go-html-template":
				if pending != nil {
					return nil, fmt.Errorf("line %d: the example at line %d has no html block with its output", start, pending.Line)
				}
				if len(funcs) == 0 {
					return nil, fmt.Errorf("line %d: an example before the first function heading", start)
				}
				pending = &Example{Input: text, Line: start}
			case "html":
				if pending == nil {
					return nil, fmt.Errorf("line %d: an html block without a go-html-template block before it", start)
				}
				pending.Want = text
				f := &funcs[len(funcs)-1]
				f.Examples = append(f.Examples, *pending)
				pending = nil
			}
			continue
		}
		if t, ok := strings.CutPrefix(line, "```"); ok {
			block, tag, start = &strings.Builder{}, t, n
			continue
		}
		if name, ok := strings.CutPrefix(line, "### `"); ok && strings.HasSuffix(name, "`") {
			if pending != nil {
				return nil, fmt.Errorf("line %d: the example at line %d has no html block with its output", n, pending.Line)
			}
			funcs = append(funcs, Func{Name: strings.TrimSuffix(name, "`"), Line: n})
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if block != nil {
		return nil, fmt.Errorf("line %d: the code block is not closed", start)
	}
	if pending != nil {
		return nil, fmt.Errorf("line %d: the example has no html block with its output", pending.Line)
	}
	return funcs, nil
}
