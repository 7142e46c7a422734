package images

import (
	"bytes"
	"compress/gzip"
	"context"
	"image"
	"image/draw"
	"io"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/gen2brain/avif"
	"github.com/tetratelabs/wazero"

	"sitegen/internal/ssim"
)

// TestAVIFMatchesLibrary: the encoder kept between encodes (DefaultEncoders)
// writes the bytes of gen2brain/avif's Encode, for photos and a source
// with an alpha channel, at several sizes, one instance doing all.
func TestAVIFMatchesLibrary(t *testing.T) {
	if avif.Dynamic() == nil {
		t.Skip("a shared libavif encodes")
	}
	enc := DefaultEncoders().Modern[0].(AVIF)
	defer enc.Hold()() // one encoder process for all
	srcs := []image.Image{decode(t, photo(t, 700, 400)), decode(t, transparent(t, 200, 100)), decode(t, photo(t, 37, 23))}
	for i, src := range srcs {
		for _, q := range []int{50, 80} {
			rgba := image.NewRGBA(src.Bounds())
			draw.Draw(rgba, rgba.Rect, src, src.Bounds().Min, draw.Src)
			var want, got bytes.Buffer
			lq := enc.quality(q) // the default speed's lift
			if err := avif.Encode(&want, rgba, avif.Options{Quality: lq, QualityAlpha: lq, Speed: enc.speed(), ChromaSubsampling: image.YCbCrSubsampleRatio420}); err != nil {
				t.Fatal(err)
			}
			if err := enc.Encode(&got, src, q); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got.Bytes(), want.Bytes()) {
				t.Errorf("source %d at q%d: %d bytes, gen2brain/avif wrote %d others", i, q, got.Len(), want.Len())
			}
		}
	}
}

