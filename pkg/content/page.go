package content

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"

	"gopkg.in/yaml.v3"

	"sitegen/pkg/diag"
	"sitegen/pkg/schema"
	"sitegen/pkg/sitepath"
	"sitegen/pkg/yamlx"
)

// Page is one Markdown file of one locale.
type Page struct {
	ID          string   `yaml:"id" sg:"required"`
	Slug        *string  `yaml:"slug"`
	Title       string   `yaml:"title" sg:"required"`
	Description string   `yaml:"description" sg:"required"`
	Keywords    string   `yaml:"keywords"`
	Layout      string   `yaml:"layout"`
	Aliases     []Alias  `yaml:"aliases"`
	Date        string   `yaml:"date"`
	Draft       bool     `yaml:"draft"`
	Summary     string   `yaml:"summary"`
	Tags        []string `yaml:"tags"`
	// Terms are the page's terms per taxonomy of site.yaml.
	Terms Terms `yaml:"terms"`
	// Paginate pages the list of the pages below this page, this many to
	// a page (0: one page); with PaginateData, the records of that data
	// set (<file>.<key>, a set of items) instead.
	Paginate     int            `yaml:"paginate"`
	PaginateData string         `yaml:"paginateData"`
	Image        File           `yaml:"image"`
	Params       map[string]any `yaml:"params"`
	Sections     []Section      `yaml:"sections"`

	Lang string   `yaml:"-"`
	File string   `yaml:"-"` // path in the source tree, e.g. content/pl/o-nas/kontakt.md
	Pos  diag.Pos `yaml:"-"` // position of the id
	// PaginatePos is the position of paginateData, else of paginate.
	PaginatePos diag.Pos `yaml:"-"`
	SlugPos     diag.Pos `yaml:"-"` // position of the slug, or of the file when the slug comes from its name
	// LayoutPos is the position of the layout, or of the id when the
	// layout is the default.
	LayoutPos diag.Pos `yaml:"-"`
	Body      []byte   `yaml:"-"` // nil after Load with LazyBodies: see LoadBody
	BodyLine  int      `yaml:"-"` // line number of the first body line
	// Sum is the SHA-256 of the file's bytes as they were read: what the
	// page was built from, for caches that must not read the file again
	// (and what the build's input recorder holds of the file).
	Sum  [32]byte `yaml:"-"`
	lazy bodyRef  // where the body was, once dropped (in the page: not an object of its own)

	paramsNode  *yaml.Node // for checking params against the site's schema
	layoutGiven bool
}

// Path returns the page's path below its locale prefix ("" for the home).
func (p *Page) Path() string { return *p.Slug }

// Section is one entry of a page's sections list.
type Section struct {
	Type   string         `yaml:"type" sg:"required"`
	ID     string         `yaml:"id"`
	Title  string         `yaml:"title"`
	Intro  Text           `yaml:"intro"`
	Data   string         `yaml:"data"`
	Params map[string]any `yaml:"params"`

	Pos     diag.Pos `yaml:"-"`
	DataPos diag.Pos `yaml:"-"`

	paramsNode *yaml.Node
}

// Alias is a path that redirects to the page.
type Alias struct {
	Path string
	Pos  diag.Pos
}

// DecodeNode implements yamlx.NodeDecoder.
func (a *Alias) DecodeNode(file string, n *yaml.Node) error {
	a.Pos = yamlx.Pos(file, n)
	if n.Kind != yaml.ScalarNode {
		return fmt.Errorf("alias must be text, got a list or mapping")
	}
	a.Path = n.Value
	if err := sitepath.Check(a.Path); err != nil {
		return fmt.Errorf("alias %q %v; it must be a clean absolute site path like /solutions/sales", a.Path, err)
	}
	return nil
}

// validSlug reports whether s is a slug: path segments joined by "/" (none
// empty, no slash at either end), in Unicode normal form NFC, each segment a
// letter or number followed by letters, numbers, combining marks, '.', '_'
// or '-'. A letter is lower-case (Ll) in a script that has case, or any
// letter of a script without one (Lo, Lm: kana, kanji, hangul, Arabic,
// Hebrew, Thai…): upper- and title-case letters are refused, since a URL
// that differs only in case would be another page on most hosts. Nothing
// else passes: no reserved character, control, bidi override or space, and
// no "." or ".." segment (a segment starts with a letter or number).
func validSlug(s string) bool { return slugProblem(s) == "" }

