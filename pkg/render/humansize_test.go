package render

import "testing"

// TestHumanSizeByLocale: sizes are written with the locale's decimal
// separator and grouping, for any locale.
func TestHumanSizeByLocale(t *testing.T) {
	const mb = 1024 * 1024
	for _, c := range []struct {
		lang string
		n    int64
		want string
	}{
		{"en", 512, "512 B"},
		{"en", 1536, "2 KB"},
		{"en", mb * 3 / 2, "1.5 MB"},
		{"pl", mb * 3 / 2, "1,5 MB"},
		{"de", mb * 3 / 2, "1,5 MB"},
		{"uk", mb * 3 / 2, "1,5 MB"},
		{"fr", mb * 2, "2,0 MB"},
		{"en", 1000 * 1024, "1,000 KB"},
		{"de", 1000 * 1024, "1.000 KB"},
		{"uk", 1000 * 1024, "1\u00a0000 KB"},
		{"pl", 1000 * 1024, "1\u00a0000 KB"},
		{"en", 1500 * mb, "1,500.0 MB"},
	} {
		if got := humanSize(c.n, c.lang); got != c.want {
			t.Errorf("humanSize(%d, %s) = %q, want %q", c.n, c.lang, got, c.want)
		}
	}
}

// TestNumberByLocale: the number template function formats by locale.
func TestNumberByLocale(t *testing.T) {
	for _, c := range []struct {
		lang string
		v    any
		dec  []int
		want string
	}{
		{"en", 12345, nil, "12,345"},
		{"de", 12345.5, nil, "12.345,5"},
		{"uk", 12345.5, nil, "12\u00a0345,5"},
		{"pl", 3.14159, []int{2}, "3,14"},
		{"en", int64(7), []int{1}, "7.0"},
	} {
		got, err := formatNumber(c.v, c.lang, c.dec...)
		if err != nil || got != c.want {
			t.Errorf("number %v in %s = %q, %v; want %q", c.v, c.lang, got, err, c.want)
		}
	}
	if _, err := formatNumber("12", "en"); err == nil {
		t.Error("a string was formatted as a number")
	}
}
