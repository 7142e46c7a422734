//go:build unix

package images

import (
	"bytes"
	"context"
	"errors"
	"image"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gen2brain/avif"

	"sitegen/internal/ssim"
	"sitegen/internal/waittest"
)

// debianVersion is Debian 12's avifenc --version.
const debianVersion = `Version: 0.11.1 (dav1d [dec]:1.0.0, libgav1 [dec]:0.18.0, aom [enc/dec]:v3.6.0, rav1e [enc]:0.5.1 (v0.5.1), svt [enc]:v1.4.1)
libyuv : available (1857)
`

// fakeAVIF is enough of an AVIF file for NativeAVIF's check of avifenc's
// output (its ftyp box).
const fakeAVIF = `\000\000\000\024ftypavif\000\000\000\000avifmif1`

// fakeAvifenc puts an avifenc first in PATH that prints version to
// --version and otherwise runs script (sh; $out is the output file).
func fakeAvifenc(t *testing.T, version, script string) string {
	t.Helper()
	dir := t.TempDir()
	body := "#!/bin/sh\nif [ \"$1\" = --version ]; then\ncat <<'EOF'\n" + version + "EOF\nexit 0\nfi\nfor a; do out=$a; done\n" + script + "\n"
	path := filepath.Join(dir, "avifenc")
	if err := os.WriteFile(path, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir+string(os.PathListSeparator)+os.Getenv("PATH"))
	return path
}

// requireAvifenc skips a test that needs the real avifenc where it is not
// installed, and fails it in CI (CI=true), which must install it.
func requireAvifenc(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("avifenc"); err == nil {
		return
	}
	if os.Getenv("CI") != "" {
		t.Fatal("avifenc is not installed; CI must install it (apt-get install libavif-bin)")
	}
	t.Skip("avifenc is not installed (apt-get install libavif-bin): skipping the native AVIF encoder's test")
}

const setting = "site.yaml:7: images.avif: native"

// TestAvifencVersion: libavif's and aom's versions are read from avifenc
// --version, and an avifenc that cannot encode with aom is refused.
func TestAvifencVersion(t *testing.T) {
	for _, tc := range []struct {
		out, libavif, aom, err string
	}{
		{debianVersion, "0.11.1", "v3.6.0", ""},
		{"Version: 1.1.1 (dav1d [dec]:1.4.3, aom [enc/dec]:v3.9.1, rav1e [enc]:0.7.1 (p20240611-1))\nlibyuv : available (1880)\nlibsharpyuv: 0.4.0\n", "1.1.1", "v3.9.1", ""},
		{"Version: 1.0.4 (aom [enc]:3.8.2, dav1d [dec]:1.3.0)\n", "1.0.4", "3.8.2", ""},
		{"Version: 0.11.1 (dav1d [dec]:1.0.0, aom [dec]:v3.6.0, rav1e [enc]:0.5.1)\n", "", "", "has no aom encoder"},
		{"Version: 0.11.1 (svt [enc]:v1.4.1)\n", "", "", "has no aom encoder"},
		{"avifenc, the best\n", "", "", "no version"},
		{"", "", "", "no version"},
	} {
		lib, aom, err := parseAvifencVersion([]byte(tc.out))
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%q: %v, want an error saying %q", tc.out, err, tc.err)
			}
			continue
		}
		if err != nil || lib != tc.libavif || aom != tc.aom {
			t.Errorf("%q: %q, %q, %v; want %q, %q", tc.out, lib, aom, err, tc.libavif, tc.aom)
		}
	}
}

// TestNativeAVIFMissing: without avifenc, or with one that cannot say its
// version, the native encoder is an error saying how to install it.
func TestNativeAVIFMissing(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	_, err := NewNativeAVIF(setting)
	if err == nil || !strings.Contains(err.Error(), "avifenc not found") || !strings.Contains(err.Error(), "apt-get install libavif-bin") {
		t.Errorf("no avifenc: %v, want an error saying it is not found and how to install it", err)
	}
	fakeAvifenc(t, "", "")
	os.WriteFile(filepath.Join(filepath.SplitList(os.Getenv("PATH"))[0], "avifenc"), []byte("#!/bin/sh\necho broken >&2\nexit 1\n"), 0o755)
	if _, err := NewNativeAVIF(setting); err == nil || !strings.Contains(err.Error(), "--version") {
		t.Errorf("a failing avifenc: %v, want an error naming avifenc --version", err)
	}
}

