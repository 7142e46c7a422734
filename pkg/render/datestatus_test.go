package render

import (
	"testing"
	"testing/fstest"
)

func TestDateStatus(t *testing.T) {
	r := &Renderer{opts: Options{BuildDate: "2026-08-15"}}
	tests := []struct{ date, want, err string }{
		{"2025-08-13", "past", ""},
		{"2026-08-14", "past", ""},
		{"2026-08-15", "today", ""},
		{"2026-08-16", "upcoming", ""},
		{"2027-01-01", "upcoming", ""},
		{"15.08.2026", "", "not a date"},
		{"2026-02-30", "", "not a date"},
	}
	for _, tt := range tests {
		got, err := r.dateStatus(tt.date)
		if tt.err != "" {
			if err == nil {
				t.Errorf("dateStatus(%q) = %q, want an error", tt.date, got)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("dateStatus(%q) = %q, %v; want %q", tt.date, got, err, tt.want)
		}
	}
	if _, err := (&Renderer{}).dateStatus("2026-01-01"); err == nil {
		t.Error("a build without a date must be an error, not a guess")
	}
}

func TestFileSize(t *testing.T) {
	fsys := fstest.MapFS{
		"static/a.pdf": {Data: make([]byte, 700)},
		"static/b.zip": {Data: make([]byte, 150*1024+100)},
		"static/c.zip": {Data: make([]byte, 1536*1024)},
	}
	r := &Renderer{opts: Options{FS: fsys, StaticDir: "static"}}
	tests := []struct{ p, lang, want string }{
		{"/a.pdf", "pl", "700 B"},
		{"/b.zip", "en", "150 KB"},
		{"/c.zip", "en", "1.5 MB"},
		{"/c.zip", "pl", "1,5 MB"},
	}
	for _, tt := range tests {
		got, err := r.fileSize(tt.p, tt.lang)
		if err != nil || got != tt.want {
			t.Errorf("fileSize(%q, %s) = %q, %v; want %q", tt.p, tt.lang, got, err, tt.want)
		}
	}
	if _, err := r.fileSize("/missing.pdf", "pl"); err == nil {
		t.Error("a missing file must be an error")
	}
}
