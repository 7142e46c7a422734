// Package scaffold writes new source files for authors: `sitegen new page`.
package scaffold

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"gopkg.in/yaml.v3"

	"sitegen/pkg/config"
	"sitegen/pkg/content"
	"sitegen/pkg/diag"
	"sitegen/pkg/render"
	"sitegen/pkg/route"
	"sitegen/pkg/schema"
	"sitegen/pkg/sitefs"
)

// PageOptions describe a new page.
type PageOptions struct {
	Source string            // site root
	ID     string            // the page id, the same in every locale
	Layout string            // a layout of templates/layouts/
	Slugs  map[string]string // locale code -> slug (path below the locale prefix)
	Titles map[string]string // optional; default: from the slug
}

// ErrUsage marks errors in the options (as opposed to conflicts with the
// site).
var ErrUsage = errors.New("usage")

// SiteError is an error of the site itself (not of the new page): the page
// is written only once the site reads without errors.
type SiteError struct {
	What string // what has the errors: "schema.yaml", "the site's content"
	Err  error
}

func (e *SiteError) Error() string {
	return fmt.Sprintf("%s has errors; fix them before adding a page:\n%v", e.What, e.Err)
}
func (e *SiteError) Unwrap() error { return e.Err }

// NewPage writes content/<lang>/<slug>.md for every locale of the site, with
// front matter that parses like any page, marked as a draft so it is not
// published until the author removes draft: true. It refuses an id or a path
// the site already has, and writes nothing then. It returns the files written.
func NewPage(ctx context.Context, o PageOptions) ([]string, error) {
	fsys := os.DirFS(o.Source)
	cfg, err := config.Load(fsys)
	if err != nil {
		return nil, &SiteError{What: config.FileName, Err: err}
	}
	var langs []string
	for _, l := range cfg.Locales {
		langs = append(langs, l.Code)
	}
	for lang := range o.Slugs {
		if _, ok := cfg.Locale(lang); !ok {
			return nil, fmt.Errorf("%w: --slug %s=...: the site has no locale %q (it has %s)", ErrUsage, lang, lang, strings.Join(langs, ", "))
		}
	}
	for _, lang := range langs {
		if o.Slugs[lang] == "" {
			return nil, fmt.Errorf("%w: give the page's slug in every locale: --slug %s=...", ErrUsage, lang)
		}
	}
	if _, err := fs.Stat(fsys, path.Join(render.TemplatesDir, "layouts", o.Layout+".html")); err != nil || strings.ContainsAny(o.Layout, "/\\.") || o.Layout == "" {
		return nil, fmt.Errorf("%w: --layout %q: there is no %s/layouts/%s.html", ErrUsage, o.Layout, render.TemplatesDir, o.Layout)
	}

	// Every page of the site, drafts included: an id or path taken by a
	// draft is taken too. The content is read as a build reads it: data
	// sets with the record types of schema.yaml, error pages with the
	// layout of site.yaml.
	sch, err := schema.Load(fsys)
	if err != nil {
		return nil, &SiteError{What: schema.FileName, Err: err}
	}
	copts := content.Options{Langs: langs, Drafts: true, Schema: sch}
	if l := cfg.ErrorPages.Layout; l != "" {
		copts.Layouts = map[string]string{cfg.ErrorPages.NotFound: l, cfg.ErrorPages.ServerError: l}
	}
	src, err := content.Load(ctx, fsys, copts)
	if err != nil {
		return nil, &SiteError{What: "the site's content", Err: err}
	}
	var errs diag.List
	files := map[string][]byte{}
	added := map[string]*content.Page{}
	for _, lang := range langs {
		slug := o.Slugs[lang]
		rel := slug + ".md"
		file := path.Join(content.Dir, lang, rel)
		title := o.Titles[lang]
		if title == "" {
			title = titleOf(slug)
		}
		text, err := frontMatter(o.ID, slug, title, o.Layout)
		if err != nil {
			return nil, err
		}
		// The new file must parse like any page: this checks the id and
		// the slug with the very rules of a build.
		pg, perrs := content.ParsePage(file, lang, rel, text)
		if len(perrs) > 0 {
			return nil, fmt.Errorf("%w: %v", ErrUsage, perrs[0].Message)
		}
		added[lang] = pg
		if src.Locales[lang] != nil {
			for _, p := range src.Locales[lang].Pages {
				if p.ID == o.ID {
					errs.Add(diag.New(p.Pos, "page id %q is taken in %s by this page", o.ID, lang))
				}
			}
		}
		if _, err := fs.Stat(fsys, file); err == nil {
			errs.Add(diag.New(diag.Pos{File: file}, "file already exists"))
		}
		files[file] = text
	}
	errs.Merge(routeConflicts(cfg, src, added))
	if len(errs) > 0 {
		return nil, errs.Err()
	}
	names := make([]string, 0, len(files))
	for f := range files {
		names = append(names, f)
	}
	sort.Strings(names)
	var written []string
	for _, f := range names {
		if err := sitefs.WriteNew(filepath.Join(o.Source, filepath.FromSlash(f)), files[f]); err != nil {
			for _, w := range written {
				os.Remove(filepath.Join(o.Source, filepath.FromSlash(w)))
			}
			return nil, err
		}
		written = append(written, f)
	}
	return written, nil
}

