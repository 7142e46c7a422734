package render

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"html/template"
	"image"
	_ "image/gif"  // image sizes
	_ "image/jpeg" // image sizes
	_ "image/png"  // image sizes
	"io/fs"
	"path"
	"reflect"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"golang.org/x/text/language"
	"golang.org/x/text/message"
	"golang.org/x/text/number"

	"sitegen/pkg/content"
	"sitegen/pkg/markdown"
	"sitegen/pkg/route"
)

// SectionContext is what a section template gets as ".".
type SectionContext struct {
	S    content.Section
	Data any
	P    *PageContext
}

// PageLink is a page in a listing.
type PageLink struct {
	ID, Title, URL, Date, Summary, Image string
	ImageFile                            content.File // the cover, for picture (its position names a missing alt)
	ImageAlt                             string       // params.imageAlt
	Description                          string
	Tags                                 []string              // the front matter's tags
	Terms                                map[string][]TermLink // per taxonomy: the terms the front matter lists
	Params                               map[string]any        // the front matter's params
	NoIndex                              bool                  // an error page or params.noindex: not for search engines, feeds or indexes
	Fallback                             bool                  // shown from the default locale
}

// funcs returns the template functions; st is the state of the render call
// the template set they are parsed into serves (its locale included, so one
// set serves every locale).
func (r *Renderer) funcs(st *execState) template.FuncMap {
	resolve := func(target string) (string, error) {
		u, err := r.opts.Plan.Resolve(st.lang, target)
		if err == nil {
			r.link(st.deps, st.lang, u)
		}
		return u, err
	}
	str := func(key string) {
		st.deps.add(DepString(st.lang, key))
		st.deps.add(DepString(r.opts.Plan.Default.Code, key))
	}
	return template.FuncMap{
		"t": func(key string, def ...string) string {
			str(key)
			if len(def) > 0 {
				return r.opts.Catalog.TDefault(st.lang, key, def[0])
			}
			return r.opts.Catalog.T(st.lang, key)
		},
		"tnull": func(key string) any {
			str(key)
			if s := r.opts.Catalog.TNull(st.lang, key); s != nil {
				return *s
			}
			return nil
		},
		"ref": func(id string) (string, error) {
			if !strings.HasPrefix(id, "ref:") {
				id = "ref:" + id
			}
			return resolve(id)
		},
		"link": func(v any) (string, error) {
			switch l := v.(type) {
			case content.Link:
				return resolve(l.Target)
			case *content.Link:
				return resolve(l.Target)
			case string:
				return resolve(l)
			}
			return "", fmt.Errorf("link: cannot resolve a %T", v)
		},
		"data": func(name string) (any, error) {
			s, ok := r.data(st.deps, st.lang, name)
			if !ok {
				return nil, fmt.Errorf("unknown data set %q", name)
			}
			return s.Value, nil
		},
		"md": func(v any) (template.HTML, error) {
			return r.markdownOnce(st, st.lang, false, textSource(v))
		},
		"mdblock": func(v any) (template.HTML, error) {
			return r.markdownOnce(st, st.lang, true, textSource(v))
		},
		"partial": func(name string, data any) (template.HTML, error) {
			t := st.set.root.Lookup(name)
			if t == nil {
				return "", fmt.Errorf("partial: no template %q", name)
			}
			r.template(st.deps, st.layout, name)
			return st.execNested(name, func(b *strings.Builder) error { return t.Execute(b, data) })
		},
		"append": func(list any, items ...any) ([]any, error) {
			var out []any
			if list != nil {
				rv := reflect.ValueOf(list)
				if rv.Kind() != reflect.Slice && rv.Kind() != reflect.Array {
					return nil, fmt.Errorf("append: %T is not a list", list)
				}
				out = make([]any, 0, rv.Len()+len(items))
				for i := 0; i < rv.Len(); i++ {
					out = append(out, rv.Index(i).Interface())
				}
			}
			return append(out, items...), nil
		},
		"section":  func(s content.Section, pc *PageContext) (template.HTML, error) { return r.section(st, s, pc) },
		"sections": func(pc *PageContext) (template.HTML, error) { return r.sections(st, pc) },
		"pages":    func(id string) ([]PageLink, error) { return r.pages(st.deps, st.lang, id) },
		"taxonomy": func(name string) (TaxonomyInfo, error) {
			if _, ok := r.opts.Config.Taxonomy(name); !ok {
				return TaxonomyInfo{}, fmt.Errorf("taxonomy: site.yaml declares no taxonomy %q", name)
			}
			ti, _ := r.taxonomy(st.lang, name)
			return ti, nil
		},
		"asset": func(name string) (string, error) {
			st.deps.add(DepAsset(name))
			if u, ok := r.opts.Assets[name]; ok {
				return u, nil
			}
			return "", fmt.Errorf("unknown asset %q", name)
		},
		"stylesheet": func(name string) (template.HTML, error) {
			if css, ok := r.opts.InlineStyles[name]; ok {
				st.deps.add(DepStyle(name))
				return template.HTML("<style>" + css + "</style>"), nil
			}
			st.deps.add(DepAsset(name))
			if u, ok := r.opts.Assets[name]; ok {
				return template.HTML(`<link rel="stylesheet" href="` + template.HTMLEscapeString(u) + `">`), nil
			}
			return "", fmt.Errorf("unknown stylesheet %q", name)
		},
		"icon": func(name string, class ...string) (template.HTML, error) {
			if name != "" && !strings.ContainsAny(name, "/.\\") {
				st.deps.add(DepFile(path.Join(r.opts.IconDir, name+".svg")))
			}
			return r.icon(name, class...)
		},
		"image": func(v any, alt string, class ...string) (template.HTML, error) {
			return r.image(st.deps, v, alt, class...)
		},
		"picture": func(v any, alt string, opts ...map[string]any) (template.HTML, error) {
			return r.picture(st, v, alt, opts...)
		},
		"island": func(name string, props any, directive string, children ...template.HTML) (template.HTML, error) {
			st.deps.add(DepIsland(name))
			return r.island(st, name, props, directive, children...)
		},
		"scripts":          st.slot,
		enterFunc:          func(name string) (bool, error) { return false, st.enter(name) },
		leaveFunc:          func() bool { st.leave(); return false },
		mainStartFunc:      func() string { return st.mark(false) },
		mainEndFunc:        func() string { return st.mark(true) },
		"showAnnouncement": func(v any) (bool, error) { return r.showAnnouncement(st.deps, st.lang, v) },
		"dict":             dict,
		"list": func(v ...any) []any {
			if v == nil {
				return []any{} // an empty list, JSON [] in island props
			}
			return v
		},
		"add": func(a, b int) int { return a + b },
		"sub": func(a, b int) int { return a - b },
		"mul": func(a, b int) int { return a * b },
		"mod": func(a, b int) int { return a % b },
		"seq": func(n int) []int {
			s := make([]int, n)
			for i := range s {
				s[i] = i + 1
			}
			return s
		},
		"default": func(def, v any) any {
			if isZero(v) {
				return def
			}
			return v
		},
		"join":      func(sep string, v []string) string { return strings.Join(v, sep) },
		"split":     strings.Split,
		"lower":     strings.ToLower,
		"upper":     strings.ToUpper,
		"contains":  strings.Contains,
		"hasPrefix": strings.HasPrefix,
		"trim":      strings.TrimSpace,
		"safeHTML":  func(s string) template.HTML { return template.HTML(s) },
		"jsonify": func(v any) (string, error) {
			b, err := json.Marshal(v)
			return string(b), err
		},
		"slugify":    markdown.Slugify,
		"str":        func(v any) string { return fmt.Sprint(v) },
		"dateStatus": r.dateStatus,
		"toc":        toc,
		"localDate":  func(style string, date any) (string, error) { return localDate(st.lang, style, date) },
		"daysSince":  r.daysSince,
		"fileSize":   func(v any) (string, error) { return r.fileSize(v, st.lang) },
		"number":     func(v any, decimals ...int) (string, error) { return formatNumber(v, st.lang, decimals...) },
		"fileExt": func(v any) string {
			return strings.TrimPrefix(strings.ToLower(path.Ext(fmt.Sprint(v))), ".")
		},
	}
}

