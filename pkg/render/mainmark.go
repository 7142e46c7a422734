package render

import (
	"bytes"
	"html/template"
	"text/template/parse"
)

// The <main> part of a page (page data carries it for client-side
// navigation) is recorded while rendering: base.html's parse tree gets two
// actions, at the inside edges of the <main> element around the "main"
// block, that note the output offsets as the page is written.
const (
	mainStartFunc = "sitegenMainStart"
	mainEndFunc   = "sitegenMainEnd"
)

// markMain splices the two recording actions into t (base.html) and
// reports whether it found the "main" block. funcs must define both
// recording functions.
func markMain(t *template.Template, funcs template.FuncMap) bool {
	if t.Tree == nil || t.Tree.Root == nil {
		return false
	}
	start, end := action(mainStartFunc, funcs), action(mainEndFunc, funcs)
	if start == nil || end == nil {
		return false
	}
	return splice(t.Tree.Root, start, end)
}

// action returns the parsed {{ name }} action node.
func action(name string, funcs template.FuncMap) parse.Node {
	t, err := template.New("mark").Funcs(funcs).Parse("{{ " + name + " }}")
	if err != nil || len(t.Tree.Root.Nodes) != 1 {
		return nil
	}
	return t.Tree.Root.Nodes[0]
}

func splice(list *parse.ListNode, start, end parse.Node) bool {
	if list == nil {
		return false
	}
	for i, n := range list.Nodes {
		switch n := n.(type) {
		case *parse.TemplateNode:
			if n.Name != "main" {
				continue
			}
			var out []parse.Node
			out = append(out, list.Nodes[:i]...)
			// Put start right after the <main ...> tag if the text before
			// the block ends inside it, else right before the block.
			if i > 0 {
				if tx, ok := out[len(out)-1].(*parse.TextNode); ok {
					if cut := afterMainOpen(tx.Text); cut >= 0 {
						out = out[:len(out)-1]
						out = append(out, text(tx, tx.Text[:cut]), start, text(tx, tx.Text[cut:]))
						start = nil
					}
				}
			}
			if start != nil {
				out = append(out, start)
			}
			out = append(out, n)
			rest := list.Nodes[i+1:]
			if len(rest) > 0 {
				if tx, ok := rest[0].(*parse.TextNode); ok {
					if cut := bytes.Index(tx.Text, []byte("</main>")); cut >= 0 {
						out = append(out, text(tx, tx.Text[:cut]), end, text(tx, tx.Text[cut:]))
						end = nil
						rest = rest[1:]
					}
				}
			}
			if end != nil {
				out = append(out, end)
			}
			list.Nodes = append(out, rest...)
			return true
		case *parse.IfNode:
			if splice(n.List, start, end) || splice(n.ElseList, start, end) {
				return true
			}
		case *parse.WithNode:
			if splice(n.List, start, end) || splice(n.ElseList, start, end) {
				return true
			}
		case *parse.RangeNode:
			if splice(n.List, start, end) || splice(n.ElseList, start, end) {
				return true
			}
		case *parse.ListNode:
			if splice(n, start, end) {
				return true
			}
		}
	}
	return false
}

// afterMainOpen returns the offset just after the last <main ...> open tag
// in b when only white space follows it, else -1.
func afterMainOpen(b []byte) int {
	i := bytes.LastIndex(b, []byte("<main"))
	if i < 0 {
		return -1
	}
	j := bytes.IndexByte(b[i:], '>')
	if j < 0 {
		return -1
	}
	cut := i + j + 1
	if len(bytes.TrimSpace(b[cut:])) > 0 {
		return -1
	}
	return cut
}

func text(like *parse.TextNode, b []byte) *parse.TextNode {
	return &parse.TextNode{NodeType: parse.NodeText, Pos: like.Pos, Text: append([]byte{}, b...)}
}
