package markdown

import (
	"bytes"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// gfm is goldmark's GFM extension (extension.GFM: tables, strikethrough,
// task lists, bare URLs and e-mail addresses as links) with its linkify
// parser behind quickLinkify.
var gfm goldmark.Extender = gfmExtender{}

type gfmExtender struct{}

func (gfmExtender) Extend(m goldmark.Markdown) {
	m.Parser().AddOptions(parser.WithInlineParsers(
		// The priority extension.Linkify gives its parser.
		util.Prioritized(quickLinkify{extension.NewLinkifyParser()}, 999),
	))
	extension.Table.Extend(m)
	extension.Strikethrough.Extend(m)
	extension.TaskList.Extend(m)
}

// quickLinkify is goldmark's linkify parser, asked only where it can find
// a link. goldmark calls it at every space of every paragraph (and at '*',
// '_', '~', '('), and it tests four prefixes before it looks for an
// e-mail address: 6.5% of the CPU of a 50,000-page build, most of it in
// words that are neither. quickLinkify answers nil at once where the
// parser would, by the same tests in the same order (a URL's prefix; else
// not punctuation and an e-mail address's local part and '@', which
// util.FindEmailIndex checks first), and hands every other place to it:
// the document is the same (TestQuickLinkifySameHTML, FuzzQuickLinkify).
//
// The e-mail test itself (util.FindEmailIndex, at every word) is made only
// where an '@' lies ahead on the line: the offset of the next '@' of the
// document is kept in the parser's context (nextAtKey) and looked for
// again only once the parser has passed it.
type quickLinkify struct{ parser.InlineParser }

// nextAtKey holds, in a document's parser context, the offset in its source
// of the next '@' (len(source) when there is none) from the place it was
// last looked for.
var nextAtKey = parser.NewContextKey()

func (q quickLinkify) Parse(parent ast.Node, block text.Reader, pc parser.Context) ast.Node {
	line, seg := block.PeekLine()
	if len(line) > 0 {
		switch word, v := mayLink(line); v {
		case noLink:
			return nil
		case emailOnly:
			if !atAhead(block.Source(), seg, pc) || util.FindEmailIndex(word) < 0 {
				return nil
			}
		}
	}
	return q.InlineParser.Parse(parent, block, pc)
}

// atAhead reports whether the source has an '@' in the line segment seg.
func atAhead(src []byte, seg text.Segment, pc parser.Context) bool {
	next, ok := pc.Get(nextAtKey).(int)
	if !ok || next < seg.Start {
		next = len(src)
		if i := bytes.IndexByte(src[min(seg.Start, len(src)):], '@'); i >= 0 {
			next = seg.Start + i
		}
		pc.Set(nextAtKey, next)
	}
	return next < seg.Stop
}

// What the linkify parser can find at a place (mayLink).
const (
	noLink    = iota
	mayBeLink // a URL's prefix, or nothing after the trigger: the parser decides
	emailOnly // an e-mail address or nothing: util.FindEmailIndex decides
)

// mayLink tells what the linkify parser can find at the start of line
// (after the trigger character it starts with, if any), and the word an
// e-mail address would start.
func mayLink(line []byte) (word []byte, verdict int) {
	switch line[0] {
	case ' ', '*', '_', '~', '(':
		line = line[1:]
	}
	if len(line) == 0 {
		return nil, mayBeLink
	}
	switch line[0] {
	case 'h':
		if bytes.HasPrefix(line, []byte("http:")) || bytes.HasPrefix(line, []byte("https:")) {
			return nil, mayBeLink
		}
	case 'f':
		if bytes.HasPrefix(line, []byte("ftp:")) {
			return nil, mayBeLink
		}
	case 'w':
		if bytes.HasPrefix(line, []byte("www.")) {
			return nil, mayBeLink
		}
	}
	if util.IsPunct(line[0]) {
		return nil, noLink
	}
	return line, emailOnly
}
