package render

import "text/template/parse"

// The dependence analysis of hoisting (see hoist.go): which statements
// render the same for every page of a locale, and where a run of them may
// be cut.

// hoistSafe lists the template functions a hoisted region may call: each
// one's result depends only on its arguments, the locale and the
// renderer's options, and it touches nothing of the page but the
// dependencies it records (which the memo replays) and, for md/mdblock, a
// Markdown image's picture (which runHoisted sees and then does not keep
// the region). Everything else (partial, section, sections, picture, image,
// island, scripts, the main marks, showAnnouncement, fileSize, call, ...)
// keeps a region from being hoisted.
var hoistSafe = map[string]bool{
	// text/template's builtins, but call.
	"and": true, "or": true, "not": true, "len": true, "index": true, "slice": true,
	"eq": true, "ne": true, "lt": true, "le": true, "gt": true, "ge": true,
	"print": true, "printf": true, "println": true, "html": true, "js": true, "urlquery": true,
	// funcs.go
	"t": true, "tnull": true, "data": true, "ref": true, "link": true, "pages": true, "taxonomy": true,
	"md": true, "mdblock": true,
	"asset": true, "stylesheet": true, "icon": true,
	"dict": true, "list": true, "append": true, "add": true, "sub": true, "mul": true, "mod": true,
	"seq": true, "default": true, "join": true, "split": true, "lower": true, "upper": true,
	"contains": true, "hasPrefix": true, "trim": true, "safeHTML": true, "jsonify": true,
	"slugify": true, "str": true, "fileExt": true, "dateStatus": true, "daysSince": true, "number": true,
	"toc": true, "localDate": true,
}

// hoistUnsafe lists the template functions that keep a region from being
// hoisted (a test checks that every function is in one list or the other).
var hoistUnsafe = map[string]bool{
	"partial": true, "section": true, "sections": true, "picture": true, "image": true,
	"island": true, "scripts": true, mainStartFunc: true, mainEndFunc: true, enterFunc: true, leaveFunc: true,
	"showAnnouncement": true, "fileSize": true, "call": true,
}

// scope is what a statement may read while it stays page-independent.
type scope struct {
	dot     bool            // dot is a value the region produced
	vars    map[string]bool // variables declared inside the region
	inRange bool            // inside a range of the region: break and continue stay inside
}

func (s scope) child() scope {
	c := s
	c.vars = make(map[string]bool, len(s.vars))
	for k := range s.vars {
		c.vars[k] = true
	}
	return c
}

// constNode reports whether the statement n renders the same for every
// page of a locale within scope s; top-level declarations of an action are
// added to s.
func constNode(n parse.Node, s *scope) bool {
	switch n := n.(type) {
	case *parse.TextNode, *parse.CommentNode:
		return true
	case *parse.ActionNode:
		return constPipe(n.Pipe, s, true)
	case *parse.IfNode:
		c := s.child()
		return constPipe(n.Pipe, &c, true) && constList(n.List, c) && constList(n.ElseList, c)
	case *parse.WithNode:
		c := s.child()
		if !constPipe(n.Pipe, &c, true) {
			return false
		}
		in := c.child()
		in.dot = true
		return constList(n.List, in) && constList(n.ElseList, c)
	case *parse.RangeNode:
		c := s.child()
		if !constPipe(n.Pipe, &c, true) {
			return false
		}
		in := c.child()
		in.dot, in.inRange = true, true
		return constList(n.List, in) && constList(n.ElseList, c)
	case *parse.BreakNode, *parse.ContinueNode:
		return s.inRange
	case *parse.ListNode:
		return constList(n, *s)
	}
	return false // template calls and anything new
}

func constList(l *parse.ListNode, s scope) bool {
	if l == nil {
		return true
	}
	c := s.child()
	for _, n := range l.Nodes {
		if !constNode(n, &c) {
			return false
		}
	}
	return true
}

// constPipe reports whether a pipeline is page-independent; its
// declarations join s (assignments must be to variables of the region).
func constPipe(p *parse.PipeNode, s *scope, declare bool) bool {
	if p == nil {
		return true
	}
	for _, c := range p.Cmds {
		if !constCmd(c, s) {
			return false
		}
	}
	if len(p.Decl) > 0 && !declare {
		return false
	}
	for _, v := range p.Decl {
		if len(v.Ident) != 1 || v.Ident[0] == "$" {
			return false
		}
		if p.IsAssign && !s.vars[v.Ident[0]] {
			return false // assigns to a variable declared outside the region
		}
		s.vars[v.Ident[0]] = true
	}
	return true
}

func constCmd(c *parse.CommandNode, s *scope) bool {
	if len(c.Args) == 0 {
		return false
	}
	first := c.Args[0]
	if id, ok := first.(*parse.IdentifierNode); ok {
		if !hoistSafe[id.Ident] {
			return false
		}
	} else if len(c.Args) > 1 { // a method called with arguments
		return false
	} else if !constArg(first, s) {
		return false
	}
	for _, a := range c.Args[1:] {
		if !constArg(a, s) {
			return false
		}
	}
	return true
}

func constArg(n parse.Node, s *scope) bool {
	switch n := n.(type) {
	case *parse.StringNode, *parse.NumberNode, *parse.BoolNode, *parse.NilNode:
		return true
	case *parse.DotNode, *parse.FieldNode:
		return s.dot
	case *parse.VariableNode:
		return n.Ident[0] != "$" && s.vars[n.Ident[0]]
	case *parse.ChainNode:
		return constArg(n.Node, s)
	case *parse.PipeNode:
		return constPipe(n, s, false)
	case *parse.IdentifierNode:
		return hoistSafe[n.Ident]
	}
	return false
}