// TestNativeAVIFFailures: an avifenc that is killed, hangs, cannot start,
// fails or writes no AVIF gives an error naming the setting that chose it
// and what happened, within seconds; one that cannot start, is killed or
// hangs fails Run for good (fatalError: every other encode would too), one
// that refuses an image fails that image only.
func TestNativeAVIFFailures(t *testing.T) {
	m := decode(t, photo(t, 300, 200)) // 240 KB of pixels: more than a pipe holds
	for _, tc := range []struct {
		name, script string
		fatal        bool
		want         string
	}{
		{"killed", "kill -KILL $$", true, "was killed (signal: killed)"},
		{"killed while reading", "head -c 1000 >/dev/null; kill -TERM $$", true, "was killed (signal: terminated)"},
		{"hung", "exec sleep 600", true, "hung: no result within 300ms, killed"},
		{"hung, not reading", "exec sleep 600 </dev/null", true, "hung: no result within 300ms"},
		{"removed", "", true, "cannot be started"},
		{"fails", "cat >/dev/null; echo 'Encoding frame 1'; echo 'ERROR: Failed to encode image: Encoding of color planes failed' >&2; exit 1",
			false, "avifenc failed (exit status 1): Encoding frame 1 / ERROR: Failed to encode image: Encoding of color planes failed"},
		{"reads nothing", "exit 0", false, "did not read the image"},
		{"writes nothing", "cat >/dev/null", false, "wrote 0 bytes that are not an AVIF image"},
		{"writes garbage", "cat >/dev/null; echo hello >\"$out\"", false, "wrote 6 bytes that are not an AVIF image"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := fakeAvifenc(t, debianVersion, tc.script)
			n, err := NewNativeAVIF(setting)
			if err != nil {
				t.Fatal(err)
			}
			n.timeout = 300 * time.Millisecond
			if tc.name == "removed" {
				os.Remove(path)
			}
			done := make(chan error, 1)
			go func() { done <- n.Encode(new(bytes.Buffer), m, 50) }()
			err = waittest.Within(t, done, "the encode")
			if err == nil || !strings.HasPrefix(err.Error(), setting+": ") || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("%v, want an error beginning %q and saying %q", err, setting, tc.want)
			}
			if fatal := errors.As(err, new(fatalError)); fatal != tc.fatal {
				t.Errorf("fatal %t, want %t: %v", fatal, tc.fatal, err)
			}
		})
	}
}

// TestNativeAVIFStopped: an encode stopped (Ctrl+C) returns ctx's error at
// once, its avifenc killed.
func TestNativeAVIFStopped(t *testing.T) {
	fakeAvifenc(t, debianVersion, "exec sleep 600")
	n, err := NewNativeAVIF(setting)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- n.EncodeContext(ctx, new(bytes.Buffer), decode(t, photo(t, 40, 30)), 50) }()
	if err := waittest.Within(t, done, "the encode"); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("encode: %v, want context.DeadlineExceeded", err)
	}
}

// TestNativeAVIFBounds: an image of more pixels than the processor's limit
// is refused before avifenc is run.
func TestNativeAVIFBounds(t *testing.T) {
	fakeAvifenc(t, debianVersion, "echo ran >&2; exit 1")
	n, err := NewNativeAVIF(setting)
	if err != nil {
		t.Fatal(err)
	}
	n.limitPixels(1000)
	err = n.Encode(new(bytes.Buffer), decode(t, photo(t, 40, 30)), 50)
	if err == nil || !strings.Contains(err.Error(), "40×30 pixels, outside 1-1000") {
		t.Errorf("%v, want the image refused for its pixels", err)
	}
}

