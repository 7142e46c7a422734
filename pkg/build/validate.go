package build

import (
	"sort"

	"sitegen/pkg/config"
	"sitegen/pkg/content"
	"sitegen/pkg/diag"
	"sitegen/pkg/markdown"
	"sitegen/pkg/render"
	"sitegen/pkg/route"
)

// validate checks what can be checked before rendering, so that every broken
// link, missing file, unknown section or data set is reported at its source.
// r is nil when the templates did not parse: layouts and sections are then
// not checked. Data set names are not checked in a locale whose data (or the
// default locale's) has errors: a set may be missing only because of them.
func validate(cfg *config.Config, md *markdown.Converter, src *content.Source, plan *route.Plan, r *render.Renderer, statics map[string]bool, langs []string, dataBroken func(lang string) bool) diag.List {
	var errs diag.List
	if a := cfg.Announcement; a != "" {
		var rec content.Record
		set, ok := (*content.DataSet)(nil), false
		if loc := src.Locales[plan.Default.Code]; loc != nil {
			set, ok = loc.Data[a]
		}
		if ok {
			rec, _ = set.Value.(content.Record)
		}
		switch {
		case !ok:
			errs.Add(diag.New(cfg.AnnouncementPos, "announcement: no data set %q in the default locale", a).
				WithHint("data sets are <file>.<key> from content/%s/data/<file>.yaml", plan.Default.Code))
		case rec == nil:
			errs.Add(diag.New(cfg.AnnouncementPos, "announcement: data set %q must hold one record (item:)", a).WithRelated(set.Pos, "defined at"))
		default:
			for _, f := range []string{"start", "end"} {
				if _, ok := rec[f].(string); !ok {
					errs.Add(diag.New(cfg.AnnouncementPos, "announcement: the records of %q need a %s date field", a, f).
						WithHint("declare %s: {kind: date, required: true} in its type in schema.yaml", f).WithRelated(set.Pos, "defined at"))
				}
			}
		}
	}
	for _, lang := range langs {
		loc := src.Locales[lang]
		if loc == nil {
			continue
		}
		check := func(v any) {
			switch x := v.(type) {
			case content.Link:
				if x.Target == "" {
					return
				}
				if _, err := plan.Resolve(lang, x.Target); err != nil {
					errs.Add(atPos(x.Pos, err))
				}
			case content.File:
				if x.Path != "" && !statics[x.Path] {
					errs.Add(diag.New(x.Pos, "file %s does not exist", x.Path).WithHint("static files live in assets/static%s", x.Path))
				}
			case content.Text:
				checkTextLinks(&errs, md, plan, lang, x.Source, x.Pos)
			}
		}
		names := make([]string, 0, len(loc.Data))
		for n := range loc.Data {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, n := range names {
			visit(loc.Data[n].Value, check)
		}
		for _, pg := range loc.Pages {
			visit(pg.Params, check)
			if r != nil && !r.HasLayout(pg.Layout) {
				errs.Add(diag.New(pg.LayoutPos, "unknown layout %q", pg.Layout).WithHint("add templates/layouts/%s.html", pg.Layout))
			}
			if pg.Image.Path != "" && !statics[pg.Image.Path] {
				errs.Add(diag.New(pg.Image.Pos, "file %s does not exist", pg.Image.Path))
			}
			for _, s := range pg.Sections {
				if s.Type != cfg.Markdown.BodySection && r != nil && !r.HasTemplate("sections/"+s.Type+".html") {
					errs.Add(diag.New(s.Pos, "unknown section type %q", s.Type).WithHint("add templates/sections/%s.html", s.Type))
				}
				if s.Data != "" && !dataBroken(lang) {
					if _, ok := loc.Data[s.Data]; !ok {
						if _, ok := src.Locales[plan.Default.Code].Data[s.Data]; !ok {
							errs.Add(diag.New(s.DataPos, "unknown data set %q", s.Data).WithHint("data sets are <file>.<key> from content/%s/data/<file>.yaml", lang))
						}
					}
				}
				checkTextLinks(&errs, md, plan, lang, s.Intro.Source, s.Intro.Pos)
				visit(s.Params, check)
			}
		}
	}
	return errs
}

// checkTextLinks checks the links of Markdown text with the converter and
// resolver that render it, so that what passes here renders.
func checkTextLinks(errs *diag.List, md *markdown.Converter, plan *route.Plan, lang, text string, pos diag.Pos) {
	if text == "" {
		return
	}
	errs.Merge(md.CheckLinks(markdown.Source{Text: []byte(text), Pos: pos}, func(dest string) (string, error) {
		return plan.Resolve(lang, dest)
	}))
}

func atPos(pos diag.Pos, err error) diag.Diagnostic {
	if d, ok := err.(diag.Diagnostic); ok {
		d.Pos = pos
		return d
	}
	return diag.Diagnostic{Pos: pos, Message: err.Error()}
}

// visit calls fn with every Link, File and Text inside a decoded value, in
// a fixed order (record fields sorted by name) so errors never depend on map
// order.
func visit(v any, fn func(any)) {
	switch x := v.(type) {
	case content.Link, content.File, content.Text:
		fn(x)
	case map[string]any:
		visit(content.Record(x), fn)
	case content.Record:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			visit(x[k], fn)
		}
	case []content.Record:
		for _, r := range x {
			visit(r, fn)
		}
	case []any:
		for _, r := range x {
			visit(r, fn)
		}
	}
}
