package build

import (
	"bytes"
	"reflect"
	"strings"
	"testing"

	"sitegen/pkg/render"
)

// TestPageEntryRoundTrip: what encode writes, decode reads back whole
// (<main>'s place in the HTML, which is an entry of its own, and the
// files' sums), and a truncated or damaged entry is refused, never misread.
func TestPageEntryRoundTrip(t *testing.T) {
	big := "<html><head></head><body><main>" + strings.Repeat("<p>x</p>", 300) + "</main></body></html>"
	tests := []pageEntry{
		{Main: [2]int{strings.Index(big, "<p>"), 300 * 8},
			Trace: []traceItem{{"file:content/pl/a.md", "d1"}, {"route:pl/b", "d2"}}, Islands: []string{"Tabs"},
			Styles: []string{"style-src 'sha256-x'"}, FormChecked: "abc",
			Pictures: []render.PictureUse{}, Sums: *newPageSums([]byte(big), []byte(`{"page":1}`), []byte(`{"rsc":1}`))},
		{Main: [2]int{6, 0}, Pictures: []render.PictureUse{}, Sums: *newPageSums([]byte("<main></main>"), []byte("{}"), nil)},
		{Main: [2]int{1, 0}, Pictures: []render.PictureUse{}, Sums: *newPageSums([]byte("x"), []byte("{}"), nil)},
	}
	for i, pe := range tests {
		parts, err := pe.encode(nil)
		if err != nil {
			t.Fatal(err)
		}
		b := bytes.Join(parts, nil)
		var got pageEntry
		if !got.decode(b) {
			t.Fatalf("entry %d: not decoded", i)
		}
		if len(got.Trace) == 0 && len(pe.Trace) == 0 { // empty either way
			got.Trace = pe.Trace
		}
		if !reflect.DeepEqual(got, pe) {
			t.Errorf("entry %d: decoded\n%+v\nwant\n%+v", i, got, pe)
		}
		for n := 0; n < len(b); n += max(1, len(b)/40) {
			var short pageEntry
			if short.decode(b[:n]) {
				t.Errorf("entry %d cut to %d of %d bytes was decoded", i, n, len(b))
			}
		}
	}
	// <main> placed past the end of the HTML.
	pe := pageEntry{Main: [2]int{20, 0}, Sums: *newPageSums([]byte("<main></main>"), []byte("{}"), nil)}
	parts, _ := pe.encode(nil)
	if new(pageEntry).decode(bytes.Join(parts, nil)) {
		t.Error("an entry whose <main> lies outside its HTML was decoded")
	}
}
