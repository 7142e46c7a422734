package build

import (
	"bytes"
	"path"
	"slices"
	"strings"

	"sitegen/pkg/assets"
	"sitegen/pkg/output"
)

// inlineStyles returns the bundled stylesheets, by entry ("css/main.css"),
// as the text the template function stylesheet writes between <style> and
// </style>. A stylesheet linked from the head costs a mobile visitor a
// round trip before anything shows (bench/lighthouse measured about 1 s of
// the mobile LCP); inline, the first response paints.
func inlineStyles(res *assets.Result) map[string]string {
	styles := map[string]string{}
	for _, e := range assets.Entries {
		u, ok := res.URLs[e]
		if !ok || path.Ext(e) != ".css" {
			continue
		}
		css := strings.TrimSpace(string(res.Files[strings.TrimPrefix(u, "/")]))
		// "</style" would end the element early; "\/" is "/" in CSS.
		css = strings.ReplaceAll(css, "</style", `<\/style`)
		css = strings.ReplaceAll(css, "</STYLE", `<\/STYLE`)
		styles[e] = css
	}
	return styles
}

// styleHashes returns the CSP hash source of each <style> element in a
// page, from the bytes as written (whatever rewrote the HTML before).
func styleHashes(page []byte) []string {
	var out []string
	for rest := page; ; {
		i := bytes.Index(rest, []byte("<style"))
		if i < 0 {
			return out
		}
		rest = rest[i+len("<style"):]
		gt := bytes.IndexByte(rest, '>')
		if gt < 0 || (gt > 0 && !bytes.ContainsAny(rest[:1], " \t\n\r\f")) {
			continue // <stylefoo>, or no end of the tag
		}
		rest = rest[gt+1:]
		end := bytes.Index(rest, []byte("</style"))
		if end < 0 {
			return out
		}
		out = append(out, output.StyleHash(string(rest[:end])))
		rest = rest[end:]
	}
}

// policy is the site's CSP (sitePolicy) with the hashes of the <style>s
// its pages carry (collected as they are written).
func (s *Site) policy() output.CSP {
	p := sitePolicy(s.Config)
	p.Style = slices.Compact(slices.Sorted(slices.Values(s.styleHashes)))
	return p
}
