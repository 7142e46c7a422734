package content

import (
	"net/url"
	"regexp"
	"strings"
	"testing"

	"golang.org/x/text/unicode/norm"

	"sitegen/pkg/sitepath"
)

// The grammar of slugs and ids, as regular expressions: validSlug and
// validID must agree with them on every input (a slug must also be in NFC,
// which no regular expression says).
var (
	slugGrammar = regexp.MustCompile(`^([\p{Ll}\p{Lo}\p{Lm}\p{N}][\p{Ll}\p{Lo}\p{Lm}\p{N}\p{M}._-]*)(/[\p{Ll}\p{Lo}\p{Lm}\p{N}][\p{Ll}\p{Lo}\p{Lm}\p{N}\p{M}._-]*)*$`)
	idGrammar   = regexp.MustCompile(`^[a-z0-9][a-z0-9._-]*$`)
)

var slugSeeds = []string{
	"", "a", "rozwiazania/sprzedaz", "żółw", "2026", "a.b_c-d", "a/b/c", "/a", "a/", "a//b",
	".", "..", "a/../b", "a/.b", "-a", "_a", "A", "aB", "a b", "ａ", "ⅷ", "a/ⅷ", "é", "\xff", "a\xffb",
	"a\x00", "a/-", "١٢٣", "ǅ", "ß", "ɐ",
	// Scripts without case, marks, and what must stay out.
	"ブログ", "テスト", "ブログ/テスト", "ja/ブログ", "ブログ-2026", "データー", "博客", "블로그", "مدونة", "בלוג", "บล็อก", "ब्लॉग",
	"\u0301a", "e\u0301", "a/\u0301", "ブ\u202eグ", "ブ\u200dグ", "ブ グ", "ブ・グ", "ｶﾞ", "ﾌﾞﾛｸﾞ", "Ａ", "a%2e",
}

// slugOK is the grammar of slugs, NFC included.
func slugOK(s string) bool { return slugGrammar.MatchString(s) && norm.NFC.IsNormalString(s) }

// checkSlug checks validSlug against the grammar, and that an accepted slug
// is a clean site path whose URL form is ASCII and decodes back to it.
func checkSlug(t *testing.T, s string) {
	t.Helper()
	if got, want := validSlug(s), slugOK(s); got != want {
		t.Errorf("validSlug(%q) = %t, want %t", s, got, want)
	}
	if got := slugProblem(s); (got == "") != validSlug(s) {
		t.Errorf("slugProblem(%q) = %q, but validSlug says %t", s, got, validSlug(s))
	}
	if !validSlug(s) {
		return
	}
	p := "/" + s + "/"
	if err := sitepath.Check(p); err != nil && !strings.Contains(err.Error(), "bytes") {
		t.Errorf("slug %q is not a clean site path: %v", s, err)
	}
	u := sitepath.URL(p)
	for i := 0; i < len(u); i++ {
		if u[i] >= 0x80 || u[i] <= ' ' {
			t.Fatalf("URL(%q) = %q holds byte %#x", p, u, u[i])
		}
	}
	if back, err := url.PathUnescape(u); err != nil || back != p {
		t.Errorf("URL(%q) = %q decodes to %q, %v", p, u, back, err)
	}
}

func TestSlugAndIDGrammar(t *testing.T) {
	for _, s := range slugSeeds {
		checkSlug(t, s)
		if got, want := validID(s), idGrammar.MatchString(s); got != want {
			t.Errorf("validID(%q) = %t, want %t", s, got, want)
		}
	}
}

func FuzzSlugAndIDGrammar(f *testing.F) {
	for _, s := range slugSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		checkSlug(t, s)
		if got, want := validID(s), idGrammar.MatchString(s); got != want {
			t.Errorf("validID(%q) = %t, want %t", s, got, want)
		}
	})
}

// TestSlugScripts: slugs in scripts without case pass, upper case and
// what a URL cannot hold are refused with the reason.
func TestSlugScripts(t *testing.T) {
	for s, want := range map[string]string{
		"ブログ":        "",
		"ブログ/テスト":    "",
		"データー":       "",
		"博客/2026":    "",
		"블로그":        "",
		"مدونة":      "",
		"บล็อก":      "",
		"über-uns":   "",
		"Über":       `holds the upper-case 'Ü'`,
		"ブ\u202eグ":   `holds '\u202e'`,
		"ブ グ":        `holds ' '`,
		"ブ?グ":        `holds '?'`,
		"ブ%20グ":      `holds '%'`,
		"a/../b":     `has a segment starting with '.'`,
		"a//b":       "has an empty segment (//)",
		"/ブログ":       "starts or ends with a slash",
		"\u0301a":    "has a segment starting with '\u0301'",
		"u\u0308ber": `is not in Unicode normal form NFC (write "über")`,
		"ｶﾞ":         "",
	} {
		if got := slugProblem(s); got != want {
			t.Errorf("slugProblem(%q) = %q, want %q", s, got, want)
		}
	}
}

// TestSlugify: a term's slug follows the slug rule in any script: lower
// case where the script has case, runs of anything else one '-'.
func TestSlugify(t *testing.T) {
	for _, c := range []struct {
		in, want string
		ok       bool
	}{
		{"Go", "go", true},
		{"Warm builds", "warm-builds", true},
		{"  C++ / CSS  ", "c-css", true},
		{"ビルド", "ビルド", true},
		{"Über Größe", "über-größe", true},
		{"Cafe\u0301", "café", true}, // NFC
		{"مدونة جديدة", "مدونة-جديدة", true},
		{"++", "", false},
	} {
		got, ok := Slugify(c.in)
		if got != c.want || ok != c.ok {
			t.Errorf("Slugify(%q) = %q, %t; want %q, %t", c.in, got, ok, c.want, c.ok)
		}
		if ok && !validSlug(got) {
			t.Errorf("Slugify(%q) = %q is no slug", c.in, got)
		}
	}
}
