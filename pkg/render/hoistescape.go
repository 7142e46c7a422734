package render

import (
	"fmt"
	"html/template"
	"io"
	"sort"
	"strconv"
	"strings"
	"text/template/parse"
)

// html/template's context analysis for hoisting (see hoist.go): probes at
// the boundaries of runs, the escaping of a whole namespace without running
// it, and the check of the calls that replace regions.

// callAction returns {{ fn id }} at pos, with no tree of its own (its
// errors are placed in the template that runs it).
func callAction(fn string, id int, pos parse.Pos) *parse.ActionNode {
	num := &parse.NumberNode{NodeType: parse.NodeNumber, Pos: pos, IsInt: true, Int64: int64(id), Text: strconv.Itoa(id)}
	if id >= 0 {
		num.IsUint, num.Uint64 = true, uint64(id)
	}
	num.IsFloat, num.Float64 = true, float64(id)
	cmd := &parse.CommandNode{NodeType: parse.NodeCommand, Pos: pos, Args: []parse.Node{parse.NewIdentifier(fn).SetTree(nil).SetPos(pos), num}}
	return &parse.ActionNode{NodeType: parse.NodeAction, Pos: pos, Pipe: &parse.PipeNode{NodeType: parse.NodePipe, Pos: pos, Cmds: []*parse.CommandNode{cmd}}}
}

// calledID returns n's id when n is {{ fn id }} (escaped or not), and the
// escapers html/template appended to it.
func calledID(n parse.Node, fn string) (id int, escapers []string, ok bool) {
	a, isAction := n.(*parse.ActionNode)
	if !isAction || a.Pipe == nil || len(a.Pipe.Cmds) == 0 || len(a.Pipe.Cmds[0].Args) != 2 {
		return 0, nil, false
	}
	ident, isIdent := a.Pipe.Cmds[0].Args[0].(*parse.IdentifierNode)
	num, isNum := a.Pipe.Cmds[0].Args[1].(*parse.NumberNode)
	if !isIdent || !isNum || ident.Ident != fn || !num.IsInt {
		return 0, nil, false
	}
	for _, c := range a.Pipe.Cmds[1:] {
		name := "?"
		if len(c.Args) == 1 {
			if e, isIdent := c.Args[0].(*parse.IdentifierNode); isIdent {
				name = e.Ident
			}
		}
		escapers = append(escapers, name)
	}
	return int(num.Int64), escapers, true
}

// boundary is a place between two nodes of a run's list.
type boundary struct {
	r   *run
	pos int
}

// probe escapes a clone of ns with a probe at each boundary and reports
// which boundaries html/template found in plain HTML text, in every
// template and context they are escaped in. A probe is a call of a template
// that writes nothing: a call changes no context (an action would, inside a
// tag), and the escaper renames it (name$htmltemplate_<context>) unless it
// sits in plain text.
func probe(ns *template.Template, names map[*parse.Tree][]string, at []boundary) (map[boundary]bool, error) {
	clone, err := ns.Clone()
	if err != nil {
		return nil, err
	}
	empty := &parse.Tree{Name: probeFunc, ParseName: probeFunc,
		Root: &parse.ListNode{NodeType: parse.NodeList, Nodes: []parse.Node{&parse.TextNode{NodeType: parse.NodeText, Text: []byte{}}}}}
	if _, err := clone.AddParseTree(probeFunc, empty); err != nil {
		return nil, err
	}
	// The probes, per list of the clone, inserted from the last place on.
	type listKey struct {
		name string
		path string
	}
	byList := map[listKey][]int{}
	lists := map[listKey]*parse.ListNode{}
	var keys []listKey
	for i, b := range at {
		for _, name := range names[b.r.tree] {
			k := listKey{name, fmt.Sprint(b.r.path)}
			if _, ok := lists[k]; !ok {
				ct := clone.Lookup(name)
				if ct == nil || ct.Tree == nil {
					return nil, fmt.Errorf("no template %q in the clone", name)
				}
				l := listAt(ct.Tree.Root, b.r.path)
				if l == nil || len(l.Nodes) != len(b.r.list.Nodes) {
					return nil, fmt.Errorf("the clone of %q differs", name)
				}
				lists[k] = l
				keys = append(keys, k)
			}
			byList[k] = append(byList[k], i)
		}
	}
	probes := map[*parse.TemplateNode]int{}
	in := map[*parse.TemplateNode]string{}
	for _, k := range keys {
		l := lists[k]
		ids := byList[k]
		sort.SliceStable(ids, func(x, y int) bool { return at[ids[x]].pos > at[ids[y]].pos })
		for _, id := range ids {
			p := at[id].pos
			var pos parse.Pos
			if p < len(l.Nodes) {
				pos = l.Nodes[p].Position()
			} else if p > 0 {
				pos = l.Nodes[p-1].Position()
			}
			n := &parse.TemplateNode{NodeType: parse.NodeTemplate, Pos: pos, Name: probeFunc}
			probes[n], in[n] = id, k.name
			l.Nodes = append(l.Nodes[:p], append([]parse.Node{n}, l.Nodes[p:]...)...)
		}
	}
	_, tainted, err := escapeAll(clone)
	if err != nil {
		return nil, err
	}
	bad := map[int]bool{}
	for n, id := range probes {
		if n.Name != probeFunc || tainted[in[n]] {
			bad[id] = true
		}
	}
	ok := map[boundary]bool{}
	for i, b := range at {
		if !bad[i] {
			ok[b] = true
		}
	}
	return ok, nil
}

