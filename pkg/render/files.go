package render

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"io/fs"
	"path"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"text/template"

	"sitegen/pkg/config"
	"sitegen/pkg/diag"
	"sitegen/pkg/sitepath"
)

// FilesDir holds the templates of files that are not HTML pages: each
// templates/files/NAME (llms.txt, search.json, opensearch.xml...) is
// rendered once per locale with text/template (no HTML escaping: the
// template escapes what its format needs with xml and json) and written
// to <locale prefix>/NAME.
const FilesDir = "templates/files"

// FileContext is what a file template gets as ".".
type FileContext struct {
	Site   SiteInfo
	Lang   string
	Locale config.Locale
	// Pages are every content page of the locale (fallback copies
	// included; not the pages the build makes for paged lists and
	// taxonomies), by URL, with the fields of a listing (see PageLink).
	Pages []PageLink
}

// FileTemplates lists the names under FilesDir, sorted.
func (r *Renderer) FileTemplates() []string {
	var names []string
	fs.WalkDir(r.opts.FS, FilesDir, func(p string, d fs.DirEntry, err error) error { //nolint:errcheck // no folder: no files
		if err == nil && !d.IsDir() {
			names = append(names, strings.TrimPrefix(p, FilesDir+"/"))
		}
		return nil
	})
	sort.Strings(names)
	return names
}

// RenderFile renders the file template name for the locale lang; the
// result's output path is FilePath(lang, name).
func (r *Renderer) RenderFile(lang, name string) ([]byte, error) {
	file := path.Join(FilesDir, name)
	src, err := fs.ReadFile(r.opts.FS, file)
	if err != nil {
		return nil, diag.New(diag.Pos{File: file}, "%v", err)
	}
	cfg := r.opts.Config
	loc, _ := cfg.Locale(lang)
	t, err := template.New(name).Funcs(r.fileFuncs(lang)).Option("missingkey=error").Parse(string(src))
	if err != nil {
		return nil, templateDiag(file, err)
	}
	fc := FileContext{Site: SiteInfo{Title: cfg.Title, BaseURL: cfg.BaseURL, Locales: cfg.Locales, Forms: cfg.Forms}, Lang: lang, Locale: loc}
	for _, e := range r.opts.Plan.Entries {
		if e.Lang == lang && !e.Root && !e.Generated {
			fc.Pages = append(fc.Pages, r.pageLink(nil, e))
		}
	}
	var b bytes.Buffer
	if err := t.Execute(&b, fc); err != nil {
		return nil, templateDiag(file, err)
	}
	return b.Bytes(), nil
}

// FilePath is the output path of file template name in a locale.
func (r *Renderer) FilePath(lang, name string) string {
	loc, _ := r.opts.Config.Locale(lang)
	return strings.TrimPrefix(loc.Prefix+"/"+name, "/")
}

// fileFuncs are the functions of a file template: t, ref and pages as in
// a page, and what a non-HTML format needs: xml (escaped text), json (a
// value as JSON) and abs (a site path as an absolute, percent-encoded URL).
func (r *Renderer) fileFuncs(lang string) template.FuncMap {
	return template.FuncMap{
		"t": func(key string) string { return r.opts.Catalog.T(lang, key) },
		"ref": func(id string) (string, error) {
			return r.opts.Plan.Resolve(lang, "ref:"+strings.TrimPrefix(id, "ref:"))
		},
		"pages": func(id string) ([]PageLink, error) { return r.pages(nil, lang, id) },
		"xml": func(s string) (string, error) {
			var b strings.Builder
			err := xml.EscapeText(&b, []byte(s))
			return b.String(), err
		},
		"json": func(v any) (string, error) {
			b, err := json.Marshal(v)
			return string(b), err
		},
		"abs": func(p string) string { return r.opts.Config.BaseURL + sitepath.URL(p) },
	}
}

var tmplPosRE = regexp.MustCompile(`^template: [^:]+:(\d+)(?::(\d+))?: `)

// templateDiag places a text/template error at its line.
func templateDiag(file string, err error) diag.Diagnostic {
	msg := err.Error()
	pos := diag.Pos{File: file}
	if m := tmplPosRE.FindStringSubmatch(msg); m != nil {
		pos.Line, _ = strconv.Atoi(m[1])
		pos.Col, _ = strconv.Atoi(m[2])
		msg = msg[len(m[0]):]
	}
	return withFieldsHint(diag.New(pos, "%s", cleanExecMessage(msg)))
}
