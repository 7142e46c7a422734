package output

import (
	"bytes"
	"regexp"
	"slices"
	"strings"
)

// InlineHashes returns the CSP hash source of each <style> element and
// each inline script the browser runs in a page, from the bytes as written
// (whatever rewrote the HTML before), each prefixed with its directive:
// "style-src 'sha256-...'" or "script-src 'sha256-...'". Data blocks
// (<script type="application/json">, ld+json) are not run and need none.
//
// The page is passed over once, looking for "<s" (a two-byte search, where
// one for "<style" and another for "<script" stopped at every '<').
func InlineHashes(page []byte) []string {
	var styles, scripts []string
	for rest := page; ; {
		i := bytes.Index(rest, []byte("<s"))
		if i < 0 {
			break
		}
		rest = rest[i+2:]
		var el string
		switch {
		case bytes.HasPrefix(rest, []byte("tyle")):
			el = "style"
		case bytes.HasPrefix(rest, []byte("cript")):
			el = "script"
		default:
			continue
		}
		at := rest[len(el)-1:]
		gt := bytes.IndexByte(at, '>')
		if gt < 0 {
			break
		}
		if gt > 0 && !bytes.ContainsAny(at[:1], " \t\n\r\f") {
			continue // <stylefoo>, <scripts>
		}
		rest = at
		tag := rest[:gt]
		rest = rest[gt+1:]
		end := bytes.Index(rest, []byte("</"+el))
		if end < 0 {
			continue // no element of this kind ends: none after it does either
		}
		body := string(rest[:end])
		rest = rest[end:]
		switch {
		case el == "style":
			styles = append(styles, "style-src "+StyleHash(body))
		case runsInline(string(tag)):
			scripts = append(scripts, "script-src "+StyleHash(body))
		}
	}
	return append(styles, scripts...)
}

// scriptAttr finds an attribute's value in a script tag's attributes as
// the renderer writes them (name="value", or a bare name).
var scriptAttr = regexp.MustCompile(`(?i)(?:^|\s)(src|type)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+)))?`)

// runsInline reports whether a <script> with these attributes is an inline
// script the browser runs: no src, and no type or a JavaScript one.
func runsInline(attrs string) bool {
	for _, m := range scriptAttr.FindAllStringSubmatch(attrs, -1) {
		switch strings.ToLower(m[1]) {
		case "src":
			return false
		case "type":
			t := strings.ToLower(strings.TrimSpace(m[2] + m[3] + m[4]))
			if t != "" && t != "module" && t != "text/javascript" && t != "application/javascript" {
				return false
			}
		}
	}
	return true
}

// WithInline is the policy with inline hashes (InlineHashes) added.
func (p CSP) WithInline(hashes []string) CSP {
	for _, h := range slices.Compact(slices.Sorted(slices.Values(hashes))) {
		dir, src, _ := strings.Cut(h, " ")
		switch dir {
		case "style-src":
			p.Style = append(p.Style, src)
		case "script-src":
			p.Script = append(p.Script, src)
		}
	}
	return p
}
