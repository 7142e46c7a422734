package images

import (
	"bytes"
	"context"
	"encoding/binary"
	"hash/crc32"
	"image"
	"image/png"
	"testing"
	"testing/fstest"
)

// declaring is a PNG whose header declares w×h pixels and whose data is
// that of a 1×1 image.
func declaring(w, h uint32) []byte {
	var b bytes.Buffer
	png.Encode(&b, image.NewGray(image.Rect(0, 0, 1, 1)))
	data := b.Bytes()
	binary.BigEndian.PutUint32(data[16:], w)
	binary.BigEndian.PutUint32(data[20:], h)
	binary.BigEndian.PutUint32(data[29:], crc32.ChecksumIEEE(data[12:29]))
	return data
}

// FuzzImageHeader: whatever bytes a source image holds, Picture (which reads
// the header) and Run (which decodes) return an error or variants, never
// panic, and never accept a header declaring more than MaxPixels: the
// limit is what bounds the memory a decode takes.
func FuzzImageHeader(f *testing.F) {
	var small bytes.Buffer
	png.Encode(&small, image.NewRGBA(image.Rect(0, 0, 8, 6)))
	f.Add(small.Bytes(), ".png")
	f.Add(declaring(60000, 60000), ".png")
	f.Add(declaring(0, 5), ".png")
	f.Add(declaring(1<<31-1, 1<<31-1), ".png")
	f.Add(declaring(40, 30), ".png") // a header that decodes to too little data
	f.Add([]byte("\xff\xd8\xff\xc0\x00\x11\x08\xea\x60\xea\x60\x03\x01\x22\x00\x02\x11\x01\x03\x11\x01"), ".jpg")
	f.Add([]byte("GIF89a"), ".jpg")
	const maxPixels = 1 << 14
	f.Fuzz(func(t *testing.T, data []byte, ext string) {
		if ext != ".png" && ext != ".jpg" {
			ext = ".png"
		}
		fsys := fstest.MapFS{"assets/images/x" + ext: {Data: data}}
		var none Encoders // the fallback encoders only: fast
		d := DefaultEncoders()
		none.JPEG, none.PNG = d.JPEG, d.PNG
		p := New(Config{FS: fsys, Dirs: []string{"assets/images"}, MaxPixels: maxPixels, Encoders: &none})
		pic, err := p.Picture("/x"+ext, Options{Widths: []int{8}})
		if err != nil {
			return
		}
		s := p.sources["/x"+ext]
		if int64(s.w)*int64(s.h) > maxPixels || s.w <= 0 || s.h <= 0 {
			t.Fatalf("accepted a header of %d×%d pixels", s.w, s.h)
		}
		if pic.Width <= 0 {
			t.Fatalf("picture without a width: %+v", pic)
		}
		p.Run(context.Background(), 1)
	})
}

// FuzzAVIFRequest: whatever bytes come to the encoder process, reading a
// request returns an error or one within the bounds, never panics, and
// never allocates pixels for more than the limit.
func FuzzAVIFRequest(f *testing.F) {
	var ok bytes.Buffer
	writeAVIFRequest(&ok, avifRequest{id: 1, w: 2, h: 3, quality: 50, speed: 8, pix: make([]byte, 24)})
	f.Add(ok.Bytes())
	f.Add(ok.Bytes()[:avifRequestHeader])
	f.Add([]byte("SGA1"))
	f.Fuzz(func(t *testing.T, b []byte) {
		const limit = 100
		req, err := readAVIFRequest(bytes.NewReader(b), limit)
		if err != nil {
			return
		}
		if px := int(req.w) * int(req.h); px < 1 || px > limit || len(req.pix) != 4*px || req.quality > 100 || req.speed > 10 {
			t.Errorf("accepted %d×%d, q%d, speed %d, %d bytes of pixels", req.w, req.h, req.quality, req.speed, len(req.pix))
		}
	})
}
