package render

import (
	"reflect"
	"regexp"
	"strings"

	"sitegen/pkg/diag"
)

// contextTypes are the types templates get, by the name Go's template
// errors give them: an unknown field on one of them is answered with the
// fields that exist.
var contextTypes = map[string]reflect.Type{}

func init() {
	for _, v := range []any{PageContext{}, PageInfo{}, PageLink{}, SectionContext{}, SiteInfo{}, Variant{}, FeedLink{}, FileContext{}, TOCEntry{}, Paginator{}, PagerLink{}, TermLink{}, TaxonomyInfo{}} {
		t := reflect.TypeOf(v)
		contextTypes["render."+t.Name()] = t
		contextTypes["*render."+t.Name()] = t
	}
}

var unknownFieldRE = regexp.MustCompile(`can't evaluate field (\w+) in type (\*?[\w.]+)`)

// withFieldsHint adds to a diagnostic about an unknown field of a template
// context type the fields that type has ("render.PageLink has ID, Title,
// URL, ..."), sitegen's own types named as templates see them.
func withFieldsHint(d diag.Diagnostic) diag.Diagnostic {
	m := unknownFieldRE.FindStringSubmatch(d.Message)
	if m == nil || d.Hint != "" {
		return d
	}
	t, ok := contextTypes[m[2]]
	if !ok {
		return d
	}
	var names []string
	for i := 0; i < t.NumField(); i++ {
		if f := t.Field(i); f.IsExported() {
			names = append(names, "."+f.Name)
		}
	}
	for i := 0; i < t.NumMethod(); i++ {
		names = append(names, "."+t.Method(i).Name)
	}
	return d.WithHint("%s has no field %s; it has %s", strings.TrimPrefix(m[2], "*"), m[1], strings.Join(names, " "))
}
