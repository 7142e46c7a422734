package render

import (
	"bytes"
	"encoding/gob"
	"errors"
	"fmt"
	"html/template"
	"io/fs"
	"maps"
	"path"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"text/template/parse"

	"sitegen/pkg/cache"
	"sitegen/pkg/diag"
	"sitegen/pkg/htmlmin"
	"sitegen/pkg/tmplwalk"
)

// TemplatesDir is the templates folder of a site.
const TemplatesDir = "templates"

// source is one template file.
type source struct {
	name string // relative to templates/, e.g. "partials/header.html"
	text string
}

// templateFiles reads templates/ into base, shared (partials, sections) and layouts.
func templateFiles(fsys fs.FS) (base *source, shared, layouts []source, err error) {
	err = fs.WalkDir(fsys, TemplatesDir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() || !strings.HasSuffix(p, ".html") {
			return nil
		}
		b, err := fs.ReadFile(fsys, p)
		if err != nil {
			return err
		}
		s := source{name: strings.TrimPrefix(p, TemplatesDir+"/"), text: string(b)}
		switch {
		case s.name == "base.html":
			base = &s
		case strings.HasPrefix(s.name, "layouts/"):
			layouts = append(layouts, s)
		default:
			shared = append(shared, s)
		}
		return nil
	})
	sort.Slice(shared, func(i, j int) bool { return shared[i].name < shared[j].name })
	sort.Slice(layouts, func(i, j int) bool { return layouts[i].name < layouts[j].name })
	return base, shared, layouts, err
}

// parseSet parses the templates for one locale: the root (base + shared) and,
// per layout name, the template a page of that layout executes (base with
// the layout's blocks). With compact, the templates' text is compacted
// (htmlmin.CompactTemplates).
//
// The layouts share one namespace with the root: each layout's definitions
// are added under "name@layout" and each layout gets its own copy of base
// ("base.html@layout") that calls them, so the partials and sections are
// parsed, copied and escaped once per set rather than once per layout. alias
// maps, per layout, a name as the layout sees it to its name in the
// namespace. When a layout's definitions are used other than from base (a
// partial calling a block a layout defines, a layout redefining a partial),
// each layout gets a clone of the root instead, and alias is nil.
func parseSet(base *source, shared, layouts []source, funcs template.FuncMap, compact bool) (root *template.Template, out map[string]*template.Template, alias map[string]map[string]string, errs diag.List) {
	return parseSetShared(base, shared, layouts, funcs, compact, true)
}

// parseSetShared is parseSet; with share false every layout gets a clone of
// the root (tests compare the two).
func parseSetShared(base *source, shared, layouts []source, funcs template.FuncMap, compact, share bool) (root *template.Template, out map[string]*template.Template, alias map[string]map[string]string, errs diag.List) {
	root = template.New(base.name).Funcs(funcs)
	if _, err := root.Parse(base.text); err != nil {
		errs.Add(templateError(err))
		return nil, nil, nil, errs
	}
	markMain(root, funcs)
	for _, s := range shared {
		if _, err := root.New(s.name).Parse(s.text); err != nil {
			errs.Add(templateError(err))
		}
	}
	if len(errs) > 0 {
		return nil, nil, nil, errs
	}
	rootTrees, _ := treesOf(root)
	guardTemplateCalls(rootTrees)
	// Each layout's own templates, parsed apart from the root.
	defs := map[string][]*template.Template{}
	for _, l := range layouts {
		t := template.New(l.name).Funcs(funcs)
		if _, err := t.Parse(l.text); err != nil {
			errs.Add(templateError(err))
			continue
		}
		defs[layoutName(l)] = t.Templates()
		layoutTrees, _ := treesOf(t)
		guardTemplateCalls(layoutTrees)
	}
	if len(errs) > 0 {
		return nil, nil, nil, errs
	}
	if share && sharable(root, base.name, layouts, defs) {
		out, alias, errs = sharedLayouts(root, base.name, layouts, defs)
	} else {
		out, errs = clonedLayouts(root, layouts, defs)
	}
	if compact && len(errs) == 0 {
		htmlmin.CompactTemplates(trees(root, out))
	}
	return root, out, alias, errs
}

func layoutName(l source) string { return strings.TrimSuffix(path.Base(l.name), ".html") }

