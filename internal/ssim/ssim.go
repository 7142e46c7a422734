// Package ssim is the quality measure of the image benchmarks and tests: the mean SSIM
// (Wang et al. 2004, its constants) of the luma (BT.601 weights) of two
// images over 8×8 windows, one every 4 pixels across and down. No Go
// library that is kept up computes SSIM, and ImageMagick 6 (Debian 12's)
// has no SSIM metric; this is the measure bench/images chose formats with.
package ssim

import (
	"image"
	"math"
)

// plane is one channel of m: luma (BT.601) or, with chroma set, Cb and Cr.
func plane(m image.Image, wr, wg, wb, off float64) ([]float64, int, int) {
	b := m.Bounds()
	w, h := b.Dx(), b.Dy()
	out := make([]float64, w*h)
	if rgba, ok := m.(*image.RGBA); ok {
		// As At(x, y).RGBA() below, without an interface call a pixel.
		for y := 0; y < h; y++ {
			row := rgba.Pix[rgba.PixOffset(b.Min.X, b.Min.Y+y):]
			for x := 0; x < w; x++ {
				p := row[4*x : 4*x+3 : 4*x+3]
				r, g, bl := uint32(p[0])*0x101, uint32(p[1])*0x101, uint32(p[2])*0x101
				out[y*w+x] = (wr*float64(r)+wg*float64(g)+wb*float64(bl))/257 + off
			}
		}
		return out, w, h
	}
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			r, g, bl, _ := m.At(b.Min.X+x, b.Min.Y+y).RGBA()
			out[y*w+x] = (wr*float64(r)+wg*float64(g)+wb*float64(bl))/257 + off
		}
	}
	return out, w, h
}

// Mean is the mean SSIM of the luma of a and b (of the same size) over 8×8
// windows (step 4); NaN for images smaller than a window.
func Mean(a, b image.Image) float64 {
	return mean(a, b, 0.299, 0.587, 0.114, 0)
}

// Chroma is the mean of Mean's measure over the Cb and Cr planes (BT.601):
// whether the colours survived, which luma SSIM does not see.
func Chroma(a, b image.Image) float64 {
	return (mean(a, b, -0.168736, -0.331264, 0.5, 128) + mean(a, b, 0.5, -0.418688, -0.081312, 128)) / 2
}

func mean(a, b image.Image, wr, wg, wb, off float64) float64 {
	la, w, h := plane(a, wr, wg, wb, off)
	lb, _, _ := plane(b, wr, wg, wb, off)
	const c1, c2 = (0.01 * 255) * (0.01 * 255), (0.03 * 255) * (0.03 * 255)
	var total float64
	var n int
	for y := 0; y+8 <= h; y += 4 {
		for x := 0; x+8 <= w; x += 4 {
			var ma, mb float64
			for j := 0; j < 8; j++ {
				for i := 0; i < 8; i++ {
					ma += la[(y+j)*w+x+i]
					mb += lb[(y+j)*w+x+i]
				}
			}
			ma /= 64
			mb /= 64
			var va, vb, cov float64
			for j := 0; j < 8; j++ {
				for i := 0; i < 8; i++ {
					da, db := la[(y+j)*w+x+i]-ma, lb[(y+j)*w+x+i]-mb
					va += da * da
					vb += db * db
					cov += da * db
				}
			}
			va /= 63
			vb /= 63
			cov /= 63
			total += ((2*ma*mb + c1) * (2*cov + c2)) / ((ma*ma + mb*mb + c1) * (va + vb + c2))
			n++
		}
	}
	if n == 0 {
		return math.NaN()
	}
	return total / float64(n)
}
