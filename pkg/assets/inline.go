package assets

import (
	"path"
	"strings"
)

// InlineStyles returns the bundled stylesheets, by entry ("css/main.css"),
// as the text the template function stylesheet writes between <style> and
// </style>. A stylesheet linked from the head costs a mobile visitor a
// round trip before anything shows (bench/lighthouse measured about 1 s of
// the mobile LCP); inline, the first response paints.
func (r *Result) InlineStyles() map[string]string {
	styles := map[string]string{}
	for _, e := range Entries {
		u, ok := r.URLs[e]
		if !ok || path.Ext(e) != ".css" {
			continue
		}
		css := strings.TrimSpace(string(r.Files[strings.TrimPrefix(u, "/")]))
		// "</style" would end the element early; "\/" is "/" in CSS.
		css = strings.ReplaceAll(css, "</style", `<\/style`)
		css = strings.ReplaceAll(css, "</STYLE", `<\/STYLE`)
		styles[e] = css
	}
	return styles
}
