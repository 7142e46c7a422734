// Package markdown converts Markdown to HTML with one goldmark set up once:
// GFM, heading ids that keep Polish words readable, highlighted code blocks
// (CSS classes, no inline styles) and links resolved per locale.
package markdown

import (
	"bytes"
	"fmt"
	"strings"
	"sync"
	"unsafe"

	"github.com/yuin/goldmark"
	highlighting "github.com/yuin/goldmark-highlighting/v2"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/renderer/html"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"

	chromahtml "github.com/alecthomas/chroma/v2/formatters/html"

	"sitegen/pkg/diag"
)

// Resolver turns a link destination into a URL, or fails.
type Resolver func(dest string) (string, error)

// Converter converts Markdown. It is safe for concurrent use.
type Converter struct {
	md goldmark.Markdown
}

var resolverKey = parser.NewContextKey()
var errsKey = parser.NewContextKey()

// Options configure a converter.
type Options struct {
	// Highlight renders fenced code with chroma's CSS classes.
	Highlight bool
}

// New returns a converter.
func New(opts Options) *Converter {
	exts := []goldmark.Extender{gfm}
	if opts.Highlight {
		exts = append(exts, highlighting.NewHighlighting(
			highlighting.WithFormatOptions(chromahtml.WithClasses(true)),
			highlighting.WithGuessLanguage(false),
		))
	}
	md := goldmark.New(
		goldmark.WithExtensions(exts...),
		goldmark.WithParserOptions(
			parser.WithAutoHeadingID(),
			parser.WithASTTransformers(util.Prioritized(linkTransformer{}, 100)),
		),
		goldmark.WithRendererOptions(html.WithUnsafe()),
	)
	return &Converter{md: md}
}

// Source is Markdown with where it came from.
type Source struct {
	Text []byte
	Pos  diag.Pos // position of the first character; Col 0 when columns cannot be told
	// Images, when set, is offered every image first (see ImageHook).
	Images ImageHook
}

type linkErrors struct {
	mu   sync.Mutex
	list diag.List
	more int // links that failed past maxLinkErrors, counted only
}

// maxLinkErrors bounds the link errors one source reports: a page of
// 260,000 broken links took 1.2 GB and minutes to report them (issue 36);
// past it the others are counted in one last diagnostic.
const maxLinkErrors = 100

// add records d unless maxLinkErrors were recorded already.
func (e *linkErrors) add(d diag.Diagnostic) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if len(e.list) >= maxLinkErrors {
		e.more++
		return
	}
	e.list.Add(d)
}

// full reports whether further link errors would only be counted.
func (e *linkErrors) full() bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	return len(e.list) >= maxLinkErrors
}

// result is the errors recorded and, when some were only counted, one
// saying how many, at pos.
func (e *linkErrors) result(pos diag.Pos) diag.List {
	if e.more > 0 {
		e.list.Add(diag.New(pos, "and %d more link errors in this text (only the first %d are shown)", e.more, maxLinkErrors))
	}
	return e.list
}

// Block converts Markdown to HTML. Links are passed through resolve; a link
// that fails is a diagnostic at its line.
func (c *Converter) Block(src Source, resolve Resolver) (string, diag.List) {
	b, errs := c.AppendBlock(nil, src, resolve)
	if len(b) == 0 {
		return "", errs
	}
	// The buffer is this call's own and never written again: the string
	// shares its bytes instead of copying them.
	return unsafe.String(&b[0], len(b)), errs
}

// AppendBlock is Block with the HTML appended to dst: a caller's buffer,
// which it may use again once it is done with the HTML.
func (c *Converter) AppendBlock(dst []byte, src Source, resolve Resolver) ([]byte, diag.List) {
	if d, bad := checkBounds(src); bad {
		return dst, diag.List{d}
	}
	out := bufferWriter{bytes.NewBuffer(dst)}
	out.Grow(len(src.Text) + len(src.Text)/4 + 64) // HTML is a little longer than its Markdown
	errs := &linkErrors{}
	pc := parser.NewContext(parser.WithIDs(newIDs()))
	pc.Set(resolverKey, resolve)
	pc.Set(errsKey, &sourceInfo{src: src, errs: errs})
	if err := c.md.Convert(src.Text, out, parser.WithContext(pc)); err != nil {
		errs.list.Add(diag.New(src.Pos, "markdown: %v", err))
	}
	return out.Bytes(), errs.result(src.Pos)
}

// bufferWriter is a bytes.Buffer that goldmark's renderer takes as its
// util.BufWriter: it writes straight into the buffer instead of through a
// bufio.Writer of its own (a 4 KB allocation and a copy per conversion).
type bufferWriter struct{ *bytes.Buffer }

var _ util.BufWriter = bufferWriter{}

func (w bufferWriter) Buffered() int { return 0 }
func (w bufferWriter) Flush() error  { return nil }

// CheckLinks parses src and passes every link and image destination through
// resolve, as rendering does (reference-style links included, since the
// parser resolves them to links), without rendering. A link that fails is a
// diagnostic at its own position.
func (c *Converter) CheckLinks(src Source, resolve Resolver) diag.List {
	if d, bad := checkBounds(src); bad {
		return diag.List{d}
	}
	errs := &linkErrors{}
	pc := parser.NewContext(parser.WithIDs(newIDs()))
	pc.Set(resolverKey, resolve)
	pc.Set(errsKey, &sourceInfo{src: src, errs: errs})
	c.md.Parser().Parse(text.NewReader(src.Text), parser.WithContext(pc))
	return errs.result(src.Pos)
}