func textSource(v any) markdown.Source {
	switch t := v.(type) {
	case content.Text:
		return markdown.Source{Text: []byte(t.Source), Pos: t.Pos}
	case *content.Text:
		return markdown.Source{Text: []byte(t.Source), Pos: t.Pos}
	case nil:
		return markdown.Source{}
	}
	return markdown.Source{Text: []byte(fmt.Sprint(v))}
}

func dict(kv ...any) (map[string]any, error) {
	if len(kv)%2 != 0 {
		return nil, errors.New("dict needs key and value pairs")
	}
	m := make(map[string]any, len(kv)/2)
	for i := 0; i < len(kv); i += 2 {
		k, ok := kv[i].(string)
		if !ok {
			return nil, fmt.Errorf("dict key %v is not a string", kv[i])
		}
		m[k] = kv[i+1]
	}
	return m, nil
}

func isZero(v any) bool {
	if v == nil {
		return true
	}
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Slice, reflect.Map, reflect.String:
		return rv.Len() == 0
	}
	if e, ok := v.(interface{ IsEmpty() bool }); ok {
		return e.IsEmpty()
	}
	return rv.IsZero()
}

// section renders templates/sections/<type>.html for one section.
func (r *Renderer) section(st *execState, s content.Section, pc *PageContext) (template.HTML, error) {
	if r.isBody(s) {
		return pc.Page.Content, nil
	}
	sc := SectionContext{S: s, P: pc}
	if s.Data != "" {
		ds, ok := r.data(st.deps, pc.Lang, s.Data)
		if !ok {
			return "", fmt.Errorf("%s: unknown data set %q", s.DataPos, s.Data)
		}
		sc.Data = ds.Value
	}
	t := st.set.layouts[pc.Page.Layout]
	r.template(st.deps, pc.Page.Layout, "sections/"+s.Type+".html")
	name := "sections/" + s.Type + ".html"
	return st.execNested(name, func(b *strings.Builder) error { return t.ExecuteTemplate(b, name, sc) })
}

