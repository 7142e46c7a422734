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
type quickLinkify struct{ parser.InlineParser }

func (q quickLinkify) Parse(parent ast.Node, block text.Reader, pc parser.Context) ast.Node {
	line, _ := block.PeekLine()
	if len(line) > 0 && !mayLink(line) {
		return nil
	}
	return q.InlineParser.Parse(parent, block, pc)
}

// mayLink reports whether the linkify parser can find a link at the start
// of line (after the trigger character it starts with, if any).
func mayLink(line []byte) bool {
	switch line[0] {
	case ' ', '*', '_', '~', '(':
		line = line[1:]
	}
	if len(line) == 0 {
		return true // the parser decides
	}
	switch line[0] {
	case 'h':
		if bytes.HasPrefix(line, []byte("http:")) || bytes.HasPrefix(line, []byte("https:")) {
			return true
		}
	case 'f':
		if bytes.HasPrefix(line, []byte("ftp:")) {
			return true
		}
	case 'w':
		if bytes.HasPrefix(line, []byte("www.")) {
			return true
		}
	}
	if util.IsPunct(line[0]) {
		return false
	}
	return util.FindEmailIndex(line) >= 0
}
