package render

import (
	"testing"
	"time"
)

func TestLocalDate(t *testing.T) {
	for _, tt := range []struct {
		lang, style string
		date        any
		want, err   string
	}{
		{"en", "long", "2026-01-12", "January 12, 2026", ""},
		{"de", "long", "2026-01-12", "12. Januar 2026", ""},
		{"ja", "long", "2026-01-12", "2026年1月12日", ""},
		{"pl", "long", "2026-01-12", "12 stycznia 2026", ""},
		{"de", "full", "2026-03-01", "Sonntag, 1. März 2026", ""},
		{"fr", "long", time.Date(2026, 2, 3, 0, 0, 0, 0, time.UTC), "3 février 2026", ""},
		{"en", "short", "2026-01-12T10:00:00Z", "1/12/26", ""},
		{"en", "huge", "2026-01-12", "", `localDate: style "huge" (want full, long, medium or short)`},
		{"en", "long", "12.01.2026", "", `localDate: "12.01.2026" is not a date (YYYY-MM-DD)`},
		{"tlh", "long", "2026-01-12", "", `localDate: no date formats for locale "tlh"`},
	} {
		got, err := localDate(tt.lang, tt.style, tt.date)
		gotErr := ""
		if err != nil {
			gotErr = err.Error()
		}
		if got != tt.want || gotErr != tt.err {
			t.Errorf("localDate(%s, %s, %v) = %q, %q; want %q, %q", tt.lang, tt.style, tt.date, got, gotErr, tt.want, tt.err)
		}
	}
}
