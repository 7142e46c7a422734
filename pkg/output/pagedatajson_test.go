package output

import (
	"bytes"
	"encoding/json"
	"testing"
)

// encodingJSON is what the page data was written with before AppendJSON:
// encoding/json's Encoder, HTML not escaped.
func encodingJSON(t testing.TB, v any) []byte {
	t.Helper()
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestPageDataJSON: PageData.AppendJSON writes the bytes encoding/json
// writes, for every field set or left out (nil and empty lists, omitempty
// fields, a nil map) and for text that needs escaping.
func TestPageDataJSON(t *testing.T) {
	full := PageData{
		ComponentChunkName: "component---layout-page", Path: "/pl/o-nas/", StaticQueryHashes: []string{},
		Result: Result{
			PageContext: PageContext{Lang: "pl", Langs: []string{"pl", "en"}, OriginalPath: "/o-nas/", PageName: "about",
				LangVariants: []LangVariant{{Lang: "pl", Path: "/pl/o-nas/"}, {Lang: "en", Path: "/en/about/"}}},
			Page: PageView{Title: `Tytuł "w cudzysłowie" <b>&</b>`, Description: "Opis\tz\ttabulatorem\n", Canonical: "https://example.org/pl/o-nas/",
				Robots: "noindex", Lang: "pl", Layout: "page", HTML: "<main>\u2028\u2029 zażółć \x00\x1f\x7f \\ \b\f\r</main>\n",
				Islands: []string{"Counter", "Map"}, NotFound: true},
		},
		SlicesMap: SlicesMap("pl"), WebpackCompilationHash: "abc123",
	}
	bare := PageData{}
	invalid := full
	invalid.Result.Page.HTML = "a\xffb\xe2\x80c\xe2\x80\xa8d\xed\xa0\x80e" // bytes that are not UTF-8, and U+2028 among them
	empty := full
	empty.Result.Page.Islands, empty.Result.PageContext.LangVariants, empty.SlicesMap = []string{}, []LangVariant{}, map[string]string{}
	for name, pd := range map[string]PageData{"full": full, "zero": bare, "invalid UTF-8": invalid, "empty lists": empty} {
		want := encodingJSON(t, pd)
		if got := pd.AppendJSON([]byte("kept")); string(got) != "kept"+string(want) {
			t.Errorf("%s:\n got %s\nwant %s", name, got, want)
		}
	}
}

// FuzzJSONString: any text is written as encoding/json writes it.
func FuzzJSONString(f *testing.F) {
	for _, s := range []string{"", "plain", "\"\\", "\u2028\u2029", "\xe2\x80", "\xe2\x80\xa8x", "\xff", "zażółć\x00\t", "\xed\xa0\x80"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want := bytes.TrimSuffix(encodingJSON(t, s), []byte("\n"))
		if got := appendJSONString(nil, s); !bytes.Equal(got, want) {
			t.Errorf("%q:\n got %s\nwant %s", s, got, want)
		}
	})
}
