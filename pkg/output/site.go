package output

import (
	"bytes"
	"encoding/json"
	"fmt"
	"html/template"
	"strings"

	"sitegen/pkg/route"
	"sitegen/pkg/sitepath"
)

// PageData is /page-data/{page}/page-data.json (spec §7).
type PageData struct {
	ComponentChunkName     string            `json:"componentChunkName"`
	Path                   string            `json:"path"`
	Result                 Result            `json:"result"`
	SlicesMap              map[string]string `json:"slicesMap"`
	StaticQueryHashes      []string          `json:"staticQueryHashes"`
	WebpackCompilationHash string            `json:"webpackCompilationHash"`
}

// Result is the page-data result.
type Result struct {
	PageContext PageContext `json:"pageContext"`
	Page        PageView    `json:"page"`
}

// PageContext is the spec's page context.
type PageContext struct {
	Lang         string        `json:"lang"`
	Langs        []string      `json:"langs"`
	OriginalPath string        `json:"originalPath"`
	LangVariants []LangVariant `json:"langVariants"`
	PageName     string        `json:"pageName"`
}

// LangVariant is the page in one locale.
type LangVariant struct {
	Lang string `json:"lang"`
	Path string `json:"path"`
}

// PageView is what the client runtime needs to show the page without a full
// load: the inner HTML of <main> and the head fields a swap updates. The
// shared header and footer are slices (slicesMap), the island manifest is
// the -rsc variant (fetched only when Islands is not empty).
type PageView struct {
	Title       string   `json:"title"` // the document title
	Description string   `json:"description"`
	Canonical   string   `json:"canonical"`
	Robots      string   `json:"robots,omitempty"`
	Lang        string   `json:"lang"`
	Layout      string   `json:"layout"`
	HTML        string   `json:"html"`
	Islands     []string `json:"islands,omitempty"`
	NotFound    bool     `json:"notFound,omitempty"`
}

// PageDataPath is the output path of an entry's page data.
func PageDataPath(e *route.Entry) string {
	return sitepath.PageData + "/" + e.PageData + "/page-data.json"
}

// NewPageData builds the page data of an entry.
func NewPageData(plan *route.Plan, e *route.Entry, hash string, head Head, html string, islands []string) PageData {
	langs := make([]string, len(plan.Locales))
	for i, l := range plan.Locales {
		langs[i] = l.Code
	}
	prefix := ""
	if l, ok := localeOf(plan, e.Lang); ok && !e.Root {
		prefix = l
	}
	pd := PageData{
		ComponentChunkName: "component---layout-" + e.Page.Layout,
		Path:               sitepath.URL(e.URL),
		StaticQueryHashes:  []string{},
		Result: Result{
			PageContext: PageContext{Lang: e.Lang, Langs: langs, OriginalPath: sitepath.URL("/" + strings.TrimPrefix(strings.TrimPrefix(e.URL, prefix), "/")), PageName: e.ID},
			Page: PageView{Title: head.Title, Description: head.Description, Canonical: head.Canonical, Robots: head.Robots,
				Lang: e.Page.Lang, Layout: e.Page.Layout, HTML: html, Islands: append([]string(nil), islands...), NotFound: e.NotFound},
		},
		SlicesMap:              SlicesMap(e.Lang),
		WebpackCompilationHash: hash,
	}
	for _, v := range plan.Variants(e.ID) {
		pd.Result.PageContext.LangVariants = append(pd.Result.PageContext.LangVariants, LangVariant{Lang: v.Lang, Path: sitepath.URL(v.URL)})
	}
	return pd
}

func localeOf(plan *route.Plan, lang string) (string, bool) {
	for _, l := range plan.Locales {
		if l.Code == lang {
			return l.Prefix, true
		}
	}
	return "", false
}

// JSON encodes v deterministically. The files it makes are fetched as JSON,
// never inlined into HTML, so '<', '>' and '&' stay as they are: escaping
// them as \u003c... would grow a page's HTML in its page data by a sixth.
func JSON(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// AppData is /page-data/app-data.json.
func AppData(hash string) ([]byte, error) {
	return JSON(struct {
		WebpackCompilationHash string `json:"webpackCompilationHash"`
	}{hash})
}

// Robots returns robots.txt.
func Robots(baseURL string) []byte {
	return []byte(fmt.Sprintf("User-agent: *\nAllow: /\nDisallow: /page-data/\nDisallow: /slice-data/\n\nSitemap: %s/sitemap.xml\n", baseURL))
}

var redirectTmpl = template.Must(template.New("r").Parse(`<!doctype html>
<html lang="{{ .Lang }}"><head><meta charset="utf-8"><title>{{ .To }}</title><link rel="canonical" href="{{ .Canonical }}"><meta name="robots" content="noindex"><meta http-equiv="refresh" content="0; url={{ .To }}"></head>
<body><p><a href="{{ .To }}">{{ .To }}</a></p></body></html>
`))

// RedirectPage returns the HTML page published at a redirect's path.
func RedirectPage(r route.Redirect, baseURL string) ([]byte, error) {
	var buf bytes.Buffer
	to := sitepath.URL(r.To)
	err := redirectTmpl.Execute(&buf, struct{ To, Canonical, Lang string }{to, baseURL + to, redirectLang(r.To)})
	return buf.Bytes(), err
}

// redirectLang is the language of a redirect page: its target's locale
// prefix ("/en/solutions/support/" is en), or "und" (undetermined).
func redirectLang(to string) string {
	seg, _, _ := strings.Cut(strings.TrimPrefix(to, "/"), "/")
	if len(seg) == 2 && strings.ToLower(seg) == seg {
		return seg
	}
	return "und"
}
