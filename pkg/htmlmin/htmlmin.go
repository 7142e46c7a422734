// Package htmlmin minifies the HTML a build writes without changing what it
// means, at almost no cost per page.
//
// Minifying every page with a full minifier (github.com/tdewolff/minify)
// costs about a quarter more CPU per build of a large site, because most
// of a page's white space comes from a few places that are the same on
// every page. So the build minifies those places once:
//   - the templates' text, once per parse (CompactTemplates), keeping the
//     positions that template errors report;
//   - each inline SVG icon, once per icon (Minifier.SVG: tdewolff's SVG
//     minifier);
//   - the Markdown of data records, converted once per locale (Compact);
//   - each redirect page (Minifier.HTML).
//
// Page bodies from Markdown are left as goldmark writes them (a line break
// after each block): compacting them too saves about 0.1% of the real
// site's bytes for about 3% more CPU per build of a large site.
//
// What compaction does is in compact.go. Kept as they are everywhere:
// attribute values, comments, <!doctype html>, and the contents of <pre>,
// <textarea>, <script> (inline JSON, island props, JSON-LD) and <style>,
// byte for byte, so a hash of an inline script or style stays the hash of
// the bytes shipped.
package htmlmin

import (
	"bytes"
	"fmt"

	"github.com/tdewolff/minify/v2"
	"github.com/tdewolff/minify/v2/html"
	"github.com/tdewolff/minify/v2/svg"
)

// Minifier runs tdewolff/minify's HTML and SVG minifiers. It is safe for
// concurrent use.
type Minifier struct {
	m *minify.M
}

// New returns a Minifier. Its HTML minifier keeps what pages need kept:
//   - the contents of scripts and styles: no minifier is registered for
//     them, so they pass byte for byte (and a CSP hash of one stays true);
//   - attribute quotes (KeepQuotes): the client runtime's slices and many
//     checks look for type="module" and the like, and unquoted values save
//     almost nothing once gzipped;
//   - default attribute values (KeepDefaultAttrVals): input[type=text] and
//     button[type=submit] stay selectable by CSS and scripts;
//   - <html>, <head> and <body> (KeepDocumentTags): they carry lang and
//     class, and the runtime cuts the header and footer from <body>;
//   - every end tag (KeepEndTags): the runtime parses the page data's
//     <main> and the header and footer slices as fragments, where an
//     omitted </p> or </li> would close elsewhere than in the page;
//   - conditional and server-side-include comments (KeepSpecialComments).
//
// Inline SVG inside an HTML document passes through the HTML minifier as it
// is; SVG minifies an icon on its own.
func New() *Minifier {
	m := minify.New()
	m.Add("text/html", &html.Minifier{
		KeepDocumentTags:    true,
		KeepEndTags:         true,
		KeepQuotes:          true,
		KeepDefaultAttrVals: true,
		KeepSpecialComments: true,
	})
	return &Minifier{m: m}
}

// HTML minifies an HTML document or fragment; src is left as it is.
func (m *Minifier) HTML(src []byte) ([]byte, error) {
	// The minifier rewrites entities in its input in place: give it a copy.
	out, err := m.m.Bytes("text/html", append([]byte(nil), src...))
	if err != nil {
		return nil, fmt.Errorf("minifying HTML: %w", err)
	}
	return out, nil
}

// SVG minifies an SVG image to be inlined in HTML: white space, comments,
// numbers and path data written shorter, every coordinate kept (precision
// 0), and the xmlns an inline SVG does not need dropped.
func (m *Minifier) SVG(src []byte) ([]byte, error) {
	var out bytes.Buffer
	out.Grow(len(src))
	// A minifier of its own per call: svg.Minifier keeps state while it runs.
	o := &svg.Minifier{}
	if err := o.Minify(m.m, &out, bytes.NewReader(src), map[string]string{"inline": "1"}); err != nil {
		return nil, fmt.Errorf("minifying SVG: %w", err)
	}
	return out.Bytes(), nil
}
