package formschema

import (
	"testing"

	"sitegen/pkg/i18n"
)

// TestTexts: a handler text is the site's own in the locale, else the
// engine's words in that locale, else the engine's English; every locale
// of the engine has every key.
func TestTexts(t *testing.T) {
	cat := i18n.New(map[string]map[string]string{
		"pl": {KeyBack: "Do domu"},
		"fr": {},
	}, "pl")
	for _, c := range []struct{ lang, key, want string }{
		{"pl", KeyBack, "Do domu"},
		{"pl", KeyHoneypot, Defaults["pl"][KeyHoneypot]},
		{"de", MessageKeys["required"], Defaults["de"][MessageKeys["required"]]},
		{"fr", KeyErrorsHeading, Defaults["en"][KeyErrorsHeading]},
	} {
		if got := text(cat, c.lang, c.key); got != c.want || got == "" {
			t.Errorf("text(%s, %s) = %q, want %q", c.lang, c.key, got, c.want)
		}
	}
	keys := []string{KeyErrorsHeading, KeyUnavailable, KeyHoneypot, KeyBack}
	for _, k := range MessageKeys {
		keys = append(keys, k)
	}
	for lang, words := range Defaults {
		if len(words) != len(keys) {
			t.Errorf("%s has %d texts, want %d", lang, len(words), len(keys))
		}
		for _, k := range keys {
			if words[k] == "" {
				t.Errorf("%s has no text for %s", lang, k)
			}
		}
	}
	if len(cat.Misses()) != 0 {
		t.Errorf("the site's catalog recorded misses for the engine's texts: %v", cat.Misses())
	}
}
