package htmlmin

import (
	"bytes"
	"testing"
)

// FuzzCompact: compaction never panics, never grows its input, changes
// nothing but white space, and compacting again changes nothing.
func FuzzCompact(f *testing.F) {
	for _, s := range []string{
		"<!doctype html>\n<html>\n<body>\n<p>a\n b</p>\n</body>\n</html>\n",
		"<pre>\n  x\n</pre>\n<script>\n// c\n</script>\n<style> a {} </style>",
		"<a\n href='x\n y'\n>t</a> <br class=x\n/>",
		"<!-- c\n --> < p>\n<\n/p>\n<textarea>\n v</textarea>",
		"<svg>\n<path d=\"M0 0\"/>\n</svg>\n<p>\t\ttab</p>",
	} {
		f.Add([]byte(s))
	}
	strip := func(b []byte) []byte {
		return bytes.Map(func(r rune) rune {
			if r < 0x80 && isSpace(byte(r)) {
				return -1
			}
			return r
		}, b)
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		out := Compact(in)
		if len(out) > len(in) {
			t.Fatalf("grew: %q -> %q", in, out)
		}
		if !bytes.Equal(strip(in), strip(out)) {
			t.Fatalf("changed more than white space: %q -> %q", in, out)
		}
		if again := Compact(out); !bytes.Equal(again, out) {
			t.Fatalf("not idempotent: %q -> %q -> %q", in, out, again)
		}
	})
}
