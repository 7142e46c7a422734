package build

import (
	"reflect"
	"regexp"
	"sort"

	"sitegen/pkg/content"
	"sitegen/pkg/diag"
	"sitegen/pkg/render"
	"sitegen/pkg/route"
)

var mdLinkRE = regexp.MustCompile(`\]\(\s*<?([^)\s>]+)`)

// validate checks what can be checked before rendering, so that every broken
// link, missing file, unknown section or data set is reported at its source.
// r is nil when the templates did not parse: layouts and sections are then
// not checked. Data set names are not checked in a locale whose data (or the
// default locale's) has errors: a set may be missing only because of them.
func validate(src *content.Source, plan *route.Plan, r *render.Renderer, statics map[string]bool, langs []string, dataBroken func(lang string) bool) diag.List {
	var errs diag.List
	for _, lang := range langs {
		loc := src.Locales[lang]
		if loc == nil {
			continue
		}
		names := make([]string, 0, len(loc.Data))
		for n := range loc.Data {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, n := range names {
			visit(reflect.ValueOf(loc.Data[n].Value), func(v any) {
				switch x := v.(type) {
				case *content.Link:
					if x.Target == "" {
						return
					}
					if _, err := plan.Resolve(lang, x.Target); err != nil {
						errs.Add(atPos(x.Pos, err))
					}
				case *content.File:
					if x.Path != "" && !statics[x.Path] {
						errs.Add(diag.New(x.Pos, "file %s does not exist", x.Path).WithHint("static files live in assets/static%s", x.Path))
					}
				case *content.Text:
					checkTextLinks(&errs, plan, lang, x.Source, x.Pos)
				}
			})
		}
		for _, pg := range loc.Pages {
			if r != nil && !r.HasLayout(pg.Layout) {
				errs.Add(diag.New(pg.Pos, "unknown layout %q", pg.Layout).WithHint("add templates/layouts/%s.html", pg.Layout))
			}
			if pg.Image.Path != "" && !statics[pg.Image.Path] {
				errs.Add(diag.New(pg.Image.Pos, "file %s does not exist", pg.Image.Path))
			}
			for _, s := range pg.Sections {
				if s.Type != "body" && r != nil && !r.HasTemplate("sections/"+s.Type+".html") {
					errs.Add(diag.New(s.Pos, "unknown section type %q", s.Type).WithHint("add templates/sections/%s.html", s.Type))
				}
				if s.Data != "" && !dataBroken(lang) {
					if _, ok := loc.Data[s.Data]; !ok {
						if _, ok := src.Locales[plan.Default.Code].Data[s.Data]; !ok {
							errs.Add(diag.New(s.DataPos, "unknown data set %q", s.Data).WithHint("data sets are <file>.<key> from content/%s/data/<file>.yaml", lang))
						}
					}
				}
				checkTextLinks(&errs, plan, lang, s.Intro.Source, s.Intro.Pos)
			}
		}
	}
	return errs
}

func checkTextLinks(errs *diag.List, plan *route.Plan, lang, text string, pos diag.Pos) {
	for _, m := range mdLinkRE.FindAllStringSubmatch(text, -1) {
		if _, err := plan.Resolve(lang, m[1]); err != nil {
			errs.Add(atPos(pos, err))
		}
	}
}

func atPos(pos diag.Pos, err error) diag.Diagnostic {
	if d, ok := err.(diag.Diagnostic); ok {
		d.Pos = pos
		return d
	}
	return diag.Diagnostic{Pos: pos, Message: err.Error()}
}

var (
	linkType = reflect.TypeOf(content.Link{})
	fileType = reflect.TypeOf(content.File{})
	textType = reflect.TypeOf(content.Text{})
)

// visit calls fn with a pointer to every Link, File and Text inside v.
func visit(v reflect.Value, fn func(any)) {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			visit(v.Elem(), fn)
		}
	case reflect.Slice:
		for i := 0; i < v.Len(); i++ {
			visit(v.Index(i), fn)
		}
	case reflect.Struct:
		switch v.Type() {
		case linkType, fileType, textType:
			if v.CanAddr() {
				fn(v.Addr().Interface())
			}
			return
		}
		for i := 0; i < v.NumField(); i++ {
			visit(v.Field(i), fn)
		}
	}
}