// SlugRule is the rule of validSlug, for hints.
const SlugRule = "a slug is path segments joined by /, each a lower-case letter (any letter in a script without case, like ブログ or مدونة) or a digit, then those, combining marks, '.', '_' or '-', in Unicode NFC"

// slugProblem says why s is not a slug, or "" when it is one.
func slugProblem(s string) string {
	if s == "" {
		return "is empty"
	}
	if strings.HasPrefix(s, "/") || strings.HasSuffix(s, "/") {
		return "starts or ends with a slash"
	}
	if !utf8.ValidString(s) {
		return "is not valid UTF-8"
	}
	for seg := range strings.SplitSeq(s, "/") {
		if seg == "" {
			return "has an empty segment (//)"
		}
		for i, r := range seg {
			switch {
			case slugLetter(r):
			case i > 0 && (unicode.Is(unicode.M, r) || r == '.' || r == '_' || r == '-'):
			case i == 0 && (unicode.Is(unicode.M, r) || r == '.' || r == '_' || r == '-'):
				return fmt.Sprintf("has a segment starting with %q", r)
			case unicode.IsUpper(r) || unicode.IsTitle(r):
				return fmt.Sprintf("holds the upper-case %q", r)
			default:
				return fmt.Sprintf("holds %q", r)
			}
		}
	}
	if !norm.NFC.IsNormalString(s) {
		return fmt.Sprintf("is not in Unicode normal form NFC (write %q)", norm.NFC.String(s))
	}
	return ""
}

// slugLetter reports whether r may start a slug segment: a number, a
// lower-case letter, or a letter of a script without case.
func slugLetter(r rune) bool {
	return unicode.IsNumber(r) || unicode.In(r, unicode.Ll, unicode.Lo, unicode.Lm)
}

// validID reports whether s is a page id: a-z or 0-9, then those, '.', '_'
// or '-'.
func validID(s string) bool {
	return validName(s, func(r rune) bool { return 'a' <= r && r <= 'z' || '0' <= r && r <= '9' })
}

// validName reports whether s is a rune first accepts followed by runes
// first accepts or '.', '_', '-'.
func validName(s string, first func(rune) bool) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		if !first(r) && (i == 0 || r != '.' && r != '_' && r != '-') {
			return false
		}
	}
	return true
}

// ParsePage parses a Markdown file with YAML front matter. file is the path
// used in diagnostics; rel is the path below content/<lang>/ (for the default
// slug).
func ParsePage(file, lang, rel string, src []byte) (*Page, diag.List) {
	p, _, errs := parsePage(file, lang, rel, src, sha256.Sum256(src), nil, false)
	return p, errs
}

// FrontMatterCache keeps parsed front matter between builds, by its text
// (a build's persistent cache). Get returns a tree the caller may change;
// Put keeps a tree as parsed, before the caller changes it.
type FrontMatterCache interface {
	Get(fm []byte) (*yaml.Node, bool)
	Put(fm []byte, encoded []byte) // the tree as yamlx.EncodeNodes wrote it
}

// frontMatter is a page's front matter as text and, when asked for, as
// yamlx.EncodeNodes writes its tree.
type frontMatter struct{ text, nodes []byte }