// step leads from a list to one of its nodes' lists: the node's List
// (else false) or ElseList.
type step struct {
	i        int
	elseList bool
}

// run is a candidate: list.Nodes[start:end] of one tree qualify.
type run struct {
	tree       *parse.Tree
	list       *parse.ListNode
	path       []step
	start, end int
}

// region is a run cut at two text boundaries: list.Nodes[a:b].
type region struct {
	*run
	a, b int
}

// findRuns lists the maximal runs of qualifying statements below list
// that hold something to execute, and looks inside the statements that do
// not qualify.
func findRuns(tree *parse.Tree, list *parse.ListNode, path []step, out *[]*run) {
	if list == nil {
		return
	}
	start := -1
	s := scope{vars: map[string]bool{}}
	flush := func(end int) {
		if start >= 0 && hasExec(list.Nodes[start:end]) {
			*out = append(*out, &run{tree: tree, list: list, path: append([]step{}, path...), start: start, end: end})
		}
		start = -1
		s = scope{vars: map[string]bool{}}
	}
	for i, n := range list.Nodes {
		if constNode(n, &s) {
			if start < 0 {
				start = i
			}
			continue
		}
		flush(i)
		var l, e *parse.ListNode
		switch n := n.(type) {
		case *parse.IfNode:
			l, e = n.List, n.ElseList
		case *parse.WithNode:
			l, e = n.List, n.ElseList
		case *parse.RangeNode:
			l, e = n.List, n.ElseList
		}
		findRuns(tree, l, append(path, step{i, false}), out)
		findRuns(tree, e, append(path, step{i, true}), out)
	}
	flush(len(list.Nodes))
}

func hasExec(nodes []parse.Node) bool {
	for _, n := range nodes {
		switch n.(type) {
		case *parse.TextNode, *parse.CommentNode:
		default:
			return true
		}
	}
	return false
}

// listAt follows path from root.
func listAt(root *parse.ListNode, path []step) *parse.ListNode {
	l := root
	for _, st := range path {
		if l == nil || st.i >= len(l.Nodes) {
			return nil
		}
		var b *parse.BranchNode
		switch n := l.Nodes[st.i].(type) {
		case *parse.IfNode:
			b = &n.BranchNode
		case *parse.WithNode:
			b = &n.BranchNode
		case *parse.RangeNode:
			b = &n.BranchNode
		default:
			return nil
		}
		if st.elseList {
			l = b.ElseList
		} else {
			l = b.List
		}
	}
	return l
}

// validRegion reports whether l.Nodes[a:b] can stand alone: they
// qualify in a scope of their own, hold something to execute, and declare
// no variable that the rest of the list reads.
func validRegion(l *parse.ListNode, a, b int) bool {
	nodes := l.Nodes[a:b]
	if !hasExec(nodes) {
		return false
	}
	s := scope{vars: map[string]bool{}}
	for _, n := range nodes {
		if !constNode(n, &s) {
			return false
		}
	}
	if len(s.vars) == 0 {
		return true
	}
	leaks := false
	for _, n := range l.Nodes[b:] {
		walkNodes(n, func(n parse.Node) {
			if v, ok := n.(*parse.VariableNode); ok && s.vars[v.Ident[0]] {
				leaks = true
			}
			if p, ok := n.(*parse.PipeNode); ok {
				for _, v := range p.Decl {
					if s.vars[v.Ident[0]] {
						leaks = true
					}
				}
			}
		})
	}
	return !leaks
}

// cut splits a run at boundaries in text (text, ascending) into regions:
// from the first such boundary to the last one that makes a valid region,
// then on from there.
func cut(rn *run, text []int) []region {
	var out []region
	for i := 0; i < len(text); i++ {
		a := text[i]
		for j := len(text) - 1; j > i; j-- {
			b := text[j]
			if validRegion(rn.list, a, b) {
				out = append(out, region{rn, a, b})
				i = j - 1 // the next region may start where this one ends
				break
			}
		}
	}
	return out
}

// walkNodes calls fn for n and every node below it, arguments included.
func walkNodes(n parse.Node, fn func(parse.Node)) {
	switch n := n.(type) {
	case nil:
	case *parse.ListNode:
		if n != nil {
			fn(n)
			for _, c := range n.Nodes {
				walkNodes(c, fn)
			}
		}
	case *parse.PipeNode:
		if n != nil {
			fn(n)
			for _, v := range n.Decl {
				fn(v)
			}
			for _, c := range n.Cmds {
				walkNodes(c, fn)
			}
		}
	case *parse.ActionNode:
		fn(n)
		walkNodes(n.Pipe, fn)
	case *parse.CommandNode:
		fn(n)
		for _, a := range n.Args {
			walkNodes(a, fn)
		}
	case *parse.ChainNode:
		fn(n)
		walkNodes(n.Node, fn)
	case *parse.IfNode:
		fn(n)
		walkBranch(&n.BranchNode, fn)
	case *parse.WithNode:
		fn(n)
		walkBranch(&n.BranchNode, fn)
	case *parse.RangeNode:
		fn(n)
		walkBranch(&n.BranchNode, fn)
	case *parse.TemplateNode:
		fn(n)
		walkNodes(n.Pipe, fn)
	default:
		fn(n)
	}
}

func walkBranch(b *parse.BranchNode, fn func(parse.Node)) {
	walkNodes(b.Pipe, fn)
	walkNodes(b.List, fn)
	walkNodes(b.ElseList, fn)
}
