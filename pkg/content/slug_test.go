package content

import (
	"regexp"
	"testing"
)

// The grammar of slugs and ids, as regular expressions: validSlug and
// validID must agree with them on every input.
var (
	slugGrammar = regexp.MustCompile(`^([\p{Ll}\p{N}][\p{Ll}\p{N}._-]*)(/[\p{Ll}\p{N}][\p{Ll}\p{N}._-]*)*$`)
	idGrammar   = regexp.MustCompile(`^[a-z0-9][a-z0-9._-]*$`)
)

var slugSeeds = []string{
	"", "a", "rozwiazania/sprzedaz", "żółw", "2026", "a.b_c-d", "a/b/c", "/a", "a/", "a//b",
	".", "..", "a/../b", "a/.b", "-a", "_a", "A", "aB", "a b", "ａ", "ⅷ", "a/ⅷ", "é", "\xff", "a\xffb",
	"a\x00", "a/-", "١٢٣", "ǅ", "ß", "ɐ",
}

func TestSlugAndIDGrammar(t *testing.T) {
	for _, s := range slugSeeds {
		if got, want := validSlug(s), slugGrammar.MatchString(s); got != want {
			t.Errorf("validSlug(%q) = %t, want %t", s, got, want)
		}
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
		if got, want := validSlug(s), slugGrammar.MatchString(s); got != want {
			t.Errorf("validSlug(%q) = %t, want %t", s, got, want)
		}
		if got, want := validID(s), idGrammar.MatchString(s); got != want {
			t.Errorf("validID(%q) = %t, want %t", s, got, want)
		}
	})
}
