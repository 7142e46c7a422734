package images

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"image"
	"image/color"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// y4mFrame splits writeY4M's output into its header and planes.
func y4mFrame(t *testing.T, m *image.RGBA) (string, [][]byte) {
	t.Helper()
	var b bytes.Buffer
	if err := writeY4M(&b, m); err != nil {
		t.Fatal(err)
	}
	head, rest, ok := bytes.Cut(b.Bytes(), []byte("\nFRAME\n"))
	if !ok {
		t.Fatalf("no frame: %q", b.Bytes()[:min(80, b.Len())])
	}
	w, h := m.Rect.Dx(), m.Rect.Dy()
	sizes := []int{w * h, w * h, w * h, w * h}
	if m.Opaque() {
		c := ((w + 1) / 2) * ((h + 1) / 2)
		sizes = []int{w * h, c, c}
	}
	var planes [][]byte
	for _, n := range sizes {
		if len(rest) < n {
			t.Fatalf("%d×%d: planes of %d bytes, want %v", w, h, len(rest), sizes)
		}
		planes, rest = append(planes, rest[:n]), rest[n:]
	}
	if len(rest) != 0 {
		t.Fatalf("%d×%d: %d bytes after the planes", w, h, len(rest))
	}
	return string(head), planes
}

// TestY4MConversion: the Y4M the native encoder is given is full range
// BT.601 (image/color's JFIF conversion, within rounding) in the layout
// its header names: 4:2:0 with each chroma sample the mean of its 2×2
// block (of fewer pixels at an odd edge) for an opaque image, 4:4:4 and
// the alpha plane, the colours unpremultiplied, for a translucent one.
func TestY4MConversion(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, tc := range []struct {
		w, h   int
		opaque bool
		head   string
	}{
		{4, 2, true, "YUV4MPEG2 W4 H2 F1:1 Ip A1:1 C420jpeg XCOLORRANGE=FULL"},
		{5, 3, true, "YUV4MPEG2 W5 H3 F1:1 Ip A1:1 C420jpeg XCOLORRANGE=FULL"},
		{1, 1, true, "YUV4MPEG2 W1 H1 F1:1 Ip A1:1 C420jpeg XCOLORRANGE=FULL"},
		{3, 2, false, "YUV4MPEG2 W3 H2 F1:1 Ip A1:1 C444alpha XCOLORRANGE=FULL"},
	} {
		t.Run(fmt.Sprintf("%dx%d", tc.w, tc.h), func(t *testing.T) {
			m := image.NewRGBA(image.Rect(0, 0, tc.w, tc.h))
			straight := make([]color.NRGBA, tc.w*tc.h)
			for i := range straight {
				c := color.NRGBA{uint8(rng.IntN(256)), uint8(rng.IntN(256)), uint8(rng.IntN(256)), 255}
				if !tc.opaque {
					c.A = uint8(1 + rng.IntN(255))
				}
				straight[i] = c
				m.Set(i%tc.w, i/tc.w, c)
			}
			head, planes := y4mFrame(t, m)
			if head != tc.head {
				t.Errorf("header %q, want %q", head, tc.head)
			}
			// The colours the planes hold: straight, as m holds them
			// (premultiplied and so rounded).
			rgb := func(x, y int) (r, g, b float64) {
				c := color.NRGBAModel.Convert(m.RGBAAt(x, y)).(color.NRGBA)
				return float64(c.R), float64(c.G), float64(c.B)
			}
			near := func(what string, got byte, want float64) {
				if math.Abs(float64(got)-want) > 1 {
					t.Errorf("%s = %d, want %.2f", what, got, want)
				}
			}
			for y := 0; y < tc.h; y++ {
				for x := 0; x < tc.w; x++ {
					r, g, b := rgb(x, y)
					near(fmt.Sprintf("Y(%d,%d)", x, y), planes[0][y*tc.w+x], 0.299*r+0.587*g+0.114*b)
				}
			}
			if !tc.opaque {
				for i, c := range straight {
					x, y := i%tc.w, i/tc.w
					r, g, b := rgb(x, y)
					near(fmt.Sprintf("Cb(%d,%d)", x, y), planes[1][i], 128-0.168736*r-0.331264*g+0.5*b)
					near(fmt.Sprintf("Cr(%d,%d)", x, y), planes[2][i], 128+0.5*r-0.418688*g-0.081312*b)
					if planes[3][i] != c.A {
						t.Errorf("A(%d,%d) = %d, want %d", x, y, planes[3][i], c.A)
					}
				}
				return
			}
			cw := (tc.w + 1) / 2
			for cy := 0; cy < (tc.h+1)/2; cy++ {
				for cx := 0; cx < cw; cx++ {
					var r, g, b, n float64
					for y := 2 * cy; y < min(2*cy+2, tc.h); y++ {
						for x := 2 * cx; x < min(2*cx+2, tc.w); x++ {
							pr, pg, pb := rgb(x, y)
							r, g, b, n = r+pr, g+pg, b+pb, n+1
						}
					}
					r, g, b = r/n, g/n, b/n
					near(fmt.Sprintf("Cb(%d,%d)", cx, cy), planes[1][cy*cw+cx], 128-0.168736*r-0.331264*g+0.5*b)
					near(fmt.Sprintf("Cr(%d,%d)", cx, cy), planes[2][cy*cw+cx], 128+0.5*r-0.418688*g-0.081312*b)
				}
			}
		})
	}
}

// TestY4MGreys: a grey's chroma is exactly 128 and its luma its level,
// at every level (the coefficients sum to one).
func TestY4MGreys(t *testing.T) {
	m := image.NewRGBA(image.Rect(0, 0, 256, 2))
	for x := 0; x < 256; x++ {
		m.SetRGBA(x, 0, color.RGBA{uint8(x), uint8(x), uint8(x), 255})
		m.SetRGBA(x, 1, color.RGBA{uint8(x), uint8(x), uint8(x), 255})
	}
	_, planes := y4mFrame(t, m)
	for x := 0; x < 256; x++ {
		if planes[0][x] != byte(x) {
			t.Errorf("Y of grey %d = %d", x, planes[0][x])
		}
	}
	for i, c := range append(planes[1], planes[2]...) {
		if c != 128 {
			t.Errorf("chroma sample %d of greys = %d, want 128", i, c)
		}
	}
}

// TestY4MBytes pins the Y4M of a photograph: integer arithmetic, the same
// bytes on every machine (a change of them is a change of every native
// variant, and needs y4m1 in NativeAVIF.ID changed too).
func TestY4MBytes(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("testdata", "water-drop-650.jpg"))
	if err != nil {
		t.Fatal(err)
	}
	src := decode(t, b)
	rgba := image.NewRGBA(image.Rect(0, 0, 325, 217))
	for y := 0; y < 217; y++ { // a crop with odd sides
		for x := 0; x < 325; x++ {
			rgba.Set(x, y, src.At(x+100, y+50))
		}
	}
	var out bytes.Buffer
	if err := writeY4M(&out, rgba); err != nil {
		t.Fatal(err)
	}
	const want = "2c4e4408be2bf3c8b86434bc7171dd12716e8f9c0d9a6476da832d0db2892596"
	if got := fmt.Sprintf("%x", sha256.Sum256(out.Bytes())); got != want {
		t.Errorf("the Y4M of the photo has SHA-256 %s, want %s", got, want)
	}
	if !strings.HasPrefix(out.String(), "YUV4MPEG2 W325 H217 ") {
		t.Errorf("header %q", out.String()[:40])
	}
}
