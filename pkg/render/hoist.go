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

// Hoisting: a run of template nodes whose output depends only on the
// locale and on what the renderer was given (data sets, UI strings, routes,
// assets), never on the page, is rendered once per locale and its bytes are
// reused for every other page of that locale. A footer built from a data set
// or a menu of translated labels costs one execution per locale instead of
// one per page.
//
// At parse time (hoistSet) each namespace's trees are searched for runs of
// consecutive statements that qualify (see constNode: an allow-list of
// functions, and no read of the page's dot, of $ or of a variable declared
// outside the run). html/template's own context analysis then decides where
// a run may be cut out: a clone of the namespace gets a probe (a call of a
// template that writes nothing, which changes no context) at each boundary
// of each run and is escaped; a boundary counts only where the escaper left
// the probe's name alone, that is, found it in plain HTML text, and in a
// template that is never called from anything but text. A region is a run
// cut at two such boundaries; it is replaced by {{ sitegenHoist N }}, a
// function returning template.HTML. A last escape of a clone of the
// finished namespace checks that each of those actions got only the HTML
// text escaper (which passes template.HTML through unchanged); otherwise
// every replacement is undone. Only a renderer's first set is analysed; the
// sets parsed after it take the regions from its plan, place by place, once
// each place is seen to hold the same nodes.
//
// A template that cannot be escaped on its own from plain text (one that
// ends inside a tag, say) keeps its whole namespace from being hoisted.
//
// At run time (Renderer.runHoisted) a region is executed, as a template of
// its own built from the region's nodes, on the first page of a locale that
// reaches it, with the page's dependency set swapped for an empty one. The
// bytes and the dependencies it recorded are kept by (locale, region) for
// the renderer's life (Rebind forgets them); every later page of the locale
// gets the same bytes and the same dependencies added. A region whose run
// touched the page's own state (a Markdown image's picture and preload) is
// not kept; it runs again on each page. Errors are not kept either: each
// page reports them, at the same template file and line.

const (
	hoistFunc = "sitegenHoist"
	probeFunc = "sitegenHoistProbe"
	escHTML   = "_html_template_htmlescaper"
	// NoHoistEnv, set to 1, turns hoisting off (tests compare with it; it
	// also helps to tell a hoisting fault from a template fault).
	NoHoistEnv = "SITEGEN_NOHOIST"
)

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
	"t": true, "tnull": true, "data": true, "ref": true, "link": true, "pages": true,
	"md": true, "mdblock": true,
	"asset": true, "stylesheet": true, "icon": true,
	"dict": true, "list": true, "append": true, "add": true, "sub": true, "mul": true, "mod": true,
	"seq": true, "default": true, "join": true, "split": true, "lower": true, "upper": true,
	"contains": true, "hasPrefix": true, "trim": true, "safeHTML": true, "jsonify": true,
	"slugify": true, "str": true, "fileExt": true, "dateStatus": true, "daysSince": true,
}

// hoistUnsafe lists the template functions that keep a region from being
// hoisted (a test checks that every function is in one list or the other).
var hoistUnsafe = map[string]bool{
	"partial": true, "section": true, "sections": true, "picture": true, "image": true,
	"island": true, "scripts": true, mainStartFunc: true, mainEndFunc: true,
	"showAnnouncement": true, "fileSize": true, "call": true,
}

// hoistRegion is one hoisted region of a parsed set.
type hoistRegion struct {
	id int                // the region's memo id (Renderer.regionID)
	t  *template.Template // the region's nodes as a template of their own
}

type hoistKey struct {
	lang string
	id   int
}

