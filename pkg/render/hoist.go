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
// consecutive statements that qualify (hoistscan.go, constNode: an allow-list of
// functions, and no read of the page's dot, of $ or of a variable declared
// outside the run). html/template's own context analysis (hoistescape.go) decides where
// a run may be cut out: a clone of the namespace gets a probe (a call of a
// template that writes nothing, which changes no context) at each boundary
// of each run and is escaped; a boundary counts only where the escaper left
// the probe's name alone, that is, found it in plain HTML text, and in a
// template that is never called from anything but text. A region is a run
// cut at two such boundaries; it is replaced by {{ sitegenHoist N }}, a
// function returning template.HTML. A last escape of a clone of the
// finished namespace checks that each of those actions got only the HTML
// text escaper (which passes template.HTML through unchanged); the regions
// whose calls did not are put back. Only a renderer's first set is analysed; the
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