// sections renders every section, and the body where a body section stands
// or else after them.
func (r *Renderer) sections(st *execState, pc *PageContext) (template.HTML, error) {
	var b strings.Builder
	hasBody := false
	for _, s := range pc.Page.Sections {
		if r.isBody(s) {
			hasBody = true
		}
		h, err := r.section(st, s, pc)
		if err != nil {
			return "", err
		}
		b.WriteString(string(h))
	}
	if !hasBody && strings.TrimSpace(string(pc.Page.Content)) != "" {
		h, err := r.trailingBody(st, pc)
		if err != nil {
			return "", err
		}
		b.WriteString(string(h))
	}
	return template.HTML(b.String()), nil
}

// isBody reports whether s is of the site's body section type (site.yaml
// markdown.bodySection).
func (r *Renderer) isBody(s content.Section) bool {
	return s.Type != "" && s.Type == r.bodySection()
}

// bodySection is the site's body section type, "" for none.
func (r *Renderer) bodySection() string {
	if r.opts.Config == nil {
		return ""
	}
	return r.opts.Config.Markdown.BodySection
}

// trailingBody renders the Markdown body that no body section places: with
// templates/sections/<body section type>.html when the site names a body
// section type and has that template (context .P, the page, and .S, a
// section of that type), else as it is. How a body looks is the site's
// business, not the engine's.
func (r *Renderer) trailingBody(st *execState, pc *PageContext) (template.HTML, error) {
	typ := r.bodySection()
	name := "sections/" + typ + ".html"
	if typ == "" || !r.HasTemplate(name) {
		return pc.Page.Content, nil
	}
	t := st.set.layouts[pc.Page.Layout]
	r.template(st.deps, pc.Page.Layout, name)
	sc := SectionContext{S: content.Section{Type: typ}, P: pc}
	return st.execNested(name, func(b *strings.Builder) error { return t.ExecuteTemplate(b, name, sc) })
}