// parsePage is ParsePage with the front matter taken from fmc, when it has
// it, or parsed and given to it; sum is the SHA-256 of src as read (before
// a byte order mark or CRLFs are taken out). It also returns the front
// matter (its encoded tree with encode).
func parsePage(file, lang, rel string, src []byte, sum [32]byte, fmc FrontMatterCache, encode bool) (*Page, frontMatter, diag.List) {
	var errs diag.List
	src = normalize(src)
	if !bytes.HasPrefix(src, []byte("---\n")) {
		errs.Add(diag.New(diag.Pos{File: file, Line: 1, Col: 1}, "missing front matter").
			WithHint("start the file with a line ---, then YAML with id, title and description, then ---"))
		return nil, frontMatter{}, errs
	}
	rest := src[4:]
	end := bytes.Index(rest, []byte("\n---\n"))
	fm, body := []byte(nil), []byte(nil)
	switch {
	case bytes.HasPrefix(rest, []byte("---\n")):
		fm, body = nil, rest[4:]
	case end >= 0:
		fm, body = rest[:end+1], rest[end+5:]
	case bytes.HasSuffix(rest, []byte("\n---")):
		fm, body = rest[:len(rest)-3], nil
	default:
		errs.Add(diag.New(diag.Pos{File: file, Line: 1, Col: 1}, "front matter is not closed").WithHint("end it with a line ---"))
		return nil, frontMatter{}, errs
	}
	p := &Page{Lang: lang, File: file, Body: body, BodyLine: 3 + bytes.Count(fm, []byte("\n")), Sum: sum}
	p, nodes, errs := fromFrontMatter(p, rel, fm, nil, fmc, encode)
	return p, frontMatter{fm, nodes}, errs
}

// fromFrontMatter fills p (its file, language, body line and sum set) from
// its front matter and returns it, or nil when the front matter cannot be
// read; rel is its path below content/<lang>/. doc, when set, is the front
// matter's tree (from what an earlier build kept); else it comes from fmc
// or is parsed. With encode, it also returns the tree as
// yamlx.EncodeNodes writes it.
func fromFrontMatter(p *Page, rel string, fm []byte, doc *yaml.Node, fmc FrontMatterCache, encode bool) (*Page, []byte, diag.List) {
	var errs diag.List
	file := p.File
	var enc []byte
	if doc == nil && fmc != nil {
		if d, ok := fmc.Get(fm); ok {
			doc = d
			if encode {
				enc = yamlx.EncodeNodes(doc)
			}
		}
	}
	if doc == nil {
		doc = &yaml.Node{}
		if err := yaml.Unmarshal(fm, doc); err != nil {
			errs.AddErr(diag.Pos{File: file}, yamlx.SyntaxError(file, fm, err, 1))
			return nil, nil, errs
		}
		if fmc != nil || encode {
			enc = yamlx.EncodeNodes(doc)
		}
		if fmc != nil {
			fmc.Put(fm, enc)
		}
	}
	if len(doc.Content) == 0 {
		errs.Add(diag.New(diag.Pos{File: file, Line: 2, Col: 1}, "front matter is empty").WithHint("it needs at least id, title and description"))
		return nil, nil, errs
	}
	shift(doc, 1)
	root := doc.Content[0]
	errs.Merge(yamlx.Decode(file, root, p))
	p.Pos = yamlx.Pos(file, yamlx.Field(root, "id"))
	if p.Pos.Line == 0 {
		p.Pos = diag.Pos{File: file, Line: 2, Col: 1}
	}
	p.LayoutPos = yamlx.Pos(file, yamlx.Field(root, "layout"))
	if p.LayoutPos.Line == 0 {
		p.LayoutPos = p.Pos
	}
	if p.ID != "" && !validID(p.ID) {
		errs.Add(diag.New(p.Pos, "page id %q may hold only a-z, 0-9, '.', '_' and '-'", p.ID))
	}
	errs.Merge(pageSlug(p, rel, root))
	if p.Date != "" {
		if err := schema.CheckDate(p.Date); err != nil {
			errs.Add(diag.New(yamlx.Pos(file, yamlx.Field(root, "date")), "%v", err))
		}
	}
	errs.Merge(checkPaginate(p, root))
	p.layoutGiven = p.Layout != ""
	if p.Layout == "" {
		p.Layout = "page"
	}
	if secs := yamlx.Field(root, "sections"); secs != nil {
		for i := range p.Sections {
			n := yamlx.Index(secs, i)
			p.Sections[i].Pos = yamlx.Pos(file, n)
			p.Sections[i].DataPos = yamlx.Pos(file, yamlx.Field(n, "data"))
			p.Sections[i].paramsNode = yamlx.Field(n, "params")
		}
	}
	p.paramsNode = yamlx.Field(root, "params")
	packStrings(p)
	return p, enc, errs
}