// sharable reports whether the layouts' definitions are used only from base
// and replace only base's own blocks, so that the layouts can share the
// root's namespace under renamed definitions.
func sharable(root *template.Template, baseName string, layouts []source, defs map[string][]*template.Template) bool {
	defined := map[string]bool{}
	for _, l := range layouts {
		for _, t := range defs[layoutName(l)] {
			if t.Name() == l.name {
				continue
			}
			if r := root.Lookup(t.Name()); r != nil && (t.Name() == baseName || r.Tree == nil || r.Tree.ParseName != baseName) {
				return false // it replaces a partial, a section or base itself
			}
			defined[t.Name()] = true
		}
	}
	ok := true
	for _, t := range root.Templates() {
		if t.Name() == baseName || t.Tree == nil {
			continue
		}
		walkTemplateRefs(t.Tree.Root, func(ref string) {
			if defined[ref] {
				ok = false
			}
		})
	}
	for _, l := range layouts {
		for _, t := range defs[layoutName(l)] {
			if t.Tree == nil {
				continue
			}
			walkTemplateRefs(t.Tree.Root, func(ref string) {
				if ref == baseName {
					ok = false
				}
			})
		}
	}
	return ok
}

// sharedLayouts adds every layout to root's namespace (see parseSet).
func sharedLayouts(root *template.Template, baseName string, layouts []source, defs map[string][]*template.Template) (map[string]*template.Template, map[string]map[string]string, diag.List) {
	var errs diag.List
	out := map[string]*template.Template{}
	alias := map[string]map[string]string{}
	baseTree := root.Lookup(baseName).Tree
	for _, l := range layouts {
		name := layoutName(l)
		names := map[string]string{baseName: baseName + "@" + name, l.name: l.name}
		for _, t := range defs[name] {
			if t.Name() != l.name && !keepsRoot(root, t) {
				names[t.Name()] = t.Name() + "@" + name
			}
		}
		rename := func(tree *parse.Tree) *parse.Tree {
			tree = tree.Copy()
			walkTemplateNodes(tree.Root, func(n *parse.TemplateNode) {
				if to, ok := names[n.Name]; ok && n.Name != baseName {
					n.Name = to
				}
			})
			return tree
		}
		for _, t := range defs[name] {
			if t.Tree == nil || (t.Name() != l.name && keepsRoot(root, t)) {
				continue
			}
			to := t.Name()
			if t.Name() != l.name {
				to = names[t.Name()]
			}
			if _, err := root.AddParseTree(to, rename(t.Tree)); err != nil {
				errs.Add(templateError(err))
			}
		}
		page, err := root.AddParseTree(names[baseName], rename(baseTree))
		if err != nil {
			errs.Add(templateError(err))
			continue
		}
		out[name], alias[name] = page, names
	}
	return out, alias, errs
}

// keepsRoot reports whether a layout's definition d leaves root's template
// of that name in place: an empty definition does not replace a template
// (as Parse does).
func keepsRoot(root, d *template.Template) bool {
	r := root.Lookup(d.Name())
	return r != nil && r.Tree != nil && d.Tree != nil && parse.IsEmptyTree(d.Tree.Root)
}

// walkTemplateNodes calls fn for every {{ template }} call below n.
func walkTemplateNodes(n parse.Node, fn func(*parse.TemplateNode)) {
	tmplwalk.Walk(n, func(n parse.Node) {
		if t, ok := n.(*parse.TemplateNode); ok {
			fn(t)
		}
	})
}

// clonedLayouts gives every layout its own clone of root.
func clonedLayouts(root *template.Template, layouts []source, defs map[string][]*template.Template) (map[string]*template.Template, diag.List) {
	var errs diag.List
	out := map[string]*template.Template{}
	for _, l := range layouts {
		t, err := root.Clone()
		if err != nil {
			errs.Add(templateError(err))
			continue
		}
		for _, d := range defs[layoutName(l)] {
			if d.Tree == nil { // (an empty definition leaves the root's in place, as in Parse)
				continue
			}
			if _, err := t.AddParseTree(d.Name(), d.Tree.Copy()); err != nil {
				errs.Add(templateError(err))
			}
		}
		out[layoutName(l)] = t
	}
	return out, errs
}

// trees lists the parse trees of root's templates and of every layout's,
// each once, in a fixed order.
func trees(root *template.Template, layouts map[string]*template.Template) []*parse.Tree {
	seen := map[*parse.Tree]bool{}
	var out []*parse.Tree
	add := func(t *template.Template) {
		list := t.Templates()
		sort.Slice(list, func(i, j int) bool { return list[i].Name() < list[j].Name() })
		for _, x := range list {
			if x.Tree != nil && !seen[x.Tree] {
				seen[x.Tree] = true
				out = append(out, x.Tree)
			}
		}
	}
	add(root)
	for _, name := range slices.Sorted(maps.Keys(layouts)) {
		add(layouts[name])
	}
	return out
}

var tmplErrRE = regexp.MustCompile(`template: ([^:\s]+\.html):(\d+)(?::(\d+))?: `)

