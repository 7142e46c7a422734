package markdown

import "testing"

// TestSlugifyScripts: heading ids keep the letters of every script; Latin
// letters lose their accents, other scripts keep theirs.
func TestSlugifyScripts(t *testing.T) {
	for _, c := range []struct{ lang, in, want string }{
		{"pl", "Zażółć gęślą jaźń", "zazolc-gesla-jazn"},
		{"pl", "Łódź — Śródmieście", "lodz-srodmiescie"},
		{"de", "Über uns: Straße & Größe", "uber-uns-strasse-grosse"},
		{"fr", "Crème brûlée", "creme-brulee"},
		{"fr", "Œuvres d’art", "oeuvres-d-art"},
		{"da", "Ærø Ø", "aero-o"},
		{"uk", "Про нас", "про-нас"},
		{"uk", "Їжак і йод", "їжак-і-йод"},
		{"ru", "Ёлка, 2024", "ёлка-2024"},
		{"el", "Σχετικά με εμάς", "σχετικά-με-εμάς"},
		{"ja", "会社概要", "会社概要"},
		{"ar", "من نحن", "من-نحن"},
		{"en", "  Hello,   World!  ", "hello-world"},
		{"en", "v2.0 — what's new?", "v2-0-what-s-new"},
		{"en", "!!!", ""},
	} {
		if got := Slugify(c.in); got != c.want {
			t.Errorf("%s: Slugify(%q) = %q, want %q", c.lang, c.in, got, c.want)
		}
	}
}

// TestHeadingIDFallback: a heading without letters or digits gets the
// fallback id, numbered when repeated.
func TestHeadingIDFallback(t *testing.T) {
	g := newIDs()
	for _, want := range []string{"section", "section-1"} {
		if got := string(g.Generate([]byte("* * *"), 0)); got != want {
			t.Errorf("id %q, want %q", got, want)
		}
	}
	if got := string(g.Generate([]byte("Про нас"), 0)); got != "про-нас" {
		t.Errorf("Cyrillic heading id %q", got)
	}
}
