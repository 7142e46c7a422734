package content

import (
	"crypto/sha256"
	"errors"
	"io/fs"
	"path"
	"sort"
	"strings"
	"unicode/utf8"

	"sitegen/pkg/diag"
	"sitegen/pkg/sitefs"
	"sitegen/pkg/yamlx"
)

// Kind is what a file under content/ holds.
type Kind int

// The kinds of content files.
const (
	KindPage    Kind = iota // <lang>/**.md
	KindData                // <lang>/data/**.yaml
	KindStrings             // <lang>/i18n.yaml
	KindOther               // anything else: an error
)

// SourceFile is one file under content/, parsed by Parse. The dev server keeps
// parsed files across rebuilds and parses again only the ones that changed.
type SourceFile struct {
	Path string // in the source tree, e.g. content/pl/o-nas.md
	Lang string
	Rel  string // below content/<lang>/
	Kind Kind

	Page    *Page
	Sets    []*DataSet
	Strings map[string]string
	Errs    diag.List
}

// Classify tells what the file at p (a slash path in the source tree) is;
// ok is false for paths that are not content of a configured locale
// (directories, dot files, other folders).
func Classify(p string, langs []string) (SourceFile, bool) {
	rest, ok := strings.CutPrefix(p, Dir+"/")
	if !ok {
		return SourceFile{}, false
	}
	lang, rel, ok := strings.Cut(rest, "/")
	if !ok || !contains(langs, lang) || strings.HasPrefix(path.Base(rel), ".") {
		return SourceFile{}, false
	}
	f := SourceFile{Path: p, Lang: lang, Rel: rel, Kind: KindOther}
	switch {
	case rel == "i18n.yaml":
		f.Kind = KindStrings
	case strings.HasPrefix(rel, "data/") && (strings.HasSuffix(rel, ".yaml") || strings.HasSuffix(rel, ".yml")):
		f.Kind = KindData
	case strings.HasSuffix(rel, ".md"):
		f.Kind = KindPage
	}
	return f, true
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// MaxPageBytes bounds a page's file: parsing and rendering Markdown takes
// about 50 times its size in memory at its peak, 200 times for a page of
// nothing but links (4 MB of broken links took 855 MB, a 20 MB page over
// 1 GB, issue 36), and 2 MB of text is a long book. docs/content-model.md
// documents it.
const MaxPageBytes = 2 << 20

func tooLarge(file string, size int64) diag.Diagnostic {
	return diag.New(diag.Pos{File: file}, "the page has %d bytes, more than the %d (%d MB) a page may have", size, MaxPageBytes, MaxPageBytes>>20).
		WithHint("split it into several pages")
}

// Parse reads and parses the file, filling Page, Sets or Strings and Errs.
// A panic (a bug) becomes an internal error at the file instead of ending
// the process.
func (f *SourceFile) Parse(fsys fs.FS, opts Options) { f.parse(fsys, opts, nil) }

// parse is Parse reading a page file into buf when it has room; it returns
// the buffer the file was read into when nothing kept a part of it (a page
// whose body was dropped: LazyBodies), for the next file, else nil.
func (f *SourceFile) parse(fsys fs.FS, opts Options, buf []byte) (free []byte) {
	f.Page, f.Sets, f.Strings, f.Errs = nil, nil, nil, nil
	defer func() {
		if v := recover(); v != nil {
			f.Page, f.Sets, f.Strings, f.Errs = nil, nil, nil, nil
			f.Errs.Addf(diag.Pos{File: f.Path}, "internal error while reading this file: %v (this is a bug in sitegen; please report it)", v)
			free = nil
		}
	}()
	if f.Kind == KindOther {
		f.Errs.Add(diag.New(diag.Pos{File: f.Path}, "unexpected file in content").
			WithHint("pages are .md files, data sets are data/*.yaml, UI strings are i18n.yaml; static files belong in assets/static/"))
		return
	}
	var id string
	if f.Kind == KindPage && opts.Pages != nil && opts.LazyBodies {
		id = opts.Pages.Identity(f.Path)
		if k, ok := opts.Pages.Known(f.Path, id); ok && id != "" {
			f.knownPage(k, opts)
			return buf
		}
	}
	var src []byte
	var sum [32]byte
	var err error
	if f.Kind == KindPage {
		src, sum, err = readPage(fsys, buf, f.Path, id)
	} else {
		src, err = fs.ReadFile(fsys, f.Path)
	}
	var tl *sitefs.TooLargeError
	if errors.As(err, &tl) {
		f.Errs.Add(tooLarge(f.Path, tl.Size))
		return buf
	}
	if err != nil {
		f.Errs.Addf(diag.Pos{File: f.Path}, "cannot read: %v", err)
		return buf
	}
	if f.Kind == KindPage && len(src) > MaxPageBytes { // it grew since
		f.Errs.Add(tooLarge(f.Path, int64(len(src))))
		return nil
	}
	if at, off, bad := invalidUTF8(f.Path, src); bad {
		f.Errs.Add(diag.New(at, "invalid UTF-8 (byte 0x%02x): content must be UTF-8 text", src[off]).
			WithHint("save the file as UTF-8 in your editor"))
		return nil
	}
	switch f.Kind {
	case KindPage:
		var fm frontMatter
		f.Page, fm, f.Errs = parsePage(f.Path, f.Lang, f.Rel, src, sum, opts.FrontMatter, id != "")
		pg := f.Page
		if pg == nil {
			return nil
		}
		if opts.LazyBodies { // the body is dropped here, its place kept once
			pg.dropBody()
		}
		if id != "" { // with LazyBodies
			opts.Pages.Remember(f.Path, id, KnownPage{FrontMatter: fm.text, Nodes: fm.nodes, BodyLine: pg.BodyLine,
				BodyLen: pg.lazy.len, BodyCRC: pg.lazy.sum, Sum: pg.Sum})
		}
		f.pageDone(opts)
		if opts.LazyBodies {
			// Nothing holds a part of src: the front matter's values are
			// copies (yaml.v3, packStrings), the body was dropped.
			return src
		}
	case KindData:
		base := strings.TrimSuffix(strings.TrimSuffix(path.Base(f.Rel), ".yaml"), ".yml")
		if dir := path.Dir(strings.TrimPrefix(f.Rel, "data/")); dir != "." {
			base = strings.ReplaceAll(dir, "/", ".") + "." + base
		}
		f.Sets, f.Errs = ParseData(opts.Schema, f.Path, base, src)
	case KindStrings:
		f.Strings, f.Errs = parseStrings(f.Path, src)
	}
	return nil
}

// PageReader is a file system that reads a page file in one go, into buf
// when it has room: at most max bytes of it (a larger file is not read,
// and its error is a *sitefs.TooLargeError), with the SHA-256 of the bytes
// read (Page.Sum).
// id, when not "", is the file's identity PageFiles.Identity took before
// the read. The build's input recorder is one: it records the file with
// that identity and digest, where a Stat before the read and a digest of
// its own stated the file three times and hashed it twice.
type PageReader interface {
	ReadPage(buf []byte, name, id string, max int64) ([]byte, [32]byte, error)
}

// readPage reads a page file of fsys for Parse, with its digest, into buf
// when fsys can.
func readPage(fsys fs.FS, buf []byte, name, id string) ([]byte, [32]byte, error) {
	if r, ok := fsys.(PageReader); ok {
		return r.ReadPage(buf, name, id, MaxPageBytes)
	}
	src, err := sitefs.ReadFileBuf(fsys, buf, name, MaxPageBytes)
	if err != nil {
		return nil, [32]byte{}, err
	}
	return src, sha256.Sum256(src), nil
}

// knownPage makes the page of a file known from an earlier build: its
// front matter is parsed (or taken from the cache) and checked as if the
// file were read; its body stays where it is (LoadBody).
func (f *SourceFile) knownPage(k KnownPage, opts Options) {
	p := &Page{Lang: f.Lang, File: f.Path, BodyLine: k.BodyLine, Sum: k.Sum,
		lazy: bodyRef{len: k.BodyLen, sum: k.BodyCRC, dropped: true}}
	doc, err := yamlx.DecodeNodes(k.Nodes)
	if err != nil {
		doc = nil // parsed again
	}
	if f.Page, _, f.Errs = fromFrontMatter(p, f.Rel, k.FrontMatter, doc, opts.FrontMatter, false); f.Page != nil {
		f.pageDone(opts)
	}
}

// pageDone checks a parsed page's params against the schema and gives it
// the layout site.yaml names for it.
func (f *SourceFile) pageDone(opts Options) {
	pg := f.Page
	f.Errs.Merge(checkParams(opts.Schema, pg))
	if l, ok := opts.Layouts[pg.ID]; ok && !pg.layoutGiven {
		pg.Layout = l
	}
}

// Assemble builds the Source from parsed files (in any order): drafts are
// left out unless opts.Drafts, duplicate page ids and data set names are
// errors. The files' own parse errors are part of the result.
func Assemble(opts Options, files []SourceFile) (*Source, error) {
	var errs diag.List
	sorted := make([]*SourceFile, len(files))
	for i := range files {
		sorted[i] = &files[i]
	}
	sort.Slice(sorted, func(a, b int) bool { return sorted[a].Path < sorted[b].Path })
	src := &Source{Locales: map[string]*Locale{}}
	for _, lang := range opts.Langs {
		src.Locales[lang] = &Locale{Lang: lang, Data: map[string]*DataSet{}, Strings: map[string]string{}}
	}
	ids := map[string]map[string]*Page{}
	for _, f := range sorted {
		errs.Merge(f.Errs)
		loc := src.Locales[f.Lang]
		if loc == nil {
			continue
		}
		switch {
		case f.Page != nil:
			p := f.Page
			if p.Draft && !opts.Drafts {
				continue
			}
			if ids[f.Lang] == nil {
				ids[f.Lang] = map[string]*Page{}
			}
			if prev, dup := ids[f.Lang][p.ID]; dup && p.ID != "" {
				errs.Add(diag.New(p.Pos, "page id %q is already used", p.ID).WithRelated(prev.Pos, "first used at").
					WithHint("ids pair translations across locales; within a locale each is unique"))
				continue
			}
			ids[f.Lang][p.ID] = p
			loc.Pages = append(loc.Pages, p)
		case f.Sets != nil:
			for _, s := range f.Sets {
				if prev, dup := loc.Data[s.Name]; dup {
					errs.Add(diag.New(s.Pos, "data set %q is already defined", s.Name).WithRelated(prev.Pos, "first defined at"))
					continue
				}
				loc.Data[s.Name] = s
			}
		case f.Strings != nil:
			loc.Strings = f.Strings
		}
	}
	return src, errs.Err()
}

// invalidUTF8 returns the position of the first byte of src that is not
// part of valid UTF-8, and its offset.
func invalidUTF8(file string, src []byte) (diag.Pos, int, bool) {
	if utf8.Valid(src) {
		return diag.Pos{}, 0, false
	}
	line, lineStart := 1, 0
	for i := 0; i < len(src); {
		r, n := utf8.DecodeRune(src[i:])
		if r == utf8.RuneError && n <= 1 {
			return diag.Pos{File: file, Line: line, Col: utf8.RuneCount(src[lineStart:i]) + 1}, i, true
		}
		if r == '\n' {
			line, lineStart = line+1, i+1
		}
		i += n
	}
	return diag.Pos{}, 0, false
}
