// Package content reads a site's Markdown pages, YAML data sets and UI strings
// per locale into typed values. Every problem is a diagnostic with file:line:col.
package content

import (
	"context"
	"io/fs"
	"path"
	"runtime"
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
	// FrontMatter, when set, keeps the pages' parsed front matter between
	// builds.
	FrontMatter FrontMatterCache
	// Pages, when set (with LazyBodies), knows page files read by an
	// earlier build that have not changed since: they are not read again.
	Pages PageFiles
}

// PageFiles remembers what a build read of its page files, by what an
// lstat tells of each (a build's persistent cache). Identity returns that
// lstat's account of a file ("" when it cannot be had); Known returns what
// was read of a file with that identity when it may be trusted not to have
// changed since (see build's pageFiles); Remember keeps what was read of a
// file whose identity was taken before it was read.
type PageFiles interface {
	Identity(path string) string
	Known(path, id string) (KnownPage, bool)
	Remember(path, id string, k KnownPage)
}

// KnownPage is what a build keeps of a page file it read: its front
// matter and what LoadBody needs to find its body again.
type KnownPage struct {
	FrontMatter []byte
	Nodes       []byte // the front matter's tree, as yamlx.EncodeNodes wrote it
	BodyLine    int
	BodyLen     int
	BodyCRC     uint32
	Sum         [32]byte
}

// Load reads content/<lang>/ for every configured locale from fsys.
func Load(ctx context.Context, fsys fs.FS, opts Options) (*Source, error) {
	files, errs, err := Read(ctx, fsys, opts)
	if err != nil {
		return nil, err
	}
	src, aerr := Assemble(opts, files)
	errs.AddErr(diag.Pos{}, aerr)
	return src, errs.Err()
}

// Read finds and parses the files of content/<lang>/ for every configured
// locale: the files Load assembles (the dev server keeps them to parse
// again only those that change). errs are the folders it could not read;
// err is set when ctx was cancelled.
func Read(ctx context.Context, fsys fs.FS, opts Options) (files []SourceFile, errs diag.List, err error) {
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
			if d.IsDir() {
				return nil
			}
			if f, ok := Classify(p, opts.Langs); ok {
				files = append(files, f)
			}
			return nil
		})
		if err != nil {
			return nil, nil, err
		}
	}

	// Four readers per core: with one per core the cores sat idle a third
	// of the time while pages were read and parsed (10,000 pages: 250 ms
	// with 2 readers on 2 cores, 185 ms with 8; a whole build 5% faster).
	var wg sync.WaitGroup
	next := make(chan int)
	for w := 0; w < 4*runtime.GOMAXPROCS(0); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			// The reader's buffer, used again for the next file while
			// nothing keeps a part of what it holds (parse says so).
			var buf []byte
			for i := range next {
				buf = files[i].parse(fsys, opts, buf)
			}
		}()
	}
	for i := range files {
		if ctx.Err() != nil {
			break
		}
		next <- i
	}
	close(next)
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}
	return files, errs, nil
}

func parseStrings(file string, src []byte) (map[string]string, diag.List) {
	var errs diag.List
	var doc yaml.Node
	if err := yaml.Unmarshal(src, &doc); err != nil {
		errs.AddErr(diag.Pos{File: file}, yamlx.SyntaxError(file, src, err, 0))
		return nil, errs
	}
	m := map[string]string{}
	if len(doc.Content) == 0 {
		return m, nil
	}
	errs.Merge(yamlx.Decode(file, doc.Content[0], &m))
	return m, errs
}
