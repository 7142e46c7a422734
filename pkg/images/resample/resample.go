// Package resample scales premultiplied RGBA images with a separable
// Catmull-Rom filter (its support widened by the reduction factor, so a
// reduction is filtered as well as interpolated, as x/image/draw's
// CatmullRom does), computed in integers: the same bytes on every
// machine. A float filter is not: Go may fuse a multiply and an add
// into one instruction on some CPUs (arm64, amd64 v3) and not on others,
// and a pixel that rounds the other way changes a variant's bytes.
//
// The weights are computed once per axis from exact rationals (every
// product converted, so none is fused) and rounded to 14-bit integers
// that sum to 1 exactly. The vertical pass runs first, over whole rows
// (the loop that costs least per tap, on the most data), into one row
// kept to 6 bits below the 8 of a pixel, which the horizontal pass then
// reduces and rounds once to 8 bits: no buffer but that row.
package resample

import (
	"image"
	"math"
)

// ID names the filter and its arithmetic: a change to either changes the
// pixels, so it belongs in the cache key of everything made with it.
const ID = "resample@1/catmullrom/int14"

const (
	weightBits = 14 // a weight of 1 is 1<<weightBits
	fracBits   = 6  // bits below a pixel's 8 kept between the passes
	one        = 1 << weightBits
)

// Scale writes the part r of src (premultiplied RGBA, as image.RGBA is)
// into the whole of dst, scaled to dst's size. opaque says that every
// pixel of src in r has alpha 255 (a JPEG's): the alpha channel is then
// not filtered, and dst's is 255.
func Scale(dst, src *image.RGBA, r image.Rectangle, opaque bool) {
	r = r.Intersect(src.Rect)
	dw, dh := dst.Rect.Dx(), dst.Rect.Dy()
	if r.Empty() || dw <= 0 || dh <= 0 {
		return
	}
	sw := r.Dx()
	rows := weightsFor(dh, r.Dy())
	cols := weightsFor(dw, sw)
	// Row by row of dst: the vertical pass into acc (4 channels of sw
	// pixels), kept to fracBits below a pixel, then the horizontal pass.
	acc := make([]int32, 4*sw)
	for y := 0; y < dh; y++ {
		clear(acc)
		first, ws := rows.at(y)
		row := func(k int) []uint8 {
			off := src.PixOffset(r.Min.X, r.Min.Y+first+k)
			return src.Pix[off : off+4*sw]
		}
		k := 0
		for ; k+3 < len(ws); k += 4 {
			accumulate4(acc, row(k), row(k+1), row(k+2), row(k+3), ws[k:k+4])
		}
		for ; k+1 < len(ws); k += 2 {
			accumulate2(acc, row(k), row(k+1), ws[k], ws[k+1])
		}
		if k < len(ws) {
			accumulate(acc, row(k), ws[k])
		}
		for i, a := range acc {
			acc[i] = (a + 1<<(weightBits-fracBits-1)) >> (weightBits - fracBits)
		}
		off := dst.PixOffset(dst.Rect.Min.X, dst.Rect.Min.Y+y)
		out := dst.Pix[off : off+4*dw]
		if opaque {
			rowOpaque(out, acc, cols)
		} else {
			rowAlpha(out, acc, cols)
		}
	}
}

// accumulate adds w times every byte of row into acc.
func accumulate(acc []int32, row []uint8, w int32) {
	row = row[:len(acc)]
	for i, v := range row {
		acc[i] += int32(v) * w
	}
}

// accumulate2 adds w0 times every byte of r0 and w1 times every byte of
// r1 into acc: one pass over acc for two rows.
func accumulate2(acc []int32, r0, r1 []uint8, w0, w1 int32) {
	r0 = r0[:len(acc)]
	r1 = r1[:len(acc)]
	for i := range acc {
		acc[i] += int32(r0[i])*w0 + int32(r1[i])*w1
	}
}

// accumulate4 is accumulate2 for four rows.
func accumulate4(acc []int32, r0, r1, r2, r3 []uint8, w []int32) {
	r0, r1, r2, r3 = r0[:len(acc)], r1[:len(acc)], r2[:len(acc)], r3[:len(acc)]
	w0, w1, w2, w3 := w[0], w[1], w[2], w[3]
	for i := range acc {
		acc[i] += int32(r0[i])*w0 + int32(r1[i])*w1 + int32(r2[i])*w2 + int32(r3[i])*w3
	}
}

// final rounds a sum of the horizontal pass (weights times the
// intermediate) to 8 bits, clamped to 0-max.
func final(a, max int32) uint8 {
	const shift = weightBits + fracBits
	v := (a + 1<<(shift-1)) >> shift
	if v < 0 {
		return 0
	}
	if v > max {
		return uint8(max)
	}
	return uint8(v)
}

