package images

import (
	"bytes"
	"context"
	"image"
	"image/color"
	"image/png"
	"sync"
	"testing"
	"testing/fstest"
)

// TestVariantOnDemand: a variant a picture named is made on demand with
// the bytes Run makes, while Run runs; Run then takes it from the cache.
// A path no picture named is not a variant.
func TestVariantOnDemand(t *testing.T) {
	m := image.NewRGBA(image.Rect(0, 0, 300, 200))
	for y := range 200 {
		for x := range 300 {
			m.Set(x, y, color.RGBA{uint8(x), uint8(y), 7, 255})
		}
	}
	var b bytes.Buffer
	if err := png.Encode(&b, m); err != nil {
		t.Fatal(err)
	}
	fsys := fstest.MapFS{"img/a.png": {Data: b.Bytes()}}
	enc := Encoders{JPEG: JPEG{}, PNG: PNG{}}
	p := New(Config{FS: fsys, Dirs: []string{"img"}, CacheDir: t.TempDir(), Encoders: &enc})
	pic, err := p.Picture("/a.png", Options{Widths: []int{100, 200}})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	var wg sync.WaitGroup
	var files []File
	var runErr error
	wg.Add(1)
	go func() { defer wg.Done(); files, runErr = p.Run(ctx, 2) }()
	got := map[string][]byte{}
	for _, v := range pic.Fallback.Variants {
		b, ok, err := p.Variant(ctx, v.URL)
		if !ok || err != nil {
			t.Fatalf("Variant(%s) = ok %v, %v", v.URL, ok, err)
		}
		got[v.URL[1:]] = b
	}
	wg.Wait()
	if runErr != nil {
		t.Fatal(runErr)
	}
	if len(files) != len(got) {
		t.Fatalf("Run made %d files, Variant %d", len(files), len(got))
	}
	for _, f := range files {
		if !bytes.Equal(f.Data, got[f.Path]) {
			t.Errorf("%s: Variant's bytes differ from Run's", f.Path)
		}
	}
	if st := p.Stats(); st.Processed != int64(len(files)) {
		t.Errorf("%d encodings for %d variants (%+v): one of them encoded twice", st.Processed, len(files), st)
	}
	if _, ok, _ := p.Variant(ctx, "/_assets/img/a-0000000000-100.png"); ok {
		t.Error("a path no picture named is a variant")
	}
}
