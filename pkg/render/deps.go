package render

import (
	"html/template"
	"sort"
	"strings"
	"text/template/parse"

	"sitegen/pkg/tmplwalk"
)

// Deps records what one render used: the pages it linked to, listed or named,
// the data sets, UI strings, templates, islands, assets and files it read.
// The dev server inverts these into its dependency graph, so an edit
// re-renders exactly the pages that used what changed. A Deps belongs to one
// render; it is not safe for concurrent use. A nil *Deps records nothing.
type Deps map[string]struct{}

// Keys of a Deps; each kind has its own prefix.
//
// DepRoute is a page's URL (and whether it exists, or is a fallback): what a
// link or the language switcher shows. DepPage is what a listing shows of it
// (title, description, date, summary, image).
func DepRoute(lang, id string) string { return "route:" + lang + "/" + id }
func DepPage(lang, id string) string  { return "page:" + lang + "/" + id }
func DepURL(url string) string        { return "url:" + url }
func DepList(lang, url string) string { return "list:" + lang + ":" + url }

// DepPager is what one page of a paged list (route.Pager, at url) holds:
// which pages or records, out of how many.
func DepPager(lang, url string) string { return "pager:" + lang + ":" + url }
func DepData(lang, name string) string { return "data:" + lang + "/" + name }
func DepString(lang, key string) string {
	return "str:" + lang + "/" + key
}
func DepFile(file string) string     { return "file:" + file }
func DepTemplate(file string) string { return "tpl:" + file }
func DepIsland(name string) string   { return "island:" + name }
func DepAsset(name string) string    { return "asset:" + name }

// DepStyle is a stylesheet written inline into the page (its text, not
// its URL).
func DepStyle(name string) string { return "style:" + name }
func DepStatic(p string) string   { return "static:" + p }

// DepImage is a source image (a site path, as the picture function and
// Markdown images name it) that a page shows through its variants.
func DepImage(p string) string { return "image:" + p }

func (d Deps) add(key string) {
	if d != nil {
		d[key] = struct{}{}
	}
}

// Sorted returns the keys in order (for tests and logs).
func (d Deps) Sorted() []string {
	out := make([]string, 0, len(d))
	for k := range d {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// link records a resolved link: the route at its path, and the page there.
func (r *Renderer) link(d Deps, lang, resolved string) {
	if d == nil || !strings.HasPrefix(resolved, "/") {
		return
	}
	u := resolved
	if i := strings.IndexAny(u, "?#"); i >= 0 {
		u = u[:i]
	}
	d.add(DepURL(u))
	if e, ok := r.opts.Plan.ByURL(u); ok {
		d.add(DepRoute(e.Lang, e.ID))
	}
}

// templateFiles maps, per layout, a template name to the files it and every
// template it includes with {{ template }} are defined in. Computed once from
// the parse trees, before any execution.
type templateClosure map[string]map[string][]string // layout -> name -> files

func closureOf(sets map[string]*template.Template, alias map[string]map[string]string) templateClosure {
	out := templateClosure{}
	for layout, set := range sets {
		memo := map[string][]string{}
		var files func(name string, seen map[string]bool)
		acc := map[string]bool{}
		files = func(name string, seen map[string]bool) {
			if seen[name] {
				return
			}
			seen[name] = true
			t := set.Lookup(name)
			if to, ok := alias[layout][name]; ok { // base.html and the layout's blocks, as the layout sees them
				t = set.Lookup(to)
			}
			if t == nil || t.Tree == nil {
				return
			}
			acc[TemplatesDir+"/"+t.Tree.ParseName] = true
			walkTemplateRefs(t.Tree.Root, func(ref string) { files(ref, seen) })
		}
		for _, name := range layoutView(layout, set, alias) {
			clear(acc)
			files(name, map[string]bool{})
			list := make([]string, 0, len(acc))
			for f := range acc {
				list = append(list, f)
			}
			sort.Strings(list)
			memo[name] = list
		}
		out[layout] = memo
	}
	return out
}

func walkTemplateRefs(n parse.Node, fn func(string)) {
	tmplwalk.Walk(n, func(n parse.Node) {
		if t, ok := n.(*parse.TemplateNode); ok {
			fn(t.Name)
		}
	})
}

// template records the files behind a template name executed for a page.
func (r *Renderer) template(d Deps, layout, name string) {
	if d == nil {
		return
	}
	for _, f := range r.closure[layout][name] {
		d.add(DepTemplate(f))
	}
}