// templateError turns an html/template error into a diagnostic at the
// template's file:line:col; for errors inside nested templates (sections,
// partials) the innermost position is the one reported.
func templateError(err error) diag.Diagnostic {
	if d, ok := err.(diag.Diagnostic); ok {
		return d
	}
	msg := err.Error()
	all := tmplErrRE.FindAllStringSubmatchIndex(msg, -1)
	if len(all) == 0 {
		return diag.Diagnostic{Pos: diag.Pos{File: TemplatesDir}, Message: msg}
	}
	m := all[len(all)-1]
	var td tooDeepError
	line, _ := strconv.Atoi(msg[m[4]:m[5]])
	col := 0
	if m[6] >= 0 {
		col, _ = strconv.Atoi(msg[m[6]:m[7]])
	}
	at := diag.Pos{File: path.Join(TemplatesDir, msg[m[2]:m[3]]), Line: line, Col: col}
	// A function that failed on content (a broken link in Markdown) returns
	// a diagnostic at the content's own position: report it there, with the
	// template as the related place, not as text inside the message.
	var list diag.List
	var inner diag.Diagnostic
	switch {
	case errors.As(err, &list) && len(list) > 0 && list.Sort()[0].Pos.File != "":
		return list[0].WithRelated(at, "used by")
	case errors.As(err, &inner) && inner.Pos.File != "":
		return inner.WithRelated(at, "used by")
	}
	if errors.As(err, &td) {
		return diag.Diagnostic{Pos: at, Message: string(td)}
	}
	return withFieldsHint(diag.Diagnostic{Pos: at, Message: cleanExecMessage(msg[m[1]:])})
}

var execRE = regexp.MustCompile(`^executing "[^"]*" at <([^>]*)>: (?:error calling \w+: )?(.*)$`)

func cleanExecMessage(m string) string {
	if x := execRE.FindStringSubmatch(m); x != nil {
		return fmt.Sprintf("%s: %s", x[1], x[2])
	}
	return m
}

// templateInfo is what a build needs to know of the templates before it
// renders: the names they define, the layouts, and the files each template
// runs (for Deps). It is computed from the parse trees, and kept in the build
// cache under the templates' sources, so that a build that renders nothing
// parses nothing.
type templateInfo struct {
	Names   map[string]bool
	Layouts map[string]bool
	Closure templateClosure
}

func infoOf(root *template.Template, layouts map[string]*template.Template, alias map[string]map[string]string) templateInfo {
	info := templateInfo{Names: map[string]bool{}, Layouts: map[string]bool{}, Closure: closureOf(layouts, alias)}
	for _, t := range root.Templates() {
		if !isLayoutCopy(t.Name(), alias) {
			info.Names[t.Name()] = true
		}
	}
	for name, t := range layouts {
		info.Layouts[name] = true
		for _, n := range layoutView(name, t, alias) {
			info.Names[n] = true
		}
	}
	return info
}

// layoutView lists the template names a page of the layout sees, as it sees
// them: in a namespace the layouts share (alias not nil, see parseSet),
// without the other layouts' templates and with the layout's own under their
// names in its file.
func layoutView(layout string, t *template.Template, alias map[string]map[string]string) []string {
	var out []string
	for _, tt := range t.Templates() {
		if n := tt.Name(); !isLayoutCopy(n, alias) && !otherLayoutFile(layout, n, alias) {
			out = append(out, n)
		}
	}
	for from := range alias[layout] {
		if t.Lookup(from) == nil {
			out = append(out, from)
		}
	}
	sort.Strings(out)
	return out
}

// isLayoutCopy reports whether name is a layout's renamed template in a
// shared namespace (parseSet).
func isLayoutCopy(name string, alias map[string]map[string]string) bool {
	for _, names := range alias {
		for from, to := range names {
			if to == name && from != name {
				return true
			}
		}
	}
	return false
}

// otherLayoutFile reports whether name is another layout's file in a shared
// namespace.
func otherLayoutFile(layout, name string, alias map[string]map[string]string) bool {
	for l, names := range alias {
		if l != layout && names[name] == name {
			return true
		}
	}
	return false
}

// infoKey names the templates' sources (CacheSalt names sitegen's version,
// which fixes the template functions).
func (r *Renderer) infoKey() cache.Key {
	parts := [][]byte{r.opts.CacheSalt, []byte("templates-1")}
	for _, s := range append(append([]source{*r.base}, r.shared...), r.layouts...) {
		parts = append(parts, []byte(s.name), []byte(s.text))
	}
	return cache.NewKey(parts...)
}

func loadInfo(c *cache.Store, k cache.Key) (templateInfo, bool) {
	var info templateInfo
	b, ok := c.Get(k)
	if !ok || gob.NewDecoder(bytes.NewReader(b)).Decode(&info) != nil || info.Names == nil {
		return templateInfo{}, false
	}
	return info, true
}

func storeInfo(c *cache.Store, k cache.Key, info templateInfo) {
	var buf bytes.Buffer
	if c != nil && gob.NewEncoder(&buf).Encode(&info) == nil {
		c.Put(k, buf.Bytes())
	}
}