// Inline converts a short text to HTML without the wrapping paragraph.
func (c *Converter) Inline(src Source, resolve Resolver) (string, diag.List) {
	out, errs := c.Block(src, resolve)
	out = strings.TrimSpace(out)
	if strings.HasPrefix(out, "<p>") && strings.HasSuffix(out, "</p>") && strings.Count(out, "<p>") == 1 {
		out = out[3 : len(out)-4]
	}
	return out, errs
}

type sourceInfo struct {
	src  Source
	errs *linkErrors
}

type linkTransformer struct{}

func (linkTransformer) Transform(doc *ast.Document, reader text.Reader, pc parser.Context) {
	resolve, _ := pc.Get(resolverKey).(Resolver)
	info, _ := pc.Get(errsKey).(*sourceInfo)
	if resolve == nil || info == nil {
		return
	}
	source := reader.Source()
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		var dest *[]byte
		switch l := n.(type) {
		case *ast.Link:
			dest = &l.Destination
		case *ast.Image:
			if info.src.Images != nil {
				html, ok, err := info.src.Images(string(l.Destination), imageAlt(l, source), string(l.Title))
				if ok || err != nil {
					if err != nil {
						if info.errs.full() {
							info.errs.add(diag.Diagnostic{}) // counted
						} else {
							info.errs.add(diag.Diagnostic{Pos: imagePos(info.src.Pos, source, l), Message: err.Error()})
						}
						return ast.WalkSkipChildren, nil
					}
					s := ast.NewString([]byte(html))
					s.SetCode(true) // written as is
					l.Parent().ReplaceChild(l.Parent(), l, s)
					return ast.WalkSkipChildren, nil
				}
			}
			dest = &l.Destination
		case *ast.AutoLink:
			return ast.WalkSkipChildren, nil
		default:
			return ast.WalkContinue, nil
		}
		url, err := resolve(string(*dest))
		if err != nil && info.errs.full() {
			info.errs.add(diag.Diagnostic{}) // counted; its position is not worked out
			return ast.WalkContinue, nil
		}
		if err != nil {
			pos := info.src.Pos
			if off := firstOffset(n); off >= 0 {
				pos.Line += bytes.Count(source[:off], []byte("\n"))
				switch nl := bytes.LastIndexByte(source[:off], '\n'); {
				case pos.Col == 0:
					// Columns unknown (an indented YAML block): lines only.
				case nl >= 0:
					pos.Col = off - nl
				default:
					pos.Col += off // on the first line, which may start mid-line (a YAML value)
				}
			}
			d := diag.Diagnostic{Pos: pos, Message: fmt.Sprintf("link %q: %v", string(*dest), err)}
			if dg, ok := err.(diag.Diagnostic); ok {
				d.Message = fmt.Sprintf("link %q: %s", string(*dest), dg.Message)
				d.Hint = dg.Hint
			}
			info.errs.add(d)
			return ast.WalkContinue, nil
		}
		*dest = []byte(url)
		return ast.WalkContinue, nil
	})
}

// firstOffset finds the byte offset of the first text inside n, or -1.
func firstOffset(n ast.Node) int {
	off := -1
	_ = ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		if t, ok := c.(*ast.Text); ok && entering {
			off = t.Segment.Start
			return ast.WalkStop, nil
		}
		return ast.WalkContinue, nil
	})
	if off > 0 {
		off-- // the '[' before the text
	}
	if _, ok := n.(*ast.Image); ok && off > 0 {
		off-- // and the '!' before that
	}
	return off
}

// ids generates heading ids (Slugify), unique within a document.
type ids struct{ seen map[string]int }

func newIDs() *ids { return &ids{seen: map[string]int{}} }

func (g *ids) Generate(value []byte, kind ast.NodeKind) []byte {
	id := Slugify(string(value))
	if id == "" {
		id = "section"
	}
	base := id
	for i := 1; g.seen[id] > 0; i++ {
		id = fmt.Sprintf("%s-%d", base, i)
	}
	g.seen[id]++
	return []byte(id)
}

func (g *ids) Put(value []byte) { g.seen[string(value)]++ }

// ImageHook renders a Markdown image ![alt](dest "title") itself: ok false
// leaves it to the default <img>; an error is reported at the image.
type ImageHook func(dest, alt, title string) (html string, ok bool, err error)

// imageAlt is the plain text of an image's description.
func imageAlt(n *ast.Image, source []byte) string {
	var b strings.Builder
	_ = ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		if t, ok := c.(*ast.Text); ok && entering {
			b.Write(t.Segment.Value(source))
			if t.SoftLineBreak() {
				b.WriteByte(' ')
			}
		}
		return ast.WalkContinue, nil
	})
	return b.String()
}

// imagePos is where an image stands: at its description, or (when it has
// none) at the first occurrence of its destination.
func imagePos(pos diag.Pos, source []byte, n *ast.Image) diag.Pos {
	off := firstOffset(n)
	if off < 0 {
		if i := bytes.Index(source, append([]byte("]("), n.Destination...)); i >= 0 {
			off = bytes.LastIndex(source[:i], []byte("!["))
		}
	}
	if off >= 0 {
		pos.Line += bytes.Count(source[:off], []byte("\n"))
		pos.Col = off - bytes.LastIndexByte(source[:off], '\n')
	}
	return pos
}
