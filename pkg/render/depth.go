package render

import (
	"strconv"
	"text/template/parse"
)

// Template calls ({{ template }}, {{ block }}) count toward MaxNesting like
// partials and sections: every call is bracketed by two actions that print
// nothing, {{ if sitegenEnter "name" }}{{ end }} before and
// {{ if sitegenLeave }}{{ end }} after, so that a template that calls
// itself stops at the limit with the chain, at the line of the call, instead
// of running into Go's own limit of 100,000 calls minutes later.
const (
	enterFunc = "sitegenEnter"
	leaveFunc = "sitegenLeave"
)

// guardTemplateCalls brackets every {{ template }} call of the trees.
func guardTemplateCalls(trees []*parse.Tree) {
	for _, t := range trees {
		if t != nil {
			guardList(t.Root)
		}
	}
}

func guardList(l *parse.ListNode) {
	if l == nil {
		return
	}
	out := make([]parse.Node, 0, len(l.Nodes))
	for _, n := range l.Nodes {
		switch n := n.(type) {
		case *parse.TemplateNode:
			out = append(out, silentCall(n.Pos, n.Line, enterFunc, n.Name), n, silentCall(n.Pos, n.Line, leaveFunc, ""))
			continue
		case *parse.IfNode:
			guardList(n.List)
			guardList(n.ElseList)
		case *parse.WithNode:
			guardList(n.List)
			guardList(n.ElseList)
		case *parse.RangeNode:
			guardList(n.List)
			guardList(n.ElseList)
		case *parse.ListNode:
			guardList(n)
		}
		out = append(out, n)
	}
	l.Nodes = out
}

// silentCall is {{ if fn "arg" }}{{ end }} (no argument when arg is ""), at
// pos: it runs fn and prints nothing in any HTML context.
func silentCall(pos parse.Pos, line int, fn, arg string) parse.Node {
	cmd := &parse.CommandNode{NodeType: parse.NodeCommand, Pos: pos}
	cmd.Args = append(cmd.Args, parse.NewIdentifier(fn).SetTree(nil).SetPos(pos))
	if arg != "" {
		cmd.Args = append(cmd.Args, &parse.StringNode{NodeType: parse.NodeString, Pos: pos, Quoted: strconv.Quote(arg), Text: arg})
	}
	pipe := &parse.PipeNode{NodeType: parse.NodePipe, Pos: pos, Line: line, Cmds: []*parse.CommandNode{cmd}}
	return &parse.IfNode{BranchNode: parse.BranchNode{NodeType: parse.NodeIf, Pos: pos, Line: line, Pipe: pipe,
		List: &parse.ListNode{NodeType: parse.NodeList, Pos: pos}}}
}
