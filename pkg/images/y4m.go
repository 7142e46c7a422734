package images

import (
	"bufio"
	"fmt"
	"image"
	"io"
)

// writeY4M writes m as one frame of YUV4MPEG2, full range, in JPEG's
// BT.601 matrix (CICP matrix coefficients 6, what libavif converts RGB
// with by default): 4:2:0 with centred chroma (C420jpeg) when m is
// opaque, else 4:4:4 with an alpha plane (C444alpha, the only Y4M
// layout with alpha that libavif reads). The conversion is integer
// arithmetic, the same bytes on every machine: the native encoder
// (avifnative.go) is fed these, so that only its own code decides its
// output.
func writeY4M(w io.Writer, m *image.RGBA) error {
	wd, ht := m.Rect.Dx(), m.Rect.Dy()
	opaque := m.Opaque()
	layout := "C420jpeg"
	if !opaque {
		layout = "C444alpha"
	}
	bw := bufio.NewWriterSize(w, 1<<16)
	fmt.Fprintf(bw, "YUV4MPEG2 W%d H%d F1:1 Ip A1:1 %s XCOLORRANGE=FULL\nFRAME\n", wd, ht, layout)
	if opaque {
		writeYUV420(bw, m)
	} else {
		writeYUVA444(bw, m)
	}
	return bw.Flush()
}

// BT.601 full range in 16-bit fixed point (JFIF's, as image/color's
// RGBToYCbCr): Y = 0.299 R + 0.587 G + 0.114 B, Cb = 128 + 0.5 (B - Y) /
// 0.886, Cr = 128 + 0.5 (R - Y) / 0.701.
const (
	yR, yG, yB    = 19595, 38470, 7471
	cbR, cbG, cbB = -11056, -21712, 32768
	crR, crG, crB = 32768, -27440, -5328
	fix           = 16
)

// luma is Y of r, g, b (each 0-255), rounded.
func luma(r, g, b int32) byte {
	return byte((yR*r + yG*g + yB*b + 1<<(fix-1)) >> fix)
}

// chroma is Cb and Cr of the sums r, g, b of 1<<shift pixels (1, 2 or 4),
// rounded and clamped to 0-255. A sum weighted is at least -128 × 2^16 a
// pixel, so with 128.5 added no numerator is negative.
func chroma(r, g, b int32, shift uint) (byte, byte) {
	off := int32(128<<fix+1<<(fix-1)) << shift
	cb := (cbR*r + cbG*g + cbB*b + off) >> (fix + shift)
	cr := (crR*r + crG*g + crB*b + off) >> (fix + shift)
	return byte(min(cb, 255)), byte(min(cr, 255))
}

// writeYUV420 writes the Y plane of m (opaque), then Cb and Cr, each
// the mean of a 2×2 block (of fewer pixels at an odd edge: one or two).
func writeYUV420(w *bufio.Writer, m *image.RGBA) {
	wd, ht := m.Rect.Dx(), m.Rect.Dy()
	row := make([]byte, wd)
	for y := 0; y < ht; y++ {
		px := m.Pix[y*m.Stride : y*m.Stride+4*wd]
		for x := range row {
			p := px[4*x : 4*x+3 : 4*x+3]
			row[x] = luma(int32(p[0]), int32(p[1]), int32(p[2]))
		}
		w.Write(row)
	}
	cw, ch := (wd+1)/2, (ht+1)/2
	cb := make([]byte, cw*ch)
	cr := make([]byte, cw*ch)
	for cy := 0; cy < ch; cy++ {
		top := m.Pix[2*cy*m.Stride : 2*cy*m.Stride+4*wd]
		bottom, rows := top, uint(0) // log2 of the block's rows
		if 2*cy+1 < ht {
			bottom, rows = m.Pix[(2*cy+1)*m.Stride:(2*cy+1)*m.Stride+4*wd], 1
		}
		for cx := 0; cx < cw; cx++ {
			x, shift := 8*cx, rows
			r, g, b := int32(top[x]), int32(top[x+1]), int32(top[x+2])
			if rows == 1 {
				r, g, b = r+int32(bottom[x]), g+int32(bottom[x+1]), b+int32(bottom[x+2])
			}
			if x+4 < len(top) { // a second column
				r, g, b = r+int32(top[x+4]), g+int32(top[x+5]), b+int32(top[x+6])
				if rows == 1 {
					r, g, b = r+int32(bottom[x+4]), g+int32(bottom[x+5]), b+int32(bottom[x+6])
				}
				shift++
			}
			cb[cy*cw+cx], cr[cy*cw+cx] = chroma(r, g, b, shift)
		}
	}
	w.Write(cb)
	w.Write(cr)
}

// writeYUVA444 writes the Y, Cb, Cr and alpha planes of m at full size,
// its colours unpremultiplied first (image.RGBA's are premultiplied).
func writeYUVA444(w *bufio.Writer, m *image.RGBA) {
	wd, ht := m.Rect.Dx(), m.Rect.Dy()
	planes := [4][]byte{}
	for i := range planes {
		planes[i] = make([]byte, wd*ht)
	}
	for y := 0; y < ht; y++ {
		for x := 0; x < wd; x++ {
			p := m.Pix[y*m.Stride+4*x:]
			r, g, b, _ := unpremultiply(p[0], p[1], p[2], p[3])
			i := y*wd + x
			planes[0][i] = luma(r, g, b)
			planes[1][i], planes[2][i] = chroma(r, g, b, 0)
			planes[3][i] = p[3]
		}
	}
	for _, pl := range planes {
		w.Write(pl)
	}
}

// unpremultiply is the straight colour of a premultiplied pixel, rounded
// (0 where alpha is 0).
func unpremultiply(r, g, b, a byte) (int32, int32, int32, byte) {
	if a == 0 {
		return 0, 0, 0, 0
	}
	un := func(c byte) int32 { return min(255, (int32(c)*255+int32(a)/2)/int32(a)) }
	return un(r), un(g), un(b), a
}