// pages lists the pages below page id in lang, newest first.
func (r *Renderer) pages(d Deps, lang, id string) ([]PageLink, error) {
	d.add(DepRoute(lang, id))
	parent, ok := r.opts.Plan.Lookup(lang, id)
	if !ok {
		return nil, fmt.Errorf("pages: unknown page id %q", id)
	}
	d.add(DepList(lang, parent.URL))
	var out []PageLink
	for _, e := range r.opts.Plan.Below(parent) {
		out = append(out, r.pageLink(d, e))
	}
	sortLinks(out)
	return out, nil
}

// pageLink is entry e as an item of a listing (recorded in d).
func (r *Renderer) pageLink(d Deps, e *route.Entry) PageLink {
	d.add(DepRoute(e.Lang, e.ID))
	d.add(DepPage(e.Lang, e.ID))
	alt, _ := e.Page.Params["imageAlt"].(string)
	return PageLink{ID: e.ID, Title: e.Page.Title, URL: e.URL, Date: e.Page.Date, Summary: e.Page.Summary, Image: e.Page.Image.Path,
		ImageFile: e.Page.Image, ImageAlt: alt, Description: e.Page.Description, Tags: e.Page.Tags, Params: e.Page.Params,
		NoIndex: e.NoIndex(), Fallback: e.Fallback, Terms: r.termsOf(e)}
}

func sortLinks(out []PageLink) {
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && less(out[j], out[j-1]); j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
}

func less(a, b PageLink) bool {
	if a.Date != b.Date {
		return a.Date > b.Date
	}
	return a.URL < b.URL
}

// svgOpenRE matches the opening tag of an icon's root element.
var (
	svgOpenRE  = regexp.MustCompile(`<svg\b[^>]*>`)
	svgClassRE = regexp.MustCompile(`\sclass="[^"]*"`)
)

// icon returns an inline SVG icon, decorative (aria-hidden).
func (r *Renderer) icon(name string, class ...string) (template.HTML, error) {
	key := name + "|" + strings.Join(class, " ")
	if v, ok := r.icons.Load(key); ok {
		return v.(template.HTML), nil
	}
	if strings.ContainsAny(name, "/.\\") || name == "" {
		return "", fmt.Errorf("invalid icon name %q", name)
	}
	b, err := fs.ReadFile(r.opts.FS, path.Join(r.opts.IconDir, name+".svg"))
	if err != nil {
		return "", fmt.Errorf("unknown icon %q (no %s/%s.svg; the icon set is icons.dir in site.yaml)", name, r.opts.IconDir, name)
	}
	s := string(b)
	if i := strings.Index(s, "<svg"); i > 0 {
		s = s[i:] // drop the licence comment
	}
	cls := "icon icon-" + name
	if len(class) > 0 {
		cls += " " + strings.Join(class, " ")
	}
	// The icon's own class (lucide's "lucide lucide-<name>", say) gives way
	// to ours, whatever the set.
	open := svgOpenRE.FindStringIndex(s)
	if open == nil {
		return "", fmt.Errorf("icon %q: %s/%s.svg has no <svg> element", name, r.opts.IconDir, name)
	}
	tag := svgClassRE.ReplaceAllLiteralString(s[open[0]:open[1]], "")
	tag = `<svg aria-hidden="true" focusable="false" class="` + template.HTMLEscapeString(cls) + `"` + strings.TrimPrefix(tag, "<svg")
	s = strings.TrimSpace(s[:open[0]] + tag + s[open[1]:])
	if r.opts.HTML != nil {
		b, err := r.opts.HTML.SVG([]byte(s))
		if err != nil {
			return "", fmt.Errorf("icon %q: %v", name, err)
		}
		s = string(b)
	}
	h := template.HTML(s)
	r.icons.Store(key, h)
	return h, nil
}

