package content

import (
	"strings"
	"testing"
	"testing/fstest"
)

// TestImpossibleDates: a date that is not on the calendar (or a time not
// on the clock) is an error at its line and column, in front matter as
// well as anywhere the shape is right.
func TestImpossibleDates(t *testing.T) {
	for date, want := range map[string]string{
		"2026-02-30":                "content/pl/a.md:3:7: date \"2026-02-30\" is not a day of the calendar",
		"2025-02-29":                "content/pl/a.md:3:7: date \"2025-02-29\" is not a day of the calendar",
		"2026-13-01":                "content/pl/a.md:3:7: date \"2026-13-01\" is not a day of the calendar",
		"2026-01-31T24:10Z":         "content/pl/a.md:3:7: date \"2026-01-31T24:10Z\" is not a time of the day",
		"2026-01-31T10:10:61+01:00": "content/pl/a.md:3:7: date \"2026-01-31T10:10:61+01:00\" is not a time of the day",
		"2026-1-31":                 "content/pl/a.md:3:7: date \"2026-1-31\" must be YYYY-MM-DD or an RFC 3339 time",
		"2024-02-29":                "",
		"2026-01-31T10:10+01:00":    "",
		"2026-01-31T10:10:59.5Z":    "",
	} {
		_, errs := ParsePage("content/pl/a.md", "pl", "a.md", []byte("---\ntitle: A\ndate: "+date+"\nid: a\ndescription: d\n---\nBody\n"))
		got := ""
		if len(errs) > 0 {
			got = errs[0].Error()
		}
		if got != want {
			t.Errorf("date %s: %q, want %q", date, got, want)
		}
	}
}

// TestInvalidUTF8: a content file that is not UTF-8 is an error at the
// line and column of the first bad byte, in pages, data and strings.
func TestInvalidUTF8(t *testing.T) {
	fsys := fstest.MapFS{
		"content/pl/a.md":        {Data: []byte("---\ntitle: A\nid: a\ndescription: d\n---\nZażółć \xff gęślą\n")},
		"content/pl/data/x.yaml": {Data: []byte("a:\n  b: \"\xc3\x28\"\n")},
		"content/pl/i18n.yaml":   {Data: []byte("k: ok\nl: \xe2\x82\n")},
		"content/pl/b.md":        {Data: []byte("---\ntitle: B\nid: b\ndescription: d\n---\nfine ą\n")},
	}
	want := map[string]string{
		"content/pl/a.md":        "content/pl/a.md:6:8: invalid UTF-8 (byte 0xff)",
		"content/pl/data/x.yaml": "content/pl/data/x.yaml:2:7: invalid UTF-8 (byte 0xc3)",
		"content/pl/i18n.yaml":   "content/pl/i18n.yaml:2:4: invalid UTF-8 (byte 0xe2)",
		"content/pl/b.md":        "",
	}
	for p, w := range want {
		f, ok := Classify(p, []string{"pl"})
		if !ok {
			t.Fatalf("%s not classified", p)
		}
		f.Parse(fsys, Options{Langs: []string{"pl"}})
		got := ""
		if len(f.Errs) > 0 {
			got = f.Errs[0].Error()
		}
		if w == "" && got != "" || w != "" && !strings.HasPrefix(got, w) {
			t.Errorf("%s: %q, want %q", p, got, w)
		}
	}
}

// TestSlugTooLong: a slug whose segment cannot be a file name (or whose
// path is too long) is an error at the slug's line, not the build's
// "file name too long" without a source.
func TestSlugTooLong(t *testing.T) {
	long := strings.Repeat("a", 256)
	for slug, want := range map[string]string{
		long:                              "content/pl/a.md:5:7: slug \"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\"… has a segment of 256 bytes, more than the 255 a file name may have",
		strings.Repeat("ą", 128):          "content/pl/a.md:5:7: slug \"ąąąąąąąąąąąąąąąąąąąąąąąąąąąąąąąąąąąąąąąą\"… has a segment of 256 bytes",
		strings.Repeat("b/", 600) + "end": "content/pl/a.md:5:7: slug \"b/b/b/b/b/b/b/b/b/b/b/b/b/b/b/b/b/b/b/b/\"… is 1204 bytes long, more than 1024",
		strings.Repeat("a", 255):          "",
	} {
		_, errs := ParsePage("content/pl/a.md", "pl", "a.md", []byte("---\ntitle: A\nid: a\ndescription: d\nslug: "+slug+"\n---\nBody\n"))
		got := ""
		if len(errs) > 0 {
			got = errs[0].Error()
		}
		if want == "" && got != "" || want != "" && !strings.HasPrefix(got, want) {
			t.Errorf("slug of %d bytes: %q, want %q", len(slug), got, want)
		}
	}
}

// TestPageSizeLimit: a page larger than MaxPageBytes is refused at its
// path before it is read whole, and one at the limit is read; a 20 MB page
// took over 1 GB of memory (issue 36).
func TestPageSizeLimit(t *testing.T) {
	page := func(size int) []byte {
		head := "---\ntitle: A\nid: a\ndescription: d\n---\n"
		return append([]byte(head), strings.Repeat("x", size-len(head))...)
	}
	fsys := fstest.MapFS{
		"content/pl/big.md": {Data: page(MaxPageBytes + 1)},
		"content/pl/ok.md":  {Data: page(MaxPageBytes)},
	}
	for p, want := range map[string]string{
		"content/pl/big.md": "content/pl/big.md: the page has 2097153 bytes, more than the 2097152 (2 MB) a page may have (hint: split it into several pages)",
		"content/pl/ok.md":  "",
	} {
		f, _ := Classify(p, []string{"pl"})
		f.Parse(fsys, Options{Langs: []string{"pl"}})
		got := ""
		if len(f.Errs) > 0 {
			got = f.Errs[0].Error()
		}
		if got != want {
			t.Errorf("%s: %q, want %q", p, got, want)
		}
	}
}