func rowOpaque(out []uint8, in []int32, cols weights) {
	for x := 0; x < len(out)/4; x++ {
		first, ws := cols.at(x)
		px := in[4*first : 4*(first+len(ws))]
		var r, g, b int32
		for k, w := range ws {
			p := px[4*k : 4*k+3 : 4*k+3]
			r += p[0] * w
			g += p[1] * w
			b += p[2] * w
		}
		d := out[4*x : 4*x+4 : 4*x+4]
		d[0], d[1], d[2], d[3] = final(r, 255), final(g, 255), final(b, 255), 255
	}
}

// rowAlpha filters all four channels and keeps the result a valid
// premultiplied colour (no channel above alpha), which the filter's
// negative lobes could break.
func rowAlpha(out []uint8, in []int32, cols weights) {
	for x := 0; x < len(out)/4; x++ {
		first, ws := cols.at(x)
		px := in[4*first : 4*(first+len(ws))]
		var r, g, b, a int32
		for k, w := range ws {
			p := px[4*k : 4*k+4 : 4*k+4]
			r += p[0] * w
			g += p[1] * w
			b += p[2] * w
			a += p[3] * w
		}
		d := out[4*x : 4*x+4 : 4*x+4]
		d[3] = final(a, 255)
		m := int32(d[3])
		d[0], d[1], d[2] = final(r, m), final(g, m), final(b, m)
	}
}

// weights are the taps of every destination index along one axis: n
// weights each, from source index first[i] on (zeros pad the ends).
type weights struct {
	first []int
	n     int
	w     []int32
}

func (ws weights) at(i int) (int, []int32) {
	return ws.first[i], ws.w[i*ws.n : (i+1)*ws.n]
}

// tap is a source index and its weight, before rounding.
type tap struct {
	j int
	w float64
}

// weightsFor computes the taps that scale src pixels to dst along an axis.
// Destination pixel i's centre is at (i+½)·src/dst in source pixels, so
// source pixel j lies at distance d = |(2j+1)·dst − (2i+1)·src| / (2·dst)
// from it; the filter is stretched by src/dst when reducing, so its
// argument is d·dst/max(src, dst) = |num| / (2·max(src, dst)), a rational
// whose numerator is an exact integer.
func weightsFor(dst, src int) weights {
	den := 2 * int64(max(src, dst))
	all := make([][]tap, dst)
	n := 0
	for i := range dst {
		// The centre, rounded down, and the taps around it within the
		// support (2, stretched: |num| < 2·den).
		c := int((int64(2*i+1)*int64(src) - int64(dst)) / int64(2*dst))
		reach := int(2*den/int64(2*dst)) + 2
		var taps []tap
		for j := max(0, c-reach); j <= min(src-1, c+reach); j++ {
			num := int64(2*j+1)*int64(dst) - int64(2*i+1)*int64(src)
			if num < 0 {
				num = -num
			}
			if num >= 2*den {
				continue
			}
			if w := catmullRom(float64(num) / float64(den)); w != 0 {
				taps = append(taps, tap{j, w})
			}
		}
		all[i] = taps
		if len(taps) > 0 {
			n = max(n, taps[len(taps)-1].j-taps[0].j+1)
		}
	}
	n = max(1, min(n, src))
	ws := weights{first: make([]int, dst), n: n, w: make([]int32, dst*n)}
	for i, taps := range all {
		first := 0
		if len(taps) > 0 {
			first = min(taps[0].j, src-n)
		}
		ws.first[i] = first
		fixed(ws.w[i*n:(i+1)*n], first, taps)
	}
	return ws
}

// fixed rounds the taps' weights, normalised, into row (whose first
// weight is source index first), adding the rounding's remainder to the
// largest, so that they sum to exactly one. No taps (a source of one
// pixel far from the centre) is the first pixel, whole.
func fixed(row []int32, first int, taps []tap) {
	var sum float64
	for _, t := range taps {
		sum += t.w
	}
	if sum == 0 {
		row[0] = one
		return
	}
	var total int32
	big := 0
	for _, t := range taps {
		k := t.j - first
		row[k] = int32(math.Round(float64(t.w/sum) * one))
		total += row[k]
		if row[k] > row[big] {
			big = k
		}
	}
	row[big] += one - total
}

// catmullRom is the Catmull-Rom cubic (B=0, C=½) at t ≥ 0, each product
// rounded on its own (an explicit conversion stops Go fusing it into the
// add that follows).
func catmullRom(t float64) float64 {
	t2 := float64(t * t)
	t3 := float64(t2 * t)
	if t < 1 {
		return float64(1.5*t3) - float64(2.5*t2) + 1
	}
	if t < 2 {
		return float64(-0.5*t3) + float64(2.5*t2) - float64(4*t) + 2
	}
	return 0
}
