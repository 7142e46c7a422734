package markdown

import (
	"fmt"
	"io"
	"strings"

	chromahtml "github.com/alecthomas/chroma/v2/formatters/html"
	"github.com/alecthomas/chroma/v2/styles"
)

// HighlightCSS writes the stylesheet of chroma's style name for the
// classes highlighted code blocks carry (markdown.highlight): the colours
// of a code block come from it. An unknown style is an error that lists
// the styles there are.
func HighlightCSS(w io.Writer, name string) error {
	style, ok := styles.Registry[strings.ToLower(name)]
	if !ok {
		return fmt.Errorf("no highlighting style %q; the styles are %s", name, strings.Join(styles.Names(), ", "))
	}
	return chromahtml.New(chromahtml.WithClasses(true)).WriteCSS(w, style)
}
