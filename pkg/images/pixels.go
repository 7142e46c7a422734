package images

import (
	"bytes"
	"fmt"
	"image"
	"image/draw"
	"math"

	"sitegen/pkg/images/resample"
)

// pixels is one source as Run works on it: decoded once, into
// premultiplied RGBA (the resizer's and the encoders' input), and the
// sizes made of it so far, which the formats of one size share.
type pixels struct {
	src    *image.RGBA
	opaque bool // every pixel's alpha is 255 (a JPEG's, an opaque PNG's)
	sizes  map[scale]*image.RGBA
}

// scale is a size made of a source: of the part crop, through the wider
// sizes via (their fmt.Sprint), at size.
type scale struct {
	crop image.Rectangle
	size image.Point
	via  string
}

// decode decodes s unless px holds it already, or takes m, s decoded
// (the check's, takeDecoded), when it is not nil. The decoder's own image
// (YCbCr for a JPEG) is converted at once and dropped: 4 bytes a pixel,
// 200 MB at the 50 megapixel limit.
func (px *pixels) decode(s *source, m image.Image) error {
	if px.src != nil {
		return nil
	}
	if m == nil {
		var err error
		if m, _, err = image.Decode(bytes.NewReader(s.data)); err != nil {
			return fmt.Errorf("image %s: %v", s.file, err)
		}
	}
	px.set(m)
	return nil
}

// set makes m the source.
func (px *pixels) set(m image.Image) {
	rgba := packedRGBA(m)
	px.src, px.opaque = rgba, rgba.Opaque()
	px.sizes = map[scale]*image.RGBA{}
}

// packedRGBA is m as an *image.RGBA whose rectangle starts at the origin
// and whose rows follow each other (a stride of 4 × its width), as the
// resampler and the encoders read pixels: m itself when it is one (a
// decoded image is), else a copy.
func packedRGBA(m image.Image) *image.RGBA {
	if rgba, ok := m.(*image.RGBA); ok && rgba.Rect.Min == (image.Point{}) && rgba.Stride == 4*rgba.Rect.Dx() {
		return rgba
	}
	b := m.Bounds()
	rgba := image.NewRGBA(image.Rect(0, 0, b.Dx(), b.Dy()))
	draw.Draw(rgba, rgba.Rect, m, b.Min, draw.Src)
	return rgba
}

// Resize is what Run gives the encoders for a picture of m with o: the
// sizes of its widths (Widths of its Crop), smallest first, each made from
// the next wider (scaled). The benchmarks and the website's tests measure
// the resize with it.
func Resize(m image.Image, o Options) []*image.RGBA {
	px := &pixels{}
	px.set(m)
	crop := Crop(px.src.Rect.Dx(), px.src.Rect.Dy(), o)
	sizes := sizesOf(crop, Widths(crop.Dx(), o.Widths))
	out := make([]*image.RGBA, len(sizes))
	for i, size := range sizes {
		out[i] = px.scaled(crop, size, sizes[i+1:])
	}
	return out
}

// sizesOf are the sizes of crop at widths (its ratio kept, at least 1 px
// high).
func sizesOf(crop image.Rectangle, widths []int) []image.Point {
	sizes := make([]image.Point, len(widths))
	for i, w := range widths {
		sizes[i] = image.Pt(w, max(1, int(math.Round(float64(w)*float64(crop.Dy())/float64(crop.Dx())))))
	}
	return sizes
}

// keepDecoded keeps m, s decoded by the check, for Run, unless the
// images kept already and m take more than 4 bytes times the pixel limit
// (one source at the limit in RGBA, 200 MB: a JPEG's YCbCr is 1.5-3
// bytes a pixel, so this website's 8 photos take 40 MB): a cold build
// then decodes each source once, not in the check and again in Run,
// while the memory a site of many photos holds between the two stays
// bounded (the sources beyond it are decoded again).
func (p *Processor) keepDecoded(s *source, m image.Image) {
	n := decodedSize(m)
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.held+n > 4*int64(p.maxPixels) || s.decoded != nil {
		return
	}
	p.held += n
	s.decoded, s.decodedBytes = m, n
}

// takeDecoded is s decoded by the check (keepDecoded), which it lets go
// of, or nil.
func (p *Processor) takeDecoded(s *source) image.Image {
	p.mu.Lock()
	defer p.mu.Unlock()
	m := s.decoded
	p.held -= s.decodedBytes
	s.decoded, s.decodedBytes = nil, 0
	return m
}

// decodedSize is the bytes of pixels m holds.
func decodedSize(m image.Image) int64 {
	switch m := m.(type) {
	case *image.YCbCr:
		return int64(len(m.Y) + len(m.Cb) + len(m.Cr))
	case *image.Gray:
		return int64(len(m.Pix))
	case *image.RGBA:
		return int64(len(m.Pix))
	case *image.NRGBA:
		return int64(len(m.Pix))
	case *image.CMYK:
		return int64(len(m.Pix))
	}
	b := m.Bounds()
	return 8 * int64(b.Dx()) * int64(b.Dy()) // 16 bits a channel, the most a decoder gives
}

// scaled is the crop of the decoded source at size, made from the first
// of the sizes via, itself made through the rest, or from the source when
// via is empty: a picture's widths are made each from the next wider, so
// that each resize reduces by about 2 (DefaultWidths), not 8 from the
// photo, for a quarter of the CPU (bench/images/README.md). The resizer
// is resample.Scale, a separable Catmull-Rom in integers; its ID and via
// are in every variant's key.
func (px *pixels) scaled(crop image.Rectangle, size image.Point, via []image.Point) *image.RGBA {
	k := scale{crop, size, fmt.Sprint(via)}
	if m := px.sizes[k]; m != nil {
		return m
	}
	from, r := px.src, crop.Add(px.src.Rect.Min)
	if len(via) > 0 {
		from = px.scaled(crop, via[0], via[1:])
		r = from.Rect
	}
	m := image.NewRGBA(image.Rect(0, 0, size.X, size.Y))
	resample.Scale(m, from, r, px.opaque)
	px.sizes[k] = m
	return m
}
