package build

import (
	"bytes"
	"reflect"
	"strings"
	"testing"

	"sitegen/pkg/render"
)

// TestPageEntryRoundTrip: what encode writes, decode reads back whole (the
// HTML as a part of its own when large, <main>'s place in it), and a
// truncated or damaged entry is refused, never misread.
func TestPageEntryRoundTrip(t *testing.T) {
	big := "<html><head></head><body><main>" + strings.Repeat("<p>x</p>", 300) + "</main></body></html>"
	tests := []pageEntry{
		{HTML: []byte(big), Main: [2]int{strings.Index(big, "<p>"), 300 * 8},
			Trace: []traceItem{{"file:content/pl/a.md", "d1"}, {"route:pl/b", "d2"}}, Islands: []string{"Tabs"},
			Styles: []string{"style-src 'sha256-x'"}, FormChecked: "abc",
			Pictures: []render.PictureUse{}},
		{HTML: []byte("<main></main>"), Main: [2]int{6, 0}, Pictures: []render.PictureUse{}},
		{HTML: []byte("x"), Main: [2]int{1, 0}, Pictures: []render.PictureUse{}},
	}
	for i, pe := range tests {
		parts, err := pe.encode()
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
	pe := pageEntry{HTML: []byte("<main></main>"), Main: [2]int{20, 0}}
	parts, _ := pe.encode()
	if new(pageEntry).decode(bytes.Join(parts, nil)) {
		t.Error("an entry whose <main> lies outside its HTML was decoded")
	}
}
