package render

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/goodsign/monday"
)

// dateStyles are the styles localDate takes, each a table of the layout
// per locale (monday's, from the CLDR).
var dateStyles = map[string]map[monday.Locale]string{
	"full":   monday.FullFormatsByLocale,
	"long":   monday.LongFormatsByLocale,
	"medium": monday.MediumFormatsByLocale,
	"short":  monday.ShortFormatsByLocale,
}

// dateLocale is the monday locale of a site locale code: the code itself
// when it is one ("pt-BR", "pt_BR"); for a bare language, its usual
// country (en -> en_US, pt -> pt_PT, zh -> zh_CN), the one named like it
// (de -> de_DE, fr -> fr_FR), else the first of its language in sorted
// order (ja -> ja_JP).
func dateLocale(code string) (monday.Locale, bool) {
	code = strings.ReplaceAll(code, "-", "_")
	preferred := map[string]monday.Locale{"en": monday.LocaleEnUS, "pt": monday.LocalePtPT, "zh": monday.LocaleZhCN}
	if l, ok := preferred[strings.ToLower(code)]; ok {
		return l, true
	}
	var same []string
	for _, l := range monday.ListLocales() {
		s := string(l)
		if strings.EqualFold(s, code) || strings.EqualFold(s, code+"_"+code) {
			return l, true
		}
		if lang, _, _ := strings.Cut(s, "_"); strings.EqualFold(lang, code) {
			same = append(same, s)
		}
	}
	if len(same) == 0 {
		return "", false
	}
	sort.Strings(same)
	return monday.Locale(same[0]), true
}

// localDate formats a date (YYYY-MM-DD, RFC 3339 or a time.Time) in the
// page's locale in one of the styles full, long, medium and short, with
// the month and day names of the locale (CLDR data, github.com/goodsign/monday).
func localDate(lang, style string, v any) (string, error) {
	var t time.Time
	switch d := v.(type) {
	case time.Time:
		t = d
	case string:
		var err error
		if t, err = time.Parse("2006-01-02", d); err != nil {
			if t, err = time.Parse(time.RFC3339, d); err != nil {
				return "", fmt.Errorf("localDate: %q is not a date (YYYY-MM-DD)", d)
			}
		}
	default:
		return "", fmt.Errorf("localDate: cannot format a %T", v)
	}
	layouts, ok := dateStyles[style]
	if !ok {
		return "", fmt.Errorf("localDate: style %q (want full, long, medium or short)", style)
	}
	loc, ok := dateLocale(lang)
	if !ok {
		return "", fmt.Errorf("localDate: no date formats for locale %q", lang)
	}
	layout := layouts[loc]
	if layout == "" {
		layout = missingLayouts[style][loc]
	}
	if layout == "" {
		return "", fmt.Errorf("localDate: no %s date format for locale %s", style, loc)
	}
	return monday.Format(t, layout, loc), nil
}

// missingLayouts are the layouts monday defines but leaves out of its
// tables (v1.0.2: Polish).
var missingLayouts = map[string]map[monday.Locale]string{
	"full":   {monday.LocalePlPL: monday.DefaultFormatPlPLFull},
	"long":   {monday.LocalePlPL: monday.DefaultFormatPlPLLong},
	"medium": {monday.LocalePlPL: monday.DefaultFormatPlPLMedium},
	"short":  {monday.LocalePlPL: monday.DefaultFormatPlPLShort},
}
