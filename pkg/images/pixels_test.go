package images

import (
	"context"
	"strings"
	"testing"
	"testing/fstest"
)

// TestRunReusesCheckDecoding: Run makes a source's variants from the
// decoding Picture's check kept (the source's bytes are garbage by then,
// so a second decoding would fail), while the images kept stay within 4
// bytes times the pixel limit: the third source here, beyond it, is
// decoded again, and fails.
func TestRunReusesCheckDecoding(t *testing.T) {
	fsys := fstest.MapFS{}
	for _, n := range []string{"a", "b", "c"} {
		fsys["assets/images/"+n+".jpg"] = &fstest.MapFile{Data: photo(t, 700, 400)}
	}
	// A 700×400 JPEG decodes to 422,400 bytes of YCbCr 4:2:0: two fit in
	// 4 × 300,000, three do not.
	enc := Encoders{JPEG: JPEG{}, PNG: PNG{}}
	p := New(Config{FS: fsys, Dirs: []string{"assets/images"}, Encoders: &enc, MaxPixels: 300_000})
	for _, n := range []string{"a", "b", "c"} {
		if _, err := p.Picture("/"+n+".jpg", Options{}); err != nil {
			t.Fatal(err)
		}
	}
	for _, s := range p.sources {
		s.data = []byte("not an image any more")
	}
	_, err := p.Run(context.Background(), 1)
	if err == nil || !strings.Contains(err.Error(), "c.jpg") || strings.Contains(err.Error(), "a.jpg") || strings.Contains(err.Error(), "b.jpg") {
		t.Fatalf("Run: %v; want c.jpg alone to fail (decoded again), a and b made from the checks' decoding", err)
	}
	if p.held != 0 {
		t.Errorf("%d bytes of decoded images still kept after Run", p.held)
	}

	// A source whose variants all came from the cache by Run (another
	// build filled it) lets go of its check's decoding too.
	cache := t.TempDir()
	fsys = fstest.MapFS{"assets/images/a.jpg": &fstest.MapFile{Data: photo(t, 700, 400)}}
	builds := [2]*Processor{}
	for i := range builds {
		builds[i] = New(Config{FS: fsys, Dirs: []string{"assets/images"}, CacheDir: cache, Encoders: &enc})
		if _, err := builds[i].Picture("/a.jpg", Options{}); err != nil {
			t.Fatal(err)
		}
	}
	for _, b := range []*Processor{builds[1], builds[0]} {
		if _, err := b.Run(context.Background(), 1); err != nil {
			t.Fatal(err)
		}
	}
	if st := builds[0].Stats(); st.Processed != 0 || builds[0].held != 0 {
		t.Errorf("a build whose variants were all in the cache: %s, %d bytes still kept", st.Summary(), builds[0].held)
	}
}