// image returns an <img> with its intrinsic width and height so nothing shifts.
func (r *Renderer) image(d Deps, v any, alt string, class ...string) (template.HTML, error) {
	var p string
	switch f := v.(type) {
	case content.File:
		p = f.Path
	case string:
		p = f
	default:
		return "", fmt.Errorf("image: expected a file path, got %T", v)
	}
	if p == "" {
		return "", nil
	}
	d.add(DepStatic(p))
	w, h, err := r.imageSize(p)
	if err != nil {
		return "", err
	}
	attrs := ""
	if len(class) > 0 && class[0] != "" {
		attrs += ` class="` + template.HTMLEscapeString(strings.Join(class, " ")) + `"`
	}
	loading := ` loading="lazy"`
	if len(class) > 1 && class[1] == "eager" {
		loading = ` fetchpriority="high"`
	}
	return template.HTML(fmt.Sprintf(`<img src="%s" alt="%s" width="%d" height="%d"%s decoding="async"%s>`,
		template.HTMLEscapeString(p), template.HTMLEscapeString(alt), w, h, loading, attrs)), nil
}

func (r *Renderer) imageSize(p string) (int, int, error) {
	if v, ok := r.dims.Load(p); ok {
		d := v.([2]int)
		return d[0], d[1], nil
	}
	b, err := fs.ReadFile(r.opts.FS, path.Join(r.opts.StaticDir, strings.TrimPrefix(p, "/")))
	if err != nil {
		return 0, 0, fmt.Errorf("image %s: no such file under %s", p, r.opts.StaticDir)
	}
	var w, h int
	if strings.HasSuffix(strings.ToLower(p), ".svg") {
		w, h, err = svgSize(b)
	} else {
		var c image.Config
		c, _, err = image.DecodeConfig(bytes.NewReader(b))
		w, h = c.Width, c.Height
	}
	if err != nil {
		return 0, 0, fmt.Errorf("image %s: %v", p, err)
	}
	r.dims.Store(p, [2]int{w, h})
	return w, h, nil
}

func svgSize(b []byte) (int, int, error) {
	d := xml.NewDecoder(bytes.NewReader(b))
	for {
		tok, err := d.Token()
		if err != nil {
			return 0, 0, fmt.Errorf("not a readable SVG: %v", err)
		}
		se, ok := tok.(xml.StartElement)
		if !ok || se.Name.Local != "svg" {
			continue
		}
		var w, h float64
		var vb string
		for _, a := range se.Attr {
			switch a.Name.Local {
			case "width":
				w, _ = strconv.ParseFloat(strings.TrimSuffix(a.Value, "px"), 64)
			case "height":
				h, _ = strconv.ParseFloat(strings.TrimSuffix(a.Value, "px"), 64)
			case "viewBox":
				vb = a.Value
			}
		}
		if (w == 0 || h == 0) && vb != "" {
			f := strings.Fields(strings.ReplaceAll(vb, ",", " "))
			if len(f) == 4 {
				w, _ = strconv.ParseFloat(f[2], 64)
				h, _ = strconv.ParseFloat(f[3], 64)
			}
		}
		if w <= 0 || h <= 0 {
			return 0, 0, errors.New("SVG has neither width/height nor a viewBox")
		}
		return int(w + 0.5), int(h + 0.5), nil
	}
}

