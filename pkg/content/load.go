// Package content reads a site's Markdown pages, YAML data sets and UI strings
// per locale into typed values. Every problem is a diagnostic with file:line:col.
package content

import (
	"context"
	"io/fs"
	"path"
	"runtime"
	"sort"
	"strings"
	"sync"

	"gopkg.in/yaml.v3"

	"sitegen/pkg/diag"
	"sitegen/pkg/schema"
	"sitegen/pkg/yamlx"
)

// Dir is the content folder of a site.
const Dir = "content"

// Locale is the content of one locale.
type Locale struct {
	Lang    string
	Pages   []*Page             // sorted by file
	Data    map[string]*DataSet // by set name
	Strings map[string]string   // UI strings (i18n.yaml)
}

// Source is everything read from content/.
type Source struct {
	Locales map[string]*Locale
}

// Options control loading.
type Options struct {
	Langs  []string // the configured locale codes
	Drafts bool     // include pages with draft: true
	// LazyBodies drops each page's Body once parsed; Page.LoadBody reads it
	// again (memory bounded by the pages being rendered, not by the site).
	LazyBodies bool
	// Schema declares the record types of data sets (schema.yaml).
	Schema *schema.Schema
	// Layouts gives, by page id, the layout of a page whose front matter
	// names none (the error pages' layout from site.yaml).
	Layouts map[string]string
}

type job struct {
	file, lang, rel string
	kind            int // 0 page, 1 data, 2 strings
}

// Load reads content/<lang>/ for every configured locale from fsys.
func Load(ctx context.Context, fsys fs.FS, opts Options) (*Source, error) {
	var errs diag.List
	var jobs []job
	for _, lang := range opts.Langs {
		root := path.Join(Dir, lang)
		if _, err := fs.Stat(fsys, root); err != nil {
			continue // a locale without content falls back entirely
		}
		err := fs.WalkDir(fsys, root, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				errs.Addf(diag.Pos{File: p}, "cannot read: %v", err)
				return nil
			}
			if d.IsDir() || strings.HasPrefix(d.Name(), ".") {
				return nil
			}
			rel := strings.TrimPrefix(p, root+"/")
			switch {
			case rel == "i18n.yaml":
				jobs = append(jobs, job{p, lang, rel, 2})
			case strings.HasPrefix(rel, "data/") && (strings.HasSuffix(rel, ".yaml") || strings.HasSuffix(rel, ".yml")):
				jobs = append(jobs, job{p, lang, rel, 1})
			case strings.HasSuffix(rel, ".md"):
				jobs = append(jobs, job{p, lang, rel, 0})
			default:
				errs.Add(diag.New(diag.Pos{File: p}, "unexpected file in content").
					WithHint("pages are .md files, data sets are data/*.yaml, UI strings are i18n.yaml; static files belong in assets/static/"))
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}

	results := make([]result, len(jobs))
	var wg sync.WaitGroup
	next := make(chan int)
	for w := 0; w < runtime.GOMAXPROCS(0); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				parseJob(fsys, opts, jobs[i], &results[i])
				if opts.LazyBodies && results[i].page != nil {
					results[i].page.dropBody()
				}
			}
		}()
	}
	for i := range jobs {
		if ctx.Err() != nil {
			break
		}
		next <- i
	}
	close(next)
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return assemble(opts, jobs, results, errs)
}

type result struct {
	page    *Page
	sets    []*DataSet
	strings map[string]string
	errs    diag.List
}

// parseJob reads and parses one file into r. A panic (a bug) becomes an
// internal error at the file instead of ending the process.
func parseJob(fsys fs.FS, opts Options, j job, r *result) {
	defer func() {
		if v := recover(); v != nil {
			*r = result{}
			r.errs.Addf(diag.Pos{File: j.file}, "internal error while reading this file: %v (this is a bug in sitegen; please report it)", v)
		}
	}()
	src, err := fs.ReadFile(fsys, j.file)
	if err != nil {
		r.errs.Addf(diag.Pos{File: j.file}, "cannot read: %v", err)
		return
	}
	switch j.kind {
	case 0:
		r.page, r.errs = ParsePage(j.file, j.lang, j.rel, src)
		if pg := r.page; pg != nil {
			r.errs.Merge(checkParams(opts.Schema, pg))
			if l, ok := opts.Layouts[pg.ID]; ok && !pg.layoutGiven {
				pg.Layout = l
			}
		}
	case 1:
		base := strings.TrimSuffix(strings.TrimSuffix(path.Base(j.rel), ".yaml"), ".yml")
		if dir := path.Dir(strings.TrimPrefix(j.rel, "data/")); dir != "." {
			base = strings.ReplaceAll(dir, "/", ".") + "." + base
		}
		r.sets, r.errs = ParseData(opts.Schema, j.file, base, src)
	case 2:
		r.strings, r.errs = parseStrings(j.file, src)
	}
}

// assemble gathers the parsed files into a Source.
func assemble(opts Options, jobs []job, results []result, errs diag.List) (*Source, error) {
	src := &Source{Locales: map[string]*Locale{}}
	for _, lang := range opts.Langs {
		src.Locales[lang] = &Locale{Lang: lang, Data: map[string]*DataSet{}, Strings: map[string]string{}}
	}
	ids := map[string]map[string]*Page{}
	for i, j := range jobs {
		r := results[i]
		errs.Merge(r.errs)
		loc := src.Locales[j.lang]
		switch {
		case r.page != nil:
			p := r.page
			if p.Draft && !opts.Drafts {
				continue
			}
			if ids[j.lang] == nil {
				ids[j.lang] = map[string]*Page{}
			}
			if prev, dup := ids[j.lang][p.ID]; dup && p.ID != "" {
				errs.Add(diag.New(p.Pos, "page id %q is already used", p.ID).WithRelated(prev.Pos, "first used at").
					WithHint("ids pair translations across locales; within a locale each is unique"))
				continue
			}
			ids[j.lang][p.ID] = p
			loc.Pages = append(loc.Pages, p)
		case r.sets != nil:
			for _, s := range r.sets {
				if prev, dup := loc.Data[s.Name]; dup {
					errs.Add(diag.New(s.Pos, "data set %q is already defined", s.Name).WithRelated(prev.Pos, "first defined at"))
					continue
				}
				loc.Data[s.Name] = s
			}
		case r.strings != nil:
			loc.Strings = r.strings
		}
	}
	for _, loc := range src.Locales {
		sort.Slice(loc.Pages, func(a, b int) bool { return loc.Pages[a].File < loc.Pages[b].File })
	}
	return src, errs.Err()
}

func parseStrings(file string, src []byte) (map[string]string, diag.List) {
	var errs diag.List
	var doc yaml.Node
	if err := yaml.Unmarshal(src, &doc); err != nil {
		errs.AddErr(diag.Pos{File: file}, yamlx.SyntaxError(file, err))
		return nil, errs
	}
	m := map[string]string{}
	if len(doc.Content) == 0 {
		return m, nil
	}
	errs.Merge(yamlx.Decode(file, doc.Content[0], &m))
	return m, errs
}
