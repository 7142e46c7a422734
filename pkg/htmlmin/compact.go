package htmlmin

import (
	"bytes"
	"text/template/parse"

	"sitegen/pkg/tmplwalk"
)

// Compaction is the cheap half of minification: it only removes and
// collapses white space, with the rules of the full minifier, on text whose
// structure it can follow without a full parse:
//   - in text, a run of white space next to the start or end tag of a block
//     element (p, div, li, section, ...; see tagKind) goes, any other run
//     with a line break becomes one space (white space without one, between
//     words, is left as it is);
//   - inside a tag, a run between attributes becomes one space, and goes
//     before ">";
//   - attribute values (quoted), comments, and the contents of <pre>,
//     <textarea>, <script> and <style> are copied unchanged.
//
// The build runs it where it costs nothing per page: once on the templates'
// text (CompactTemplates), and on the Markdown of data records.

type mode uint8

const (
	inText    mode = iota
	inTag          // between "<name" and ">", outside quotes
	inQuote        // in a quoted attribute value
	inRaw          // in the contents of pre, textarea, script or style
	inComment      // in <!-- ... -->
)

type before uint8

const (
	afterEdge   before = iota // the start, or an action's output: unknown
	afterInline               // text or an inline tag
	afterBlock                // the start or end tag of a block element
)

// scanner is the state of a compaction; it carries over from one template
// text to the next. It holds no pointers (it is written on every tag).
type scanner struct {
	mode  mode
	quote byte
	// The tag being read: a block element's, an end tag, and the raw
	// element it opens (an index in rawNames, 0 for none).
	tagBlock, tagEnd bool
	tagRaw           uint8
	raw              uint8 // inRaw: the element whose end tag ends it (rawNames)
	prev             before
	// rawEnd: the end tag being read closes the raw element the scanner
	// was in. stray: an end tag of a raw element came without its start
	// (in a template: the start is in another template).
	rawEnd, stray bool
}

// rawNames are the elements whose contents are copied unchanged; index 0
// is none.
var rawNames = [...][]byte{nil, []byte("pre"), []byte("textarea"), []byte("script"), []byte("style")}

// Compact compacts a complete HTML fragment or document (see above).
func Compact(src []byte) []byte {
	var s scanner
	return s.run(make([]byte, 0, len(src)), src)
}

// CompactString is Compact for a string.
func CompactString(src string) string {
	return string(Compact([]byte(src)))
}

func isSpace(c byte) bool { return c == ' ' || c == '\n' || c == '\t' || c == '\r' || c == '\f' }

// tagStop ends a stretch inside a tag to copy as it is: a quote, '>' or
// white space.
var tagStop [256]bool

func init() {
	for _, c := range []byte("\"'> \n\t\r\f") {
		tagStop[c] = true
	}
}

func isNameByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == ':' || c == '_'
}

func isLetter(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }

// tagKind says whether white space around the tags of the element name is
// dropped (the block elements of tdewolff/minify's HTML minifier, and the
// document's own tags and those of <head>, where white space is never
// shown), and which raw element it is (rawNames; 0: none).
func tagKind(name []byte) (block bool, raw uint8) {
	var low [16]byte
	for i, c := range name {
		if 'A' <= c && c <= 'Z' {
			if len(name) > len(low) {
				return false, 0
			}
			n := copy(low[:], name)
			for j := i; j < n; j++ {
				if c := low[j]; 'A' <= c && c <= 'Z' {
					low[j] = c + 'a' - 'A'
				}
			}
			name = low[:n]
			break
		}
	}
	switch string(name) {
	case "pre":
		return true, 1
	case "textarea":
		return false, 2
	case "script":
		return false, 3
	case "style":
		return true, 4
	case "address", "article", "aside", "blockquote", "br", "caption", "col", "colgroup", "dd", "details", "div",
		"dl", "dt", "fieldset", "figcaption", "figure", "footer", "form", "h1", "h2", "h3", "h4", "h5", "h6", "head",
		"header", "hgroup", "hr", "html", "legend", "li", "main", "menu", "nav", "noscript", "ol", "option", "p",
		"section", "summary", "table", "tbody", "td", "tfoot", "th", "thead", "title", "tr", "ul",
		"body", "meta", "link", "base", "!doctype":
		return true, 0
	}
	return false, 0
}

// tagAt reads the tag at b[0] == '<': its name as written ("/name" for an
// end tag, "!doctype" for a declaration) and length, or ok false when b
// does not start a tag.
func tagAt(b []byte) (name []byte, n int, ok bool) {
	i := 1
	if i < len(b) && (b[i] == '/' || b[i] == '!') {
		i++
	}
	if i >= len(b) || !isLetter(b[i]) {
		return nil, 0, false
	}
	for i < len(b) && isNameByte(b[i]) {
		i++
	}
	return b[1:i], i, true
}

// blockTag reports whether the tag at b[0] == '<' is a block element's
// start or end tag.
func blockTag(b []byte) bool {
	name, _, ok := tagAt(b)
	if !ok {
		return false
	}
	if name[0] == '/' {
		name = name[1:]
	}
	block, _ := tagKind(name)
	return block
}