// routeConflicts are what the route plan reports once the new pages join
// the site (a path another page, an alias, a legacy path or a generated
// file has) beyond what it reports without them: the new pages' URLs are
// the ones a build gives them, by the build's own rules.
func routeConflicts(cfg *config.Config, src *content.Source, added map[string]*content.Page) diag.List {
	_, before := route.Build(cfg, src, nil)
	known := map[string]bool{}
	for _, d := range diagsOf(before) {
		known[d.Error()] = true
	}
	with := &content.Source{Locales: map[string]*content.Locale{}}
	for lang, loc := range src.Locales {
		with.Locales[lang] = loc
	}
	for lang, pg := range added {
		loc := &content.Locale{}
		if old := src.Locales[lang]; old != nil {
			*loc = *old
		}
		loc.Pages = append(slices.Clone(loc.Pages), pg)
		with.Locales[lang] = loc
	}
	_, after := route.Build(cfg, with, nil)
	var errs diag.List
	for _, d := range diagsOf(after) {
		if !known[d.Error()] {
			errs.Add(d)
		}
	}
	return errs
}

// diagsOf returns the diagnostics an error carries.
func diagsOf(err error) diag.List {
	var list diag.List
	var d diag.Diagnostic
	switch {
	case err == nil:
	case errors.As(err, &list):
	case errors.As(err, &d):
		list = diag.List{d}
	default:
		list = diag.List{diag.New(diag.Pos{}, "%v", err)}
	}
	return list
}

func frontMatter(id, slug, title, layout string) ([]byte, error) {
	fm := struct {
		ID          string `yaml:"id"`
		Slug        string `yaml:"slug"`
		Title       string `yaml:"title"`
		Description string `yaml:"description"`
		Layout      string `yaml:"layout"`
		Draft       bool   `yaml:"draft"`
	}{id, slug, title, title, layout, true}
	b, err := yaml.Marshal(fm)
	if err != nil {
		return nil, err
	}
	return []byte("---\n" + string(b) + "---\n" + "<!-- Write the page here; remove draft: true (and adjust the description) to publish it. -->\n"), nil
}

// titleOf makes a title from the slug's last segment: "o-nas" -> "O nas".
func titleOf(slug string) string {
	s := strings.ReplaceAll(path.Base(slug), "-", " ")
	if s == "" {
		return s
	}
	r := []rune(s)
	return strings.ToUpper(string(r[0])) + string(r[1:])
}