// TestNativeAVIFKeys: the native encoder's ID names its libavif and aom
// and differs from the portable one's, so its variants have other keys and
// URLs (the fallback's stay), and another libavif or aom makes other keys
// again.
func TestNativeAVIFKeys(t *testing.T) {
	fsys := testFS(t)
	urls := func(enc *Encoders) (avif, jpeg string) {
		p := New(Config{FS: fsys, Dirs: []string{"assets/images"}, Encoders: enc})
		pic, err := p.Picture("/photos/a.jpg", Options{})
		if err != nil {
			t.Fatal(err)
		}
		return pic.Sources[0].Srcset(), pic.Fallback.Srcset()
	}
	portable := DefaultEncoders()
	seen := map[string]string{}
	wantJPEG := ""
	for _, tc := range []struct {
		name, version, id string
		enc               *Encoders
	}{
		{"portable", "", "gen2brain/avif", &portable},
		{"debian", debianVersion, "avifenc/libavif@0.11.1/aom@v3.6.0/", nil},
		{"another aom", strings.Replace(debianVersion, "v3.6.0", "v3.6.1", 1), "avifenc/libavif@0.11.1/aom@v3.6.1/", nil},
		{"another libavif", strings.Replace(debianVersion, "0.11.1", "1.0.4", 1), "avifenc/libavif@1.0.4/aom@v3.6.0/", nil},
	} {
		enc := tc.enc
		if enc == nil {
			fakeAvifenc(t, tc.version, "")
			e, err := NativeEncoders(setting)
			if err != nil {
				t.Fatal(err)
			}
			enc = &e
		}
		if id := enc.Modern[0].ID(); !strings.HasPrefix(id, tc.id) {
			t.Errorf("%s: ID %q, want it to begin %q", tc.name, id, tc.id)
		}
		a, j := urls(enc)
		if other, ok := seen[a]; ok {
			t.Errorf("%s: the AVIF variants have the URLs of %s: %s", tc.name, other, a)
		}
		seen[a] = tc.name
		if wantJPEG == "" {
			wantJPEG = j
		} else if j != wantJPEG {
			t.Errorf("%s: the JPEG fallback's URLs changed: %s, want %s", tc.name, j, wantJPEG)
		}
	}
}

// TestNativeAVIFRunKilled: an avifenc killed during a build's encodes
// fails Run at once with an error naming the image and the setting; the
// variants made before it are kept in the cache, and no further avifenc
// is started for the images left.
func TestNativeAVIFRunKilled(t *testing.T) {
	count := filepath.Join(t.TempDir(), "count")
	fakeAvifenc(t, debianVersion, `echo >>`+count+`
cat >/dev/null
if [ "$(wc -l <`+count+`)" -ge 2 ]; then kill -KILL $$; fi
printf '`+fakeAVIF+`' >"$out"`)
	enc, err := NativeEncoders(setting)
	if err != nil {
		t.Fatal(err)
	}
	cache := t.TempDir()
	p := New(Config{FS: photos(t, 4, 100), Dirs: []string{"img"}, CacheDir: cache, Encoders: &enc})
	for _, src := range []string{"/a.jpg", "/big0.jpg", "/big1.jpg", "/big2.jpg", "/big3.jpg"} {
		if _, err := p.Picture(src, Options{Widths: []int{100}}); err != nil {
			t.Fatal(err)
		}
	}
	ran := make(chan error, 1)
	go func() {
		_, err := p.Run(context.Background(), 1)
		ran <- err
	}()
	err = waittest.Within(t, ran, "Run")
	if err == nil || !strings.Contains(err.Error(), "image img/big0.jpg: encoding avif at 100 px: "+setting+": avifenc") ||
		!strings.Contains(err.Error(), "was killed") {
		t.Errorf("Run: %v, want an error naming img/big0.jpg, the setting and avifenc killed", err)
	}
	if b, _ := os.ReadFile(count); bytes.Count(b, []byte("\n")) != 2 {
		t.Errorf("avifenc ran %d times, want 2: none for the images after it was killed", bytes.Count(b, []byte("\n")))
	}
	kept, _ := filepath.Glob(filepath.Join(cache, "*", "*.avif"))
	if len(kept) != 1 {
		t.Errorf("the cache holds %d AVIF variants, want 1: the one made before avifenc was killed", len(kept))
	}
}