// escapeAll escapes every template of ns as html/template would when it
// runs from the start of a page (Execute, ExecuteTemplate, partial), without
// running any of them: one template, never executed, calls them all. It
// returns the escaped trees by name, and the templates that are called from
// anything but plain text somewhere (and every template they call), whose
// escaped copies for those contexts are not among the trees.
func escapeAll(ns *template.Template) (map[string]*parse.Tree, map[string]bool, error) {
	trees, names := treesOf(ns)
	var b strings.Builder
	for _, t := range trees {
		if len(t.Root.Nodes) == 0 {
			continue // an empty block: nothing to escape, and not callable
		}
		for _, n := range names[t] {
			fmt.Fprintf(&b, "{{ if . }}{{ template %s . }}{{ end }}", strconv.Quote(n))
		}
	}
	const wrapper = "sitegen-hoist-escape"
	w, err := ns.New(wrapper).Parse(b.String())
	if err != nil {
		return nil, nil, err
	}
	if err := w.Execute(io.Discard, nil); err != nil {
		return nil, nil, err
	}
	seen := map[string]*parse.Tree{}
	calls := map[string][]string{}
	tainted := map[string]bool{}
	for _, t := range ns.Templates() {
		if t.Name() == wrapper || t.Tree == nil || t.Tree.Root == nil {
			continue
		}
		seen[t.Name()] = t.Tree
		walkTemplateNodes(t.Tree.Root, func(n *parse.TemplateNode) {
			if base, _, derived := strings.Cut(n.Name, "$htmltemplate_"); derived {
				tainted[base] = true
				calls[t.Name()] = append(calls[t.Name()], base)
			} else {
				calls[t.Name()] = append(calls[t.Name()], n.Name)
			}
		})
	}
	// What a tainted template calls runs in its contexts too.
	for changed := true; changed; {
		changed = false
		for name := range tainted {
			for _, c := range calls[name] {
				if !tainted[c] {
					tainted[c], changed = true, true
				}
			}
		}
	}
	return seen, tainted, nil
}

// badCalls escapes a clone of ns (escapeAll) and returns the calls of
// hoistFunc (by the region they run) that did not get the HTML text escaper
// alone, or sit in a template called from anything but text.
func badCalls(ns *template.Template) (map[int]bool, error) {
	clone, err := ns.Clone()
	if err != nil {
		return nil, err
	}
	seen, tainted, err := escapeAll(clone)
	if err != nil {
		return nil, err
	}
	bad := map[int]bool{}
	for name, tree := range seen {
		walkNodes(tree.Root, func(n parse.Node) {
			if id, esc, isCall := calledID(n, hoistFunc); isCall && (tainted[name] || len(esc) != 1 || esc[0] != escHTML) {
				bad[id] = true
			}
		})
	}
	return bad, nil
}