// run compacts src, which continues the text the scanner has seen, and
// appends it to dst.
func (s *scanner) run(dst, src []byte) []byte {
	i := 0
	for i < len(src) {
		switch s.mode {
		case inRaw:
			j := indexEndTag(src[i:], rawNames[s.raw])
			if j < 0 {
				return append(dst, src[i:]...)
			}
			dst = append(dst, src[i:i+j]...)
			i += j
			s.mode, s.raw, s.rawEnd = inText, 0, true
		case inComment:
			j := bytes.Index(src[i:], []byte("-->"))
			if j < 0 {
				return append(dst, src[i:]...)
			}
			dst = append(dst, src[i:i+j+3]...)
			i += j + 3
			s.mode = inText
		case inQuote:
			j := bytes.IndexByte(src[i:], s.quote)
			if j < 0 {
				return append(dst, src[i:]...)
			}
			dst = append(dst, src[i:i+j+1]...)
			i += j + 1
			s.mode, s.quote = inTag, 0
		case inTag:
			dst, i = s.tagPart(dst, src, i)
		case inText:
			// Copy up to the next tag or line break (white space without
			// one is left as it is in text); IndexByte is the fast scan.
			j := len(src)
			if k := bytes.IndexByte(src[i:], '<'); k >= 0 {
				j = i + k
			}
			if k := bytes.IndexByte(src[i:j], '\n'); k >= 0 {
				j = i + k
			}
			if j == len(src) {
				dst = append(dst, src[i:]...)
				if !isSpace(src[len(src)-1]) {
					s.prev = afterInline
				}
				return dst
			}
			start := j // the run of white space: [start, end)
			for start > i && isSpace(src[start-1]) {
				start--
			}
			end := j
			for end < len(src) && isSpace(src[end]) {
				end++
			}
			dst = append(dst, src[i:start]...)
			if start > i {
				s.prev = afterInline
			}
			i = end
			if start == end { // a tag, with no white space before it
				dst, i = s.openTag(dst, src, i)
				continue
			}
			next := afterEdge // what follows the run
			if end < len(src) {
				next = afterInline
				if src[end] == '<' && blockTag(src[end:]) {
					next = afterBlock
				}
			}
			if s.prev != afterBlock && next != afterBlock {
				dst = append(dst, ' ')
			}
		}
	}
	return dst
}

// tagPart copies a tag's name and attributes from src[i] up to a quote
// (then in the quote), the tag's end (then after the tag) or white space,
// which it collapses to one space (none before the end). It returns dst
// and where to go on.
func (s *scanner) tagPart(dst, src []byte, i int) ([]byte, int) {
	j := i
	for j < len(src) && (!tagStop[src[j]] || src[j] == ' ' && j+1 < len(src) && !isSpace(src[j+1]) && src[j+1] != '>') {
		j++ // a single space before an attribute is copied as it is
	}
	dst = append(dst, src[i:j]...)
	i = j
	if i == len(src) {
		return dst, i
	}
	switch c := src[i]; c {
	case '"', '\'':
		dst = append(dst, c)
		i++
		s.mode, s.quote = inQuote, c
	case '>':
		dst = append(dst, c)
		i++
		s.closeTag()
	default:
		k := i
		for k < len(src) && isSpace(src[k]) {
			k++
		}
		if k == len(src) || src[k] != '>' {
			dst = append(dst, ' ')
		}
		i = k
	}
	return dst, i
}

// openTag handles the '<' at src[i] in text and returns dst and where to go
// on.
func (s *scanner) openTag(dst, src []byte, i int) ([]byte, int) {
	if bytes.HasPrefix(src[i:], []byte("<!--")) {
		s.mode = inComment
		return append(dst, "<!--"...), i + 4
	}
	name, n, ok := tagAt(src[i:])
	if !ok { // a '<' that starts no tag is text
		s.prev = afterInline
		return append(dst, '<'), i + 1
	}
	dst = append(dst, src[i:i+n]...)
	s.mode, s.tagEnd = inTag, name[0] == '/'
	if s.tagEnd {
		name = name[1:]
	}
	s.tagBlock, s.tagRaw = tagKind(name)
	return dst, i + n
}

// closeTag is called at the '>' that ends a tag.
func (s *scanner) closeTag() {
	s.mode = inText
	s.prev = afterInline
	if s.tagBlock {
		s.prev = afterBlock
	}
	if s.tagRaw != 0 && !s.tagEnd {
		s.mode, s.raw = inRaw, s.tagRaw
	}
	if s.tagRaw != 0 && s.tagEnd && !s.rawEnd {
		s.stray = true
	}
	s.tagBlock, s.tagEnd, s.tagRaw, s.rawEnd = false, false, 0, false
}

