package resample

import (
	"crypto/sha256"
	"encoding/hex"
	"image"
	"image/color"
	"image/draw"
	"math/rand/v2"
	"testing"

	xdraw "golang.org/x/image/draw"
)

// TestWeights: along any axis, every destination pixel's weights sum to
// exactly one and stay inside the source.
func TestWeights(t *testing.T) {
	for _, c := range []struct{ dst, src int }{
		{1, 1}, {1, 7}, {7, 1}, {5, 5}, {163, 2560}, {650, 1300}, {1300, 2560}, {1300, 1680}, {3, 1000}, {100, 37}, {999, 1000},
	} {
		ws := weightsFor(c.dst, c.src)
		for i := range c.dst {
			first, row := ws.at(i)
			var sum int32
			for _, w := range row {
				sum += w
			}
			if sum != one || first < 0 || first+len(row) > c.src {
				t.Fatalf("%d→%d, pixel %d: weights %v from %d sum to %d; want %d inside 0-%d", c.src, c.dst, i, row, first, sum, one, c.src)
			}
		}
	}
}

// noise is a w×h image of random pixels (premultiplied, or opaque).
func noise(w, h int, opaque bool, seed uint64) *image.RGBA {
	r := rand.New(rand.NewPCG(seed, 1))
	m := image.NewRGBA(image.Rect(0, 0, w, h))
	for i := 0; i < len(m.Pix); i += 4 {
		a := uint8(255)
		if !opaque {
			a = uint8(r.IntN(256))
		}
		m.Pix[i], m.Pix[i+1], m.Pix[i+2], m.Pix[i+3] = uint8(r.IntN(int(a)+1)), uint8(r.IntN(int(a)+1)), uint8(r.IntN(int(a)+1)), a
	}
	return m
}

// TestScaleIdentity: a scale to the same size copies the pixels.
func TestScaleIdentity(t *testing.T) {
	for _, opaque := range []bool{true, false} {
		src := noise(37, 23, opaque, 1)
		dst := image.NewRGBA(src.Rect)
		Scale(dst, src, src.Rect, opaque)
		if string(dst.Pix) != string(src.Pix) {
			t.Errorf("opaque %v: the same size changed pixels", opaque)
		}
	}
}

// TestScaleFlat: a flat colour stays that colour at any size.
func TestScaleFlat(t *testing.T) {
	src := image.NewRGBA(image.Rect(0, 0, 301, 199))
	draw.Draw(src, src.Rect, image.NewUniform(color.RGBA{90, 20, 140, 200}), image.Point{}, draw.Src)
	for _, size := range []image.Point{{163, 107}, {1, 1}, {300, 5}, {602, 398}} {
		dst := image.NewRGBA(image.Rectangle{Max: size})
		Scale(dst, src, src.Rect, false)
		for i := 0; i < len(dst.Pix); i += 4 {
			if c := dst.Pix[i : i+4]; c[0] != 90 || c[1] != 20 || c[2] != 140 || c[3] != 200 {
				t.Fatalf("%v: pixel %d is %v, want 90 20 140 200", size, i/4, c)
			}
		}
	}
}

// TestScaleMatchesFloat: the integers give x/image/draw's Catmull-Rom
// (float64) within one level in every channel, reducing and enlarging,
// from a part of the source, opaque or not; and every pixel stays a valid
// premultiplied colour (no channel above alpha) where the filter's
// negative lobes overshoot.
func TestScaleMatchesFloat(t *testing.T) {
	for _, c := range []struct {
		name   string
		src, r image.Rectangle
		size   image.Point
		opaque bool
	}{
		{"halve", image.Rect(0, 0, 400, 300), image.Rect(0, 0, 400, 300), image.Pt(200, 150), true},
		{"by 7.3, a crop", image.Rect(0, 0, 700, 500), image.Rect(13, 40, 669, 311), image.Pt(90, 37), true},
		{"enlarge", image.Rect(0, 0, 40, 30), image.Rect(0, 0, 40, 30), image.Pt(97, 61), true},
		{"alpha, by 2.6", image.Rect(0, 0, 260, 130), image.Rect(0, 0, 260, 130), image.Pt(100, 50), false},
		{"offset source", image.Rect(5, 7, 305, 207), image.Rect(5, 7, 305, 207), image.Pt(163, 109), true},
		{"an edge into translucency", image.Rect(0, 0, 64, 8), image.Rect(0, 0, 64, 8), image.Pt(29, 4), false},
	} {
		src := noise(c.src.Dx(), c.src.Dy(), c.opaque, 2)
		if c.name == "an edge into translucency" { // opaque black, then white at alpha 100
			for i := 0; i < len(src.Pix); i += 4 {
				v := uint8(0)
				if i/4%64 >= 32 {
					v = 100
				}
				src.Pix[i], src.Pix[i+1], src.Pix[i+2], src.Pix[i+3] = v, v, v, max(v, 255*(1-v/100))
			}
		}
		src.Rect = c.src
		got := image.NewRGBA(image.Rectangle{Max: c.size})
		Scale(got, src, c.r, c.opaque)
		want := image.NewRGBA(image.Rectangle{Max: c.size})
		xdraw.CatmullRom.Scale(want, want.Rect, src, c.r, draw.Src, nil)
		worst := 0
		for i := range got.Pix {
			d := int(got.Pix[i]) - int(want.Pix[i])
			worst = max(worst, d, -d)
			if i%4 == 3 && (got.Pix[i-1] > got.Pix[i] || got.Pix[i-2] > got.Pix[i] || got.Pix[i-3] > got.Pix[i]) {
				t.Fatalf("%s: pixel %d %v is not premultiplied", c.name, i/4, got.Pix[i-3:i+1])
			}
		}
		if worst > 1 {
			t.Errorf("%s: a channel differs from the float filter's by %d levels, want at most 1", c.name, worst)
		}
	}
}

// TestScaleBytes: the pixels are the same on every machine and run (the
// ID names this arithmetic: a change to either changes every variant's
// key, so the golden moves with the ID).
func TestScaleBytes(t *testing.T) {
	h := sha256.New()
	for _, opaque := range []bool{true, false} {
		src := noise(512, 341, opaque, 3)
		for _, size := range []image.Point{{260, 173}, {163, 109}, {1000, 666}} {
			dst := image.NewRGBA(image.Rectangle{Max: size})
			Scale(dst, src, src.Rect, opaque)
			h.Write(dst.Pix)
		}
	}
	const want = "d9e1b207aba9117db5a266fa732ac83cb2de5dccc5b11c942fe977493222880d"
	if got := hex.EncodeToString(h.Sum(nil)); ID != "resample@1/catmullrom/int14" || got != want {
		t.Errorf("ID %s, pixels %s; want resample@1/catmullrom/int14, %s", ID, got, want)
	}
}