// hoistMemo is a region's output in one locale and the dependencies its
// render recorded.
type hoistMemo struct {
	html template.HTML
	deps []string
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

// namespaces lists the distinct template namespaces of a parsed set: the
// root's, and each layout's that has one of its own (parseSet).
func namespaces(root *template.Template, layouts map[string]*template.Template) []*template.Template {
	out := []*template.Template{root}
	names := make([]string, 0, len(layouts))
	for n := range layouts {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		t := layouts[n]
		if root.Lookup(t.Name()) != t {
			out = append(out, t)
		}
	}
	return out
}

// treesOf maps each tree of a namespace to the names it is defined under,
// in a fixed order.
func treesOf(ns *template.Template) ([]*parse.Tree, map[*parse.Tree][]string) {
	list := ns.Templates()
	sort.Slice(list, func(i, j int) bool { return list[i].Name() < list[j].Name() })
	names := map[*parse.Tree][]string{}
	var trees []*parse.Tree
	for _, t := range list {
		if t.Tree == nil || t.Tree.Root == nil {
			continue
		}
		if names[t.Tree] == nil {
			trees = append(trees, t.Tree)
		}
		names[t.Tree] = append(names[t.Tree], t.Name())
	}
	return trees, names
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

// hoistSet finds the regions of a parsed set and replaces each by a call of
// hoistFunc; call runs region i of the returned list. funcs are the
// functions the set was parsed with (the regions run with them). The first
// set a renderer parses is analysed; the renderer keeps where its regions
// are (the plan) and the sets parsed after it from the same sources take
// them from there, after checking that each place holds the same nodes. A
// namespace that cannot be analysed is left as it is.
func (r *Renderer) hoistSet(root *template.Template, layouts map[string]*template.Template, funcs template.FuncMap, call func(int) (template.HTML, error)) []hoistRegion {
	nss := namespaces(root, layouts)
	r.hoistMu.Lock()
	plan := r.hoistPlan
	r.hoistMu.Unlock()
	var out []hoistRegion
	analysed := make([][]placed, len(nss))
	fresh := false
	for i, ns := range nss {
		if len(plan) == len(nss) {
			var ok bool
			if out, _, ok = r.place(ns, plan[i], funcs, call, out, false); ok {
				analysed[i] = plan[i]
				continue
			}
		}
		out, analysed[i], _ = r.place(ns, analyse(ns), funcs, call, out, true)
		fresh = true
	}
	if fresh {
		r.hoistMu.Lock()
		r.hoistPlan = analysed
		r.hoistMu.Unlock()
	}
	return out
}

// placed is a region of a namespace: list.Nodes[a:b] of the list at path
// in the template name, and its key (regionKey).
type placed struct {
	name string
	path []step
	a, b int
	key  string
}

// analyse finds the regions of a namespace.
func analyse(ns *template.Template) []placed {
	trees, names := treesOf(ns)
	var runs []*run
	for _, t := range trees {
		findRuns(t, t.Root, nil, &runs)
	}
	if len(runs) == 0 {
		return nil
	}
	// Probe every boundary of every run.
	var at []boundary
	for _, rn := range runs {
		for p := rn.start; p <= rn.end; p++ {
			at = append(at, boundary{rn, p})
		}
	}
	ok, err := probe(ns, names, at)
	if err != nil {
		return nil
	}
	var out []placed
	for _, rn := range runs {
		var text []int
		for p := rn.start; p <= rn.end; p++ {
			if ok[boundary{rn, p}] {
				text = append(text, p)
			}
		}
		for _, g := range cut(rn, text) {
			out = append(out, placed{name: names[g.tree][0], path: g.path, a: g.a, b: g.b, key: regionKey(g.tree, g.list.Nodes[g.a:g.b])})
		}
	}
	return out
}

// replacement is a region replaced by a call in its list.
type replacement struct {
	p      placed
	list   *parse.ListNode
	region hoistRegion
	nodes  []parse.Node // what the call stands for
}

// place replaces the regions of plan in ns by calls, after checking that
// each place holds the nodes the plan names (else it changes nothing and
// reports false), and returns the regions it placed. With check, each
// region is escaped on its own at once (one that fails stays in place), and
// html/template's escaping of the finished namespace must give each call
// the HTML text escaper alone (badCalls); the regions whose call it does
// not are put back, and the rest checked again.
func (r *Renderer) place(ns *template.Template, plan []placed, funcs template.FuncMap, call func(int) (template.HTML, error), out []hoistRegion, check bool) ([]hoistRegion, []placed, bool) {
	lists := make([]*parse.ListNode, len(plan))
	trees := make([]*parse.Tree, len(plan))
	for i, p := range plan {
		t := ns.Lookup(p.name)
		if t == nil || t.Tree == nil {
			return out, nil, false
		}
		l := listAt(t.Tree.Root, p.path)
		if l == nil || p.b > len(l.Nodes) || p.a >= p.b || regionKey(t.Tree, l.Nodes[p.a:p.b]) != p.key {
			return out, nil, false
		}
		lists[i], trees[i] = l, t.Tree
	}
	if len(plan) == 0 {
		return out, nil, true
	}
	// Per list, from the last region on, so that the places of the others
	// hold.
	group := map[*parse.ListNode]int{}
	order := make([]int, len(plan))
	for i, l := range lists {
		if _, ok := group[l]; !ok {
			group[l] = len(group)
		}
		order[i] = i
	}
	sort.SliceStable(order, func(x, y int) bool {
		if gx, gy := group[lists[order[x]]], group[lists[order[y]]]; gx != gy {
			return gx < gy
		}
		return plan[order[x]].a > plan[order[y]].a
	})
	ns.Funcs(template.FuncMap{hoistFunc: call})
	var todo []replacement
	for _, i := range order {
		p, l := plan[i], lists[i]
		nodes := append([]parse.Node{}, l.Nodes[p.a:p.b]...)
		t, err := regionTemplate(trees[i], p.name, nodes, funcs, check)
		if err != nil {
			continue
		}
		todo = append(todo, replacement{p: p, list: l, region: hoistRegion{id: r.regionID(p.key), t: t}, nodes: nodes})
	}
	first := len(out)
	for {
		out = out[:first]
		for _, d := range todo {
			act := callAction(hoistFunc, len(out), d.nodes[0].Position())
			out = append(out, d.region)
			d.list.Nodes = append(d.list.Nodes[:d.p.a], append([]parse.Node{act}, d.list.Nodes[d.p.b:]...)...)
		}
		if !check || len(todo) == 0 {
			break
		}
		bad, err := badCalls(ns)
		if err == nil && len(bad) == 0 {
			break
		}
		for i := len(todo) - 1; i >= 0; i-- { // put every region back
			d := todo[i]
			d.list.Nodes = append(d.list.Nodes[:d.p.a], append(d.nodes, d.list.Nodes[d.p.a+1:]...)...)
		}
		if err != nil {
			return out[:first], nil, false
		}
		var keep []replacement
		for i, d := range todo {
			if !bad[first+i] {
				keep = append(keep, d)
			}
		}
		if len(keep) == len(todo) { // refused, but none of them: leave all out
			return out[:first], nil, false
		}
		todo = keep
	}
	kept := make([]placed, len(todo))
	for i, d := range todo {
		kept[i] = d.p
	}
	return out, kept, true
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

// regionTemplate makes a copy of nodes (a region of tree, a template named
// name) a template of its own, under the same name, so that errors read as
// they would in place; the nodes keep their tree, so errors name its file
// and line. With escape, it is escaped now (from plain text, as in place),
// which checks that it ends in text; else when it first runs.
func regionTemplate(tree *parse.Tree, name string, nodes []parse.Node, funcs template.FuncMap, escape bool) (*template.Template, error) {
	own := *tree // the source text, for positions of nodes without a tree
	own.Name = name
	own.Root = &parse.ListNode{NodeType: parse.NodeList, Pos: nodes[0].Position()}
	for _, n := range nodes { // copies: escaping edits them, and an undo puts the originals back
		own.Root.Nodes = append(own.Root.Nodes, n.Copy())
	}
	t, err := template.New(name).Funcs(funcs).AddParseTree(name, &own)
	if err != nil || !escape {
		return t, err
	}
	w, err := t.New("sitegen-hoist-escape").Parse(fmt.Sprintf("{{ if . }}{{ template %s . }}{{ end }}", strconv.Quote(name)))
	if err != nil {
		return nil, err
	}
	if err := w.Execute(io.Discard, nil); err != nil {
		return nil, err
	}
	return t.Lookup(name), nil
}

// regionKey names a region for the memo: its file, where it starts and
// what it holds, so that every set parsed from the same templates (and
// every layout's copy of base.html) gives it the same key.
func regionKey(tree *parse.Tree, nodes []parse.Node) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s\x00%d\x00", tree.ParseName, nodes[0].Position())
	for _, n := range nodes {
		b.WriteString(n.String())
	}
	return b.String()
}

// regionID numbers region keys, for the memo.
func (r *Renderer) regionID(key string) int {
	r.hoistMu.Lock()
	defer r.hoistMu.Unlock()
	if r.regionIDs == nil {
		r.regionIDs = map[string]int{}
	}
	id, ok := r.regionIDs[key]
	if !ok {
		id = len(r.regionIDs)
		r.regionIDs[key] = id
	}
	return id
}

// effects is what a render may change on the page besides its output and
// dependencies.
type effects struct {
	preloads, pictures, islands int
	scripts, start, end         bool
}

func (st *execState) effects() effects {
	return effects{len(st.preloads), len(st.pictures), len(st.marks.islands), st.marks.hasScripts, st.marks.hasStart, st.marks.hasEnd}
}

// runHoisted returns the output of region i of the page's set: kept from
// the first page of the locale, or rendered now (see the top of this file).
func (r *Renderer) runHoisted(st *execState, i int) (template.HTML, error) {
	if i < 0 || i >= len(st.set.hoists) {
		return "", fmt.Errorf("%s: no region %d", hoistFunc, i)
	}
	h := st.set.hoists[i]
	k := hoistKey{st.lang, h.id}
	if v, ok := r.hoisted.Load(k); ok {
		m := v.(*hoistMemo)
		for _, d := range m.deps {
			st.deps.add(d)
		}
		return m.html, nil
	}
	outer, before := st.deps, st.effects()
	used := Deps{}
	st.deps = used
	var b strings.Builder
	err := h.t.Execute(&b, nil)
	st.deps = outer
	for d := range used {
		outer.add(d)
	}
	if err != nil {
		return "", err
	}
	html := template.HTML(b.String())
	if st.effects() == before {
		r.hoisted.LoadOrStore(k, &hoistMemo{html: html, deps: used.Sorted()})
	}
	return html, nil
}

// HoistedRegions returns how many outputs of hoisted regions (one per
// locale and region) the renderer keeps.
func (r *Renderer) HoistedRegions() int {
	n := 0
	r.hoisted.Range(func(any, any) bool { n++; return true })
	return n
}
