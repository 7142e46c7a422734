package i18n

import "testing"

func TestLookupSemantics(t *testing.T) {
	c := New(map[string]map[string]string{
		"pl": {"menu_contact": "Kontakt", "only_pl": "Tylko po polsku"},
		"en": {"menu_contact": "Contact"},
	}, "pl")
	str := func(s *string) string {
		if s == nil {
			return "<nil>"
		}
		return *s
	}
	tests := []struct {
		name, lang, key, def string
		wantT, wantDef, want string
	}{
		{"own locale", "en", "menu_contact", "x", "Contact", "Contact", "Contact"},
		{"falls back to default locale", "en", "only_pl", "x", "Tylko po polsku", "Tylko po polsku", "Tylko po polsku"},
		{"missing everywhere", "en", "nope", "dflt", "nope", "dflt", "<nil>"},
		{"unknown locale uses default", "de", "menu_contact", "x", "Kontakt", "Kontakt", "Kontakt"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := c.T(tt.lang, tt.key); got != tt.wantT {
				t.Errorf("T = %q, want %q", got, tt.wantT)
			}
			if got := c.TDefault(tt.lang, tt.key, tt.def); got != tt.wantDef {
				t.Errorf("TDefault = %q, want %q", got, tt.wantDef)
			}
			if got := str(c.TNull(tt.lang, tt.key)); got != tt.want {
				t.Errorf("TNull = %q, want %q", got, tt.want)
			}
		})
	}
	misses := c.Misses()
	want := []Miss{{"de", "menu_contact", true}, {"en", "nope", false}, {"en", "only_pl", true}}
	if len(misses) != len(want) {
		t.Fatalf("Misses = %v, want %v", misses, want)
	}
	for i := range want {
		if misses[i] != want[i] {
			t.Errorf("Misses[%d] = %v, want %v", i, misses[i], want[i])
		}
	}
}
