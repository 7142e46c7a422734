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

// parseSet parses the templates for one locale: the root (base + shared) and
// a clone of it per layout, keyed by layout name. With compact, the
// templates' text is compacted (htmlmin.CompactTemplates).
func parseSet(base *source, shared, layouts []source, funcs template.FuncMap, compact bool) (*template.Template, map[string]*template.Template, diag.List) {
	var errs diag.List
	root := template.New(base.name).Funcs(funcs)
	if _, err := root.Parse(base.text); err != nil {
		errs.Add(templateError(err))
		return nil, nil, errs
	}
	markMain(root, funcs)
	for _, s := range shared {
		if _, err := root.New(s.name).Parse(s.text); err != nil {
			errs.Add(templateError(err))
		}
	}
	if len(errs) > 0 {
		return nil, nil, errs
	}
	out := map[string]*template.Template{}
	for _, l := range layouts {
		t, err := root.Clone()
		if err != nil {
			errs.Add(templateError(err))
			continue
		}
		if _, err := t.New(l.name).Parse(l.text); err != nil {
			errs.Add(templateError(err))
			continue
		}
		out[strings.TrimSuffix(path.Base(l.name), ".html")] = t
	}
	if compact && len(errs) == 0 {
		htmlmin.CompactTemplates(trees(root, out))
	}
	return root, out, errs
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
	return diag.Diagnostic{Pos: at, Message: cleanExecMessage(msg[m[1]:])}
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

func infoOf(root *template.Template, layouts map[string]*template.Template) templateInfo {
	info := templateInfo{Names: map[string]bool{}, Layouts: map[string]bool{}, Closure: closureOf(layouts)}
	for _, t := range root.Templates() {
		info.Names[t.Name()] = true
	}
	for name, t := range layouts {
		info.Layouts[name] = true
		for _, tt := range t.Templates() {
			info.Names[tt.Name()] = true
		}
	}
	return info
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
