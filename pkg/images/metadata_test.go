package images

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"image"
	"image/jpeg"
	"image/png"
	"reflect"
	"testing"
)

// tiffWith is a little-endian TIFF (EXIF) block whose IFD0 holds Artist
// (when artist is set) and a GPS IFD with a latitude (when gps is set).
func tiffWith(artist string, gps bool) []byte {
	le := binary.LittleEndian
	var entries [][12]byte
	var tail []byte
	const head = 8
	n := 0
	if artist != "" {
		n++
	}
	if gps {
		n++
	}
	dataStart := head + 2 + 12*n + 4
	if artist != "" {
		var e [12]byte
		le.PutUint16(e[0:], 0x013b)
		le.PutUint16(e[2:], 2)
		le.PutUint32(e[4:], uint32(len(artist)+1))
		le.PutUint32(e[8:], uint32(dataStart+len(tail)))
		tail = append(tail, artist+"\x00"...)
		entries = append(entries, e)
	}
	if gps {
		var e [12]byte
		le.PutUint16(e[0:], 0x8825)
		le.PutUint16(e[2:], 4)
		le.PutUint32(e[4:], 1)
		le.PutUint32(e[8:], uint32(dataStart+len(tail)))
		gpsIFD := make([]byte, 2+12+4)
		le.PutUint16(gpsIFD[0:], 1)
		le.PutUint16(gpsIFD[2:], 2) // GPSLatitude
		le.PutUint16(gpsIFD[4:], 5)
		le.PutUint32(gpsIFD[6:], 3)
		tail = append(tail, gpsIFD...)
		entries = append(entries, e)
	}
	b := []byte("II*\x00\x08\x00\x00\x00")
	b = le.AppendUint16(b, uint16(n))
	for _, e := range entries {
		b = append(b, e[:]...)
	}
	b = append(b, 0, 0, 0, 0)
	return append(b, tail...)
}

func jpegWith(app1 ...[]byte) []byte {
	var img bytes.Buffer
	jpeg.Encode(&img, image.NewGray(image.Rect(0, 0, 4, 4)), nil)
	out := []byte{0xff, 0xd8}
	for _, p := range app1 {
		out = append(out, 0xff, 0xe1)
		out = binary.BigEndian.AppendUint16(out, uint16(len(p)+2))
		out = append(out, p...)
	}
	return append(out, img.Bytes()[2:]...)
}

func pngWith(typ string, data []byte) []byte {
	var img bytes.Buffer
	png.Encode(&img, image.NewGray(image.Rect(0, 0, 4, 4)))
	b := img.Bytes()
	chunk := binary.BigEndian.AppendUint32(nil, uint32(len(data)))
	chunk = append(chunk, typ...)
	chunk = append(chunk, data...)
	chunk = binary.BigEndian.AppendUint32(chunk, crc32.ChecksumIEEE(chunk[4:]))
	return append(append(append([]byte{}, b[:33]...), chunk...), b[33:]...) // after IHDR
}

func webpWith(typ string, data []byte) []byte {
	body := []byte("WEBP")
	body = append(body, typ...)
	body = binary.LittleEndian.AppendUint32(body, uint32(len(data)))
	body = append(body, data...)
	if len(data)%2 == 1 {
		body = append(body, 0)
	}
	out := []byte("RIFF")
	out = binary.LittleEndian.AppendUint32(out, uint32(len(body)))
	return append(out, body...)
}

// TestPrivateMetadata: a GPS position or a person's name in EXIF or XMP
// of a JPEG, PNG or WebP is found; a clean file, an EXIF block without
// them and a file of another kind give nothing.
func TestPrivateMetadata(t *testing.T) {
	xmp := []byte(`<x:xmpmeta><rdf:Description exif:GPSLatitude="52,13.5N"><dc:creator><rdf:Seq><rdf:li>Jan Kowalski</rdf:li></rdf:Seq></dc:creator></rdf:Description></x:xmpmeta>`)
	for name, tc := range map[string]struct {
		file []byte
		want []string
	}{
		"jpeg exif gps and artist": {jpegWith(append([]byte("Exif\x00\x00"), tiffWith("Jan Kowalski", true)...)), []string{"a GPS position (EXIF)", "a person's name (EXIF Artist)"}},
		"jpeg exif camera only":    {jpegWith(append([]byte("Exif\x00\x00"), tiffWith("", false)...)), nil},
		"jpeg xmp":                 {jpegWith(append([]byte("http://ns.adobe.com/xap/1.0/\x00"), xmp...)), []string{"a GPS position (XMP)", "a person's name (XMP dc:creator)"}},
		"jpeg clean":               {jpegWith(), nil},
		"png exif":                 {pngWith("eXIf", tiffWith("", true)), []string{"a GPS position (EXIF)"}},
		"png author text":          {pngWith("tEXt", []byte("Author\x00Jan")), []string{"a person's name (PNG Author)"}},
		"webp exif":                {webpWith("EXIF", tiffWith("Jan", false)), []string{"a person's name (EXIF Artist)"}},
		"webp xmp":                 {webpWith("XMP ", xmp), []string{"a GPS position (XMP)", "a person's name (XMP dc:creator)"}},
		"pdf":                      {[]byte("%PDF-1.7 GPSLatitude <dc:creator"), nil},
		"truncated":                {jpegWith(append([]byte("Exif\x00\x00"), tiffWith("Jan", true)...))[:30], nil},
	} {
		if got := PrivateMetadata(tc.file); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: %q, want %q", name, got, tc.want)
		}
	}
}