func decode(t *testing.T, b []byte) image.Image {
	t.Helper()
	m, _, err := image.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestRunEndsAVIFProcess: Run's encodes share one encoder process (the
// module compiled once), which ends with Run, as it does once Variant
// answered, so a dev server keeps none (an instance of the encoder grows
// to 120 MB) between builds and requests.
func TestRunEndsAVIFProcess(t *testing.T) {
	enc := DefaultEncoders()
	var seen []*avifChild
	e := watched{enc.Modern[0].(AVIF), &seen}
	enc.Modern[0] = e
	p := New(Config{FS: testFS(t), Dirs: []string{"assets/images"}, Encoders: &enc})
	if _, err := p.Picture("/photos/a.jpg", Options{Widths: []int{100, 200}}); err != nil {
		t.Fatal(err)
	}
	if _, err := p.Run(context.Background(), 0); err != nil {
		t.Fatal(err)
	}
	if len(seen) != 2 || seen[0] != seen[1] {
		t.Fatalf("Run's 2 encodes ran in %v, want one process", seen)
	}
	checkGone(t, seen[0])
	pic, err := p.Picture("/photos/a.jpg", Options{Widths: []int{120}})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok, err := p.Variant(context.Background(), pic.Sources[0].Variants[0].URL); !ok || err != nil {
		t.Fatalf("Variant: %v, %v", ok, err)
	}
	if len(seen) != 3 || seen[2] == seen[0] {
		t.Fatalf("Variant's encode ran in %v, want a new process", seen[2:])
	}
	checkGone(t, seen[2])
}

// watched is the AVIF encoder noting the process of each encode.
type watched struct {
	AVIF
	seen *[]*avifChild
}

func (e watched) EncodeContext(ctx context.Context, w io.Writer, m image.Image, q int) error {
	defer e.Hold()() // the process stays until it is noted
	err := e.AVIF.EncodeContext(ctx, w, m, q)
	e.proc.mu.Lock()
	*e.seen = append(*e.seen, e.proc.child)
	e.proc.mu.Unlock()
	return err
}

// TestAVIFCompileCache: compiling the encoder through a compilation cache
// leaves its machine code there, which a second compilation reads instead
// of writing it again; a damaged entry costs a compilation, not the
// encoder. The three encode the same bytes.
func TestAVIFCompileCache(t *testing.T) {
	ctx := context.Background()
	zr, err := gzip.NewReader(bytes.NewReader(avifEncodeWasm))
	if err != nil {
		t.Fatal(err)
	}
	wasm, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	src := decode(t, photo(t, 64, 48))
	rgba := image.NewRGBA(src.Bounds())
	draw.Draw(rgba, rgba.Rect, src, src.Bounds().Min, draw.Src)
	encodeWith := func(what string) []byte {
		t.Helper()
		c, err := compileAVIF(ctx, dir, wasm)
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		defer c.rt.Close(ctx)
		mod, err := c.rt.InstantiateModule(ctx, c.cm, wazero.NewModuleConfig().WithName(""))
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		in := &avifInstance{mod, mod.ExportedFunction("malloc"), mod.ExportedFunction("free"), mod.ExportedFunction("encode")}
		b, err := in.run(ctx, rgba, 50, 9)
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		return b
	}
	entries := func() map[string]time.Time {
		es := map[string]time.Time{}
		filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err == nil && d.Type().IsRegular() {
				st, _ := d.Info()
				es[p] = st.ModTime()
			}
			return nil
		})
		return es
	}
	want := encodeWith("first compilation")
	first := entries()
	if len(first) == 0 {
		t.Fatal("the compilation left nothing in the cache")
	}
	if got := encodeWith("from the cache"); !bytes.Equal(got, want) {
		t.Error("the encoder read from the cache encodes other bytes")
	}
	if got := entries(); !maps.Equal(got, first) {
		t.Errorf("the second compilation wrote the cache again: %v, then %v", first, got)
	}
	for p := range first {
		if err := os.WriteFile(p, []byte("damaged"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if got := encodeWith("a damaged cache"); !bytes.Equal(got, want) {
		t.Error("the encoder compiled past a damaged cache encodes other bytes")
	}
}

// TestAVIFKeepsQuality: the default encoder (speed 9, the quality lifted
// by avifQualityLift) keeps the SSIM, luma and chroma, that speed 8 gave
// at the same quality, on two real photographs at three qualities (the
// bytes are logged: here they are 15-40% more than speed 8's, for the
// higher SSIM; bench/images/README.md).
func TestAVIFKeepsQuality(t *testing.T) {
	if avif.Dynamic() == nil {
		t.Skip("a shared libavif encodes")
	}
	now, old := NewAVIF(0, nil), NewAVIF(8, nil)
	defer now.Hold()()
	defer old.Hold()()
	for _, name := range []string{"dune-650.jpg", "water-drop-650.jpg"} {
		b, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		src := decode(t, b)
		for _, q := range []int{30, 50, 70} {
			measure := func(e AVIF) (int, float64, float64) {
				var out bytes.Buffer
				if err := e.Encode(&out, src, q); err != nil {
					t.Fatal(err)
				}
				m, err := avif.Decode(bytes.NewReader(out.Bytes()))
				if err != nil {
					t.Fatal(err)
				}
				return out.Len(), ssim.Mean(src, m), ssim.Chroma(src, m)
			}
			nb, nl, nc := measure(now)
			ob, ol, oc := measure(old)
			t.Logf("%s q%d: speed %d %d bytes SSIM %.4f/%.4f, speed 8 %d bytes %.4f/%.4f", name, q, now.speed(), nb, nl, nc, ob, ol, oc)
			if nl < ol || nc < oc {
				t.Errorf("%s at q%d: %s gives %d bytes, SSIM %.4f, chroma %.4f; speed 8 gave %d bytes, %.4f, %.4f",
					name, q, now.ID(), nb, nl, nc, ob, ol, oc)
			}
		}
	}
}

// TestAVIFInstanceMemory: an instance is kept for the next encode only
// while its memory is within the pool's bound (lib/encode.c leaks the RGB
// buffer of every encode, and a WebAssembly memory never shrinks), and an
// instance made anew writes the same bytes.
func TestAVIFInstanceMemory(t *testing.T) {
	if avif.Dynamic() == nil {
		t.Skip("a shared libavif encodes")
	}
	src := decode(t, photo(t, 1300, 867))
	rgba := image.NewRGBA(src.Bounds())
	draw.Draw(rgba, rgba.Rect, src, src.Bounds().Min, draw.Src)
	fresh := new(avifInstances)
	defer fresh.release()
	first, err := fresh.encode(rgba, 60, 9)
	if err != nil {
		t.Fatal(err)
	}
	if len(fresh.idle) != 1 {
		t.Fatalf("one encode in a fresh pool left %d idle instances, want 1 (kept under the bound of %d MB)", len(fresh.idle), avifInstanceMemory>>20)
	}
	one := fresh.idle[0].mod.Memory().Size()
	if one > avifInstanceMemory/2 {
		t.Fatalf("one 1300 × 867 encode takes %d MB of an instance, over half the bound of %d MB", one>>20, avifInstanceMemory>>20)
	}
	const bound = 64 << 20
	pool := &avifInstances{maxMemory: bound}
	defer pool.release()
	closed := 0
	for i := 0; i < 12; i++ {
		b, err := pool.encode(rgba, 60, 9)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(b, first) {
			t.Fatalf("encode %d: %d bytes, not the %d of the first", i, len(b), len(first))
		}
		if len(pool.idle) == 0 {
			closed++
		}
		for _, in := range pool.idle {
			if n := in.mod.Memory().Size(); n > bound {
				t.Fatalf("encode %d: an instance of %d MB kept, over the bound of %d MB", i, n>>20, bound>>20)
			}
		}
	}
	if closed == 0 {
		t.Fatalf("12 encodes of %d MB of pixels each in a 64 MB bound closed no instance", len(rgba.Pix)>>20)
	}
	t.Logf("one encode: %d MB; %d of 12 encodes closed their instance at the bound", one>>20, closed)
}