// TestNativeAVIFKeepsQuality: the real avifenc, at the settings NativeAVIF
// gives it, encodes the site's photographs (two at 650 px) at every
// quality tried into AVIF that decodes at the size given, the same bytes
// twice, with a mean SSIM over the photos, luma and chroma, at least the
// portable encoder's, and each photo's within nativeSSIMSlack of it (one
// step finer than the portable quantizer keeps the means of the website's
// 72 variants above at 30, 50, 70 and 85, each variant within 0.002:
// bench/images/README.md); and a translucent image keeps its alpha.
func TestNativeAVIFKeepsQuality(t *testing.T) {
	requireAvifenc(t)
	if avif.Dynamic() == nil {
		t.Skip("a shared libavif encodes")
	}
	native, err := NewNativeAVIF(setting)
	if err != nil {
		t.Fatal(err)
	}
	portable := NewAVIF(0, nil)
	defer portable.Hold()()
	measure := func(e Encoder, src image.Image, q int) ([]byte, image.Image, float64, float64) {
		t.Helper()
		var out bytes.Buffer
		if err := e.Encode(&out, src, q); err != nil {
			t.Fatal(err)
		}
		m, err := avif.Decode(bytes.NewReader(out.Bytes()))
		if err != nil {
			t.Fatalf("%s at q%d: %v", e.ID(), q, err)
		}
		if m.Bounds().Size() != src.Bounds().Size() {
			t.Fatalf("%s: decoded %v, want %v", e.ID(), m.Bounds().Size(), src.Bounds().Size())
		}
		return out.Bytes(), m, ssim.Mean(src, m), ssim.Chroma(src, m)
	}
	var photos []image.Image
	for _, name := range []string{"dune-650.jpg", "water-drop-650.jpg"} {
		b, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		photos = append(photos, decode(t, b))
	}
	const nativeSSIMSlack = 0.002
	for _, q := range []int{30, 50, 70, 85} {
		var sum [4]float64 // native luma, chroma; portable luma, chroma
		for i, src := range photos {
			nb, _, nl, nc := measure(native, src, q)
			pb, _, pl, pc := measure(portable, src, q)
			t.Logf("photo %d q%d: native %d bytes SSIM %.4f/%.4f, portable %d bytes %.4f/%.4f", i, q, len(nb), nl, nc, len(pb), pl, pc)
			if nl < pl-nativeSSIMSlack || nc < pc-nativeSSIMSlack {
				t.Errorf("photo %d at q%d: SSIM %.4f, chroma %.4f; the portable encoder's %.4f, %.4f", i, q, nl, nc, pl, pc)
			}
			if again, _, _, _ := measure(native, src, q); !bytes.Equal(again, nb) {
				t.Errorf("photo %d at q%d: other bytes the second time", i, q)
			}
			sum[0], sum[1], sum[2], sum[3] = sum[0]+nl, sum[1]+nc, sum[2]+pl, sum[3]+pc
		}
		if sum[0] < sum[2] || sum[1] < sum[3] {
			t.Errorf("at q%d: %s gives a mean SSIM %.4f, chroma %.4f; the portable encoder %.4f, %.4f",
				q, native.ID(), sum[0]/2, sum[1]/2, sum[2]/2, sum[3]/2)
		}
	}
	src := decode(t, transparent(t, 200, 100))
	_, m, nl, _ := measure(native, src, 50)
	_, _, pl, _ := measure(portable, src, 50)
	if nl < pl {
		t.Errorf("translucent: SSIM %.4f, the portable encoder's %.4f", nl, pl)
	}
	for _, p := range []image.Point{{0, 0}, {100, 50}, {199, 99}} {
		_, _, _, wa := src.At(p.X, p.Y).RGBA()
		_, _, _, ga := m.At(p.X, p.Y).RGBA()
		if d := int(wa>>8) - int(ga>>8); d < -8 || d > 8 {
			t.Errorf("translucent: alpha %d at %v, want %d", ga>>8, p, wa>>8)
		}
	}
}
