package output

import (
	"maps"
	"slices"
	"strconv"
	"unicode/utf8"
)

// AppendJSON appends the page data as JSON encodes it (the bytes JSON(pd)
// gives, which TestPageDataJSON checks), written straight into dst, where
// encoding/json took the struct apart by reflection, escaped the page's
// HTML into a buffer of its own and copied it again: a page's data is
// mostly its HTML, and a build writes one per page.
func (pd *PageData) AppendJSON(dst []byte) []byte {
	dst = append(dst, `{"componentChunkName":`...)
	dst = appendJSONString(dst, pd.ComponentChunkName)
	dst = append(dst, `,"path":`...)
	dst = appendJSONString(dst, pd.Path)
	dst = append(dst, `,"result":{"pageContext":{"lang":`...)
	c := &pd.Result.PageContext
	dst = appendJSONString(dst, c.Lang)
	dst = append(dst, `,"langs":`...)
	dst = appendJSONStrings(dst, c.Langs)
	dst = append(dst, `,"originalPath":`...)
	dst = appendJSONString(dst, c.OriginalPath)
	dst = append(dst, `,"langVariants":`...)
	if c.LangVariants == nil {
		dst = append(dst, "null"...)
	} else {
		dst = append(dst, '[')
		for i, v := range c.LangVariants {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = append(dst, `{"lang":`...)
			dst = appendJSONString(dst, v.Lang)
			dst = append(dst, `,"path":`...)
			dst = appendJSONString(dst, v.Path)
			dst = append(dst, '}')
		}
		dst = append(dst, ']')
	}
	dst = append(dst, `,"pageName":`...)
	dst = appendJSONString(dst, c.PageName)
	p := &pd.Result.Page
	dst = append(dst, `},"page":{"title":`...)
	dst = appendJSONString(dst, p.Title)
	dst = append(dst, `,"description":`...)
	dst = appendJSONString(dst, p.Description)
	dst = append(dst, `,"canonical":`...)
	dst = appendJSONString(dst, p.Canonical)
	if p.Robots != "" {
		dst = append(dst, `,"robots":`...)
		dst = appendJSONString(dst, p.Robots)
	}
	dst = append(dst, `,"lang":`...)
	dst = appendJSONString(dst, p.Lang)
	dst = append(dst, `,"layout":`...)
	dst = appendJSONString(dst, p.Layout)
	dst = append(dst, `,"html":`...)
	dst = appendJSONString(dst, p.HTML)
	if len(p.Islands) > 0 {
		dst = append(dst, `,"islands":`...)
		dst = appendJSONStrings(dst, p.Islands)
	}
	if p.NotFound {
		dst = append(dst, `,"notFound":true`...)
	}
	dst = append(dst, `}},"slicesMap":`...)
	if pd.SlicesMap == nil {
		dst = append(dst, "null"...)
	} else {
		dst = append(dst, '{')
		for i, k := range slices.Sorted(maps.Keys(pd.SlicesMap)) {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = appendJSONString(dst, k)
			dst = append(dst, ':')
			dst = appendJSONString(dst, pd.SlicesMap[k])
		}
		dst = append(dst, '}')
	}
	dst = append(dst, `,"staticQueryHashes":`...)
	dst = appendJSONStrings(dst, pd.StaticQueryHashes)
	dst = append(dst, `,"webpackCompilationHash":`...)
	dst = appendJSONString(dst, pd.WebpackCompilationHash)
	return append(dst, "}\n"...)
}

// appendJSONStrings appends a list of strings as encoding/json does (nil
// is null).
func appendJSONStrings(dst []byte, list []string) []byte {
	if list == nil {
		return append(dst, "null"...)
	}
	dst = append(dst, '[')
	for i, s := range list {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = appendJSONString(dst, s)
	}
	return append(dst, ']')
}

// jsonPlain marks the bytes a JSON string holds as they are, with HTML
// not escaped (encoding/json's safeSet): printable ASCII but '"' and '\',
// and every byte of a multi-byte UTF-8 sequence but 0xE2, which may start
// U+2028 or U+2029 (escaped, as encoding/json escapes them). Whether the
// text is valid UTF-8 is told apart, once (appendJSONString).
var jsonPlain = func() (t [256]bool) {
	for b := 0x20; b < 256; b++ {
		t[b] = b != '"' && b != '\\' && b != 0xE2
	}
	return t
}()

// appendJSONString appends s as a JSON string, byte for byte as
// encoding/json's Encoder with SetEscapeHTML(false) writes it.
func appendJSONString(dst []byte, s string) []byte {
	if !utf8.ValidString(s) {
		return appendJSONStringSlow(dst, s)
	}
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); i++ {
		b := s[i]
		if jsonPlain[b] {
			continue
		}
		if b == 0xE2 {
			if i+2 < len(s) && s[i+1] == 0x80 && (s[i+2] == 0xA8 || s[i+2] == 0xA9) {
				dst = append(dst, s[start:i]...)
				dst = append(dst, `\u202`...)
				dst = append(dst, "89"[s[i+2]-0xA8])
				i += 2
				start = i + 1
			}
			continue
		}
		dst = append(dst, s[start:i]...)
		dst = appendJSONEscape(dst, b)
		start = i + 1
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

// appendJSONEscape appends the escape of an ASCII byte that a JSON string
// cannot hold as it is.
func appendJSONEscape(dst []byte, b byte) []byte {
	switch b {
	case '\\', '"':
		return append(dst, '\\', b)
	case '\b':
		return append(dst, '\\', 'b')
	case '\f':
		return append(dst, '\\', 'f')
	case '\n':
		return append(dst, '\\', 'n')
	case '\r':
		return append(dst, '\\', 'r')
	case '\t':
		return append(dst, '\\', 't')
	}
	const hex = "0123456789abcdef"
	return append(dst, '\\', 'u', '0', '0', hex[b>>4], hex[b&0xF])
}

// appendJSONStringSlow is appendJSONString for text that is not valid
// UTF-8: each invalid byte becomes \ufffd, as encoding/json writes it.
func appendJSONStringSlow(dst []byte, s string) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		b := s[i]
		if b < utf8.RuneSelf {
			if b >= 0x20 && b != '"' && b != '\\' {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			dst = appendJSONEscape(dst, b)
			i++
			start = i
			continue
		}
		c, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case c == utf8.RuneError && size == 1:
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\ufffd`...)
		case c == '\u2028' || c == '\u2029':
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\u202`...)
			dst = strconv.AppendInt(dst, int64(c-'\u2028')+8, 10)
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}