func (r *Renderer) island(st *execState, name string, props any, directive string, children ...template.HTML) (template.HTML, error) {
	if r.opts.Islands == nil {
		return "", fmt.Errorf("island %q: islands are not built for this site (no assets/islands/)", name)
	}
	if !r.opts.Islands.Has(name) {
		return "", fmt.Errorf("unknown island %q (no assets/islands/%s.jsx)", name, name)
	}
	if err := checkJSON(props, "props"); err != nil {
		return "", fmt.Errorf("island %q: %v", name, err)
	}
	js, err := json.Marshal(props)
	if err != nil {
		return "", fmt.Errorf("island %q: props are not JSON-serializable: %v", name, err)
	}
	ch := ""
	if len(children) > 0 {
		ch = string(children[0])
	}
	start := time.Now()
	hydrated := false
	html, err := r.cached(func() (string, bool, error) {
		html, h, err := r.opts.Islands.Render(st.ctx, name, js, directive, ch)
		if h {
			return "1" + html, true, err
		}
		return "0" + html, true, err
	}, "island-ssr", []byte(name), js, []byte(directive), []byte(ch))
	if err == nil && html != "" {
		hydrated, html = html[0] == '1', html[1:]
	}
	r.ssrCalls.Add(1)
	r.ssrNanos.Add(int64(time.Since(start)))
	if err != nil {
		return "", fmt.Errorf("island %q: %w", name, err)
	}
	kind, media, chunk, err := r.opts.Islands.Placement(name, directive)
	if err != nil {
		return "", fmt.Errorf("island %q: %w", name, err)
	}
	st.marks.islands = append(st.marks.islands, islandUse{name: name, directive: directive, hydrated: hydrated,
		inMain: st.marks.inMain(), kind: kind, media: media, chunk: chunk})
	return template.HTML(html), nil
}