// indexEndTag returns the index in b of the end tag of name ("</name"
// followed by white space, '/' or '>'), case-insensitively, or -1.
func indexEndTag(b, name []byte) int {
	off := 0
	for {
		j := bytes.Index(b[off:], []byte("</"))
		if j < 0 {
			return -1
		}
		at := off + j
		end := at + 2 + len(name)
		if end <= len(b) && bytes.EqualFold(b[at+2:end], name) && (end == len(b) || !isNameByte(b[end])) {
			return at
		}
		off = at + 2
	}
}

// CompactTemplates compacts the text of parsed templates in place, keeping
// each node's position (so errors still name the template's own lines).
// A template's text is compacted only when its structure can be followed
// through its actions: every branch of an if, range or with must end in
// the same state it started in (inside a tag, an attribute value, raw
// text...), and a template is left as it is if another calls it anywhere
// but in text. When a template ends inside a tag or raw text, or closes a
// <pre>, <textarea>, <script> or <style> it did not open (so that text in
// another template is inside it), no template is compacted. Trees seen
// before are skipped.
func CompactTemplates(trees []*parse.Tree) {
	// First pass: which templates are called from inside a tag, an
	// attribute value or raw text, and which cannot be followed.
	skip := map[string]bool{}
	ok := map[*parse.Tree]bool{}
	for _, t := range trees {
		if t == nil || t.Root == nil {
			continue
		}
		var w walker
		w.calls = func(name string, s scanner) {
			if s.mode != inText {
				skip[name] = true
			}
		}
		end, good := w.list(t.Root, scanner{}, false)
		if good && (end.mode != inText || end.stray) {
			return // one template's text continues in another's
		}
		if good {
			ok[t] = true
		} else { // where it calls others is not known: leave them all
			calledBy(t.Root, skip)
		}
	}
	done := map[*parse.Tree]bool{}
	for _, t := range trees {
		if !ok[t] || skip[t.Name] || done[t] {
			continue
		}
		done[t] = true
		var w walker
		w.list(t.Root, scanner{}, true)
	}
}

// walker follows the scanner through a template's nodes.
type walker struct {
	calls func(name string, s scanner) // a template call, with the state there
}

// list runs s through the nodes of l (rewriting text when apply) and returns
// the state after them, or false when it cannot follow them.
func (w *walker) list(l *parse.ListNode, s scanner, apply bool) (scanner, bool) {
	if l == nil {
		return s, true
	}
	for _, n := range l.Nodes {
		switch n := n.(type) {
		case *parse.TextNode:
			out := s.run(make([]byte, 0, len(n.Text)), n.Text)
			if apply {
				n.Text = out
			}
		case *parse.ActionNode:
			if name := partialName(n); name != "" && w.calls != nil {
				w.calls(name, s)
			}
			s.prev = afterEdge
		case *parse.TemplateNode:
			if w.calls != nil {
				w.calls(n.Name, s)
			}
			s.prev = afterEdge
		case *parse.CommentNode, *parse.BreakNode, *parse.ContinueNode:
		case *parse.IfNode:
			var ok bool
			if s, ok = w.branch(&n.BranchNode, s, apply); !ok {
				return s, false
			}
		case *parse.WithNode:
			var ok bool
			if s, ok = w.branch(&n.BranchNode, s, apply); !ok {
				return s, false
			}
		case *parse.RangeNode:
			var ok bool
			if s, ok = w.branch(&n.BranchNode, s, apply); !ok {
				return s, false
			}
		default:
			return s, false
		}
	}
	return s, true
}

// branch follows both lists of an if, with or range; both must end in the
// state they started in (so a range's body can run again after itself).
func (w *walker) branch(b *parse.BranchNode, s scanner, apply bool) (scanner, bool) {
	a, ok := w.list(b.List, s, apply)
	if !ok || !sameState(a, s) {
		return s, false
	}
	e, ok := w.list(b.ElseList, s, apply)
	if !ok || !sameState(e, s) {
		return s, false
	}
	s.prev = afterEdge
	return s, true
}

// sameState reports whether two states are in the same place of the HTML
// structure (what came last in text may differ).
func sameState(a, b scanner) bool {
	return a.mode == b.mode && a.quote == b.quote && a.tagBlock == b.tagBlock && a.tagEnd == b.tagEnd && a.tagRaw == b.tagRaw &&
		a.raw == b.raw && a.rawEnd == b.rawEnd && a.stray == b.stray
}

// partialName returns the template a {{ partial "name" ... }} action runs,
// or "".
func partialName(a *parse.ActionNode) string {
	if a.Pipe == nil {
		return ""
	}
	for _, c := range a.Pipe.Cmds {
		if len(c.Args) >= 2 {
			if id, ok := c.Args[0].(*parse.IdentifierNode); ok && id.Ident == "partial" {
				if s, ok := c.Args[1].(*parse.StringNode); ok {
					return s.Text
				}
			}
		}
	}
	return ""
}

// calledBy adds to names every template the nodes under n call.
func calledBy(n parse.Node, names map[string]bool) {
	tmplwalk.Walk(n, func(n parse.Node) {
		switch n := n.(type) {
		case *parse.TemplateNode:
			names[n.Name] = true
		case *parse.ActionNode:
			if name := partialName(n); name != "" {
				names[name] = true
			}
		}
	})
}
