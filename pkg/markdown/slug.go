package markdown

import (
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// latinFold spells the Latin letters that do not decompose into a base
// letter and accents.
var latinFold = map[rune]string{
	'ł': "l", 'ß': "ss", 'æ': "ae", 'œ': "oe", 'ø': "o", 'đ': "d", 'ð': "d", 'þ': "th", 'ħ': "h", 'ı': "i", 'ŀ': "l",
}

// Slugify makes an id from a heading text, for any script: letters and
// digits are kept in lower case, Latin letters lose their accents (Crème
// brûlée -> creme-brulee, Zażółć -> zazolc, Straße -> strasse), letters of
// other scripts stay as they are with their marks (Про нас -> про-нас,
// Її -> її), and every run of anything else becomes one hyphen.
func Slugify(s string) string {
	var b strings.Builder
	dash, latin := false, false
	for _, r := range norm.NFD.String(strings.ToLower(s)) {
		switch {
		case unicode.Is(unicode.Mn, r):
			// An accent: dropped after a Latin letter, kept after a
			// letter of another script (Cyrillic й, ї are a letter and
			// a mark here), dropped where it stands alone.
			if !latin && b.Len() > 0 && !dash {
				b.WriteRune(r)
			}
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			latin = unicode.Is(unicode.Latin, r)
			if f, ok := latinFold[r]; ok {
				b.WriteString(f)
			} else {
				b.WriteRune(r)
			}
			dash = false
		case b.Len() > 0 && !dash:
			b.WriteByte('-')
			dash, latin = true, false
		}
	}
	return norm.NFC.String(strings.TrimSuffix(b.String(), "-"))
}