// pageSlug sets the page's slug from its file name when the front matter
// gives none, and checks it.
func pageSlug(p *Page, rel string, root *yaml.Node) diag.List {
	var errs diag.List
	file := p.File
	if p.Slug == nil {
		s := strings.TrimSuffix(rel, ".md")
		switch {
		case s == "index":
			s = ""
		case strings.HasSuffix(s, "/index"):
			s = strings.TrimSuffix(s, "/index")
		}
		p.Slug = &s
		p.SlugPos = diag.Pos{File: file, Line: 1, Col: 1}
		if err := sitepath.Check("/" + s); s != "" && err != nil {
			errs.Add(diag.New(p.SlugPos, "the file name gives the page the path %q, which %v", s, err).
				WithHint("rename the file or set slug: in the front matter"))
		}
	} else if why := slugProblem(*p.Slug); *p.Slug != "" && why != "" {
		// One error per slug: validSlug admits only clean paths (no empty,
		// "." or ".." segment, no slash at either end).
		errs.Add(diag.New(yamlx.Pos(file, yamlx.Field(root, "slug")), "slug %q %s", *p.Slug, why).
			WithHint(SlugRule))
	} else if err := sitepath.Check("/" + *p.Slug); *p.Slug != "" && err != nil {
		errs.Add(diag.New(yamlx.Pos(file, yamlx.Field(root, "slug")), "slug %.40q… %v", *p.Slug, err).
			WithHint("shorten it"))
	}
	if p.SlugPos.File == "" {
		p.SlugPos = yamlx.Pos(file, yamlx.Field(root, "slug"))
	}
	return errs
}

// checkPaginate notes where paginate is given and checks it.
func checkPaginate(p *Page, root *yaml.Node) diag.List {
	var errs diag.List
	file := p.File
	p.PaginatePos = yamlx.Pos(file, yamlx.Field(root, "paginate"))
	if n := yamlx.Field(root, "paginateData"); n != nil {
		p.PaginatePos = yamlx.Pos(file, n)
		if p.Paginate == 0 {
			errs.Add(diag.New(p.PaginatePos, "paginateData %q needs paginate: the number of records per page", p.PaginateData).
				WithHint("like paginate: 10"))
		}
	}
	if n := yamlx.Field(root, "paginate"); n != nil && p.Paginate <= 0 && n.Tag == "!!int" {
		errs.Add(diag.New(yamlx.Pos(file, n), "paginate %d must be a positive number of pages per page", p.Paginate).
			WithHint("leave paginate out to list every page below this one on one page"))
	}
	return errs
}

func given(n *yaml.Node) bool { return n != nil && n.Tag != "!!null" }

// checkParams decodes the page's params, and those of its sections, against
// the params the site's schema declares for them (links, files and Markdown
// in them become checked values). Params the schema does not declare stay
// free-form.
func checkParams(sch *schema.Schema, p *Page) diag.List {
	var errs diag.List
	// The YAML nodes are needed for this check only: dropping them keeps a
	// loaded page to its values (a large site holds every page's).
	defer func() {
		p.paramsNode = nil
		for i := range p.Sections {
			p.Sections[i].paramsNode = nil
		}
	}()
	if sch == nil {
		return nil
	}
	if sch.Page != nil && given(p.paramsNode) {
		m, e := sch.DecodeParams(p.File, sch.Page, p.paramsNode)
		errs.Merge(e)
		p.Params = m
	}
	for i := range p.Sections {
		s := &p.Sections[i]
		t, ok := sch.Sections[s.Type]
		if !ok || !given(s.paramsNode) {
			continue
		}
		m, e := sch.DecodeParams(p.File, t, s.paramsNode)
		errs.Merge(e)
		s.Params = m
	}
	return errs
}

func shift(n *yaml.Node, lines int) {
	n.Line += lines
	for _, c := range n.Content {
		shift(c, lines)
	}
}