// checkJSON reports the first value in v that JSON cannot carry faithfully,
// naming its path (props.form.fields[2]).
func checkJSON(v any, at string) error {
	if v == nil {
		return nil
	}
	if _, ok := v.(json.Marshaler); ok {
		return nil
	}
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Func, reflect.Chan, reflect.Complex64, reflect.Complex128, reflect.UnsafePointer:
		return fmt.Errorf("prop %s is a %s, which JSON cannot carry", at, rv.Kind())
	case reflect.Pointer, reflect.Interface:
		if rv.IsNil() {
			return nil
		}
		return checkJSON(rv.Elem().Interface(), at)
	case reflect.Map:
		if rv.Type().Key().Kind() != reflect.String {
			return fmt.Errorf("prop %s is a map with %s keys; JSON objects need string keys", at, rv.Type().Key())
		}
		// Sorted, so that of two bad props the same one is named every time.
		keys := rv.MapKeys()
		sort.Slice(keys, func(i, j int) bool { return keys[i].String() < keys[j].String() })
		for _, k := range keys {
			if err := checkJSON(rv.MapIndex(k).Interface(), at+"."+k.String()); err != nil {
				return err
			}
		}
	case reflect.Slice, reflect.Array:
		for i := 0; i < rv.Len(); i++ {
			if err := checkJSON(rv.Index(i).Interface(), fmt.Sprintf("%s[%d]", at, i)); err != nil {
				return err
			}
		}
	case reflect.Struct:
		for i := 0; i < rv.NumField(); i++ {
			if rv.Type().Field(i).IsExported() {
				if err := checkJSON(rv.Field(i).Interface(), at+"."+rv.Type().Field(i).Name); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// showAnnouncement reports whether an announcement record (or the page's
// site announcement) is current: between its start and end dates, inclusive.
func (r *Renderer) showAnnouncement(d Deps, lang string, v any) (bool, error) {
	var a content.Record
	switch t := v.(type) {
	case content.Record:
		a = t
	case *PageContext:
		if r.opts.Config.Announcement == "" {
			return false, nil // the site has no announcement
		}
		s, ok := r.data(d, lang, r.opts.Config.Announcement)
		if !ok {
			return false, nil
		}
		a, _ = s.Value.(content.Record)
	}
	if a == nil || r.opts.BuildDate == "" {
		return false, nil
	}
	start, _ := a["start"].(string)
	end, _ := a["end"].(string)
	if start == "" || end == "" {
		return false, fmt.Errorf("showAnnouncement: the announcement needs start and end dates")
	}
	return start <= r.opts.BuildDate && r.opts.BuildDate <= end, nil
}

var dateRE = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}$`)

// dateStatus judges a date (YYYY-MM-DD) against the build's --date: "past",
// "today" or "upcoming". Copy that depends on a date (planned / past, open /
// closed) is chosen with it instead of being written by hand.
func (r *Renderer) dateStatus(date string) (string, error) {
	if !dateRE.MatchString(date) {
		return "", fmt.Errorf("dateStatus: %q is not a date (YYYY-MM-DD)", date)
	}
	if _, err := time.Parse(time.DateOnly, date); err != nil {
		return "", fmt.Errorf("dateStatus: %q is not a date: %v", date, err)
	}
	if r.opts.BuildDate == "" {
		return "", errors.New("dateStatus: the build has no date")
	}
	switch {
	case date < r.opts.BuildDate:
		return "past", nil
	case date == r.opts.BuildDate:
		return "today", nil
	}
	return "upcoming", nil
}

// daysSince returns how many days the build's date lies after date
// (negative when date is later).
func (r *Renderer) daysSince(date string) (int, error) {
	d, err := time.Parse(time.DateOnly, date)
	if err != nil || !dateRE.MatchString(date) {
		return 0, fmt.Errorf("daysSince: %q is not a date (YYYY-MM-DD)", date)
	}
	b, err := time.Parse(time.DateOnly, r.opts.BuildDate)
	if err != nil {
		return 0, errors.New("daysSince: the build has no date")
	}
	return int(b.Sub(d).Hours() / 24), nil
}

// fileSize returns the size of a static file (a site path such as
// /downloads/x.pdf) for people: "148 KB", "1,2 MB" in Polish.
func (r *Renderer) fileSize(v any, lang string) (string, error) {
	var p string
	switch f := v.(type) {
	case content.Link:
		p = f.Target
	case content.File:
		p = f.Path
	default:
		p = fmt.Sprint(v)
	}
	if !strings.HasPrefix(p, "/") {
		return "", fmt.Errorf("fileSize: %q is not a site path of a static file", p)
	}
	st, err := fs.Stat(r.opts.FS, path.Join(r.opts.StaticDir, strings.TrimPrefix(p, "/")))
	if err != nil {
		return "", fmt.Errorf("fileSize: no static file %s under %s", p, r.opts.StaticDir)
	}
	return humanSize(st.Size(), lang), nil
}

// formatNumber writes a number with the locale's decimal separator and
// grouping (golang.org/x/text): 12,345.5 in English, 12 345,5 in Polish or
// Ukrainian, 12.345,5 in German; decimals fixes the digits after the point.
func formatNumber(v any, lang string, decimals ...int) (string, error) {
	var opts []number.Option
	if len(decimals) > 0 {
		if decimals[0] < 0 || decimals[0] > 10 || len(decimals) > 1 {
			return "", fmt.Errorf("number: give at most one count of decimals, 0 to 10")
		}
		opts = append(opts, number.MinFractionDigits(decimals[0]), number.MaxFractionDigits(decimals[0]))
	}
	switch v.(type) {
	case int, int64, float64:
	default:
		return "", fmt.Errorf("number: %v (%T) is not a number", v, v)
	}
	return message.NewPrinter(language.Make(lang)).Sprint(number.Decimal(v, opts...)), nil
}

// humanSize writes a byte count in B, KB or MB (one decimal) with the
// locale's digits, decimal separator and grouping (golang.org/x/text): 1.5 MB
// in English, 1,5 MB in Polish, German or Ukrainian.
func humanSize(n int64, lang string) string {
	p := message.NewPrinter(language.Make(lang))
	switch {
	case n < 1024:
		return p.Sprintf("%v B", number.Decimal(n))
	case n < 1024*1024:
		return p.Sprintf("%v KB", number.Decimal((n+512)/1024))
	default:
		return p.Sprintf("%v MB", number.Decimal(float64(n)/(1024*1024), number.MinFractionDigits(1), number.MaxFractionDigits(1)))
	}
}
