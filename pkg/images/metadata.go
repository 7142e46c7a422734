package images

import (
	"bytes"
	"encoding/binary"
	"strings"
	"unicode/utf16"
)

// Private metadata a published photo may carry without its author knowing:
// where it was taken and who took it. Files under assets/static are
// published byte for byte (that is their promise), so sitegen tells
// instead of stripping; the resized variants of assets/images are
// re-encoded and carry none.
const (
	MetaGPS    = "a GPS position"
	MetaPerson = "a person's name"
)

// StripHint says how to remove the metadata (PrivateMetadata's findings).
const StripHint = "strip it before publishing, e.g. exiftool -all= FILE, or move the photo to assets/images (its resized copies carry no metadata)"

// PrivateMetadata reports the private metadata of a JPEG, PNG or WebP file:
// a GPS position (EXIF GPS IFD with coordinates, XMP exif:GPSLatitude) or a
// person's name (EXIF Artist or XPAuthor, XMP dc:creator), each with where
// it was found, e.g. "a GPS position (EXIF)". Other files give nil.
func PrivateMetadata(b []byte) []string {
	var exif, xmp [][]byte
	pngAuthor := false
	switch {
	case bytes.HasPrefix(b, []byte("\xff\xd8")):
		exif, xmp = jpegMeta(b)
	case bytes.HasPrefix(b, []byte("\x89PNG\r\n\x1a\n")):
		exif, xmp, pngAuthor = pngMeta(b)
	case len(b) >= 12 && string(b[:4]) == "RIFF" && string(b[8:12]) == "WEBP":
		exif, xmp = webpMeta(b)
	default:
		return nil
	}
	seen := map[string]bool{}
	var out []string
	add := func(s string) {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	for _, e := range exif {
		gps, artist := exifMeta(e)
		if gps {
			add(MetaGPS + " (EXIF)")
		}
		if artist != "" {
			add(MetaPerson + " (EXIF " + artist + ")")
		}
	}
	if pngAuthor {
		add(MetaPerson + " (PNG Author)")
	}
	for _, x := range xmp {
		if bytes.Contains(x, []byte("GPSLatitude")) {
			add(MetaGPS + " (XMP)")
		}
		if bytes.Contains(x, []byte("<dc:creator")) || bytes.Contains(x, []byte("dc:creator=")) {
			add(MetaPerson + " (XMP dc:creator)")
		}
	}
	return out
}

var (
	exifHeader = []byte("Exif\x00\x00")
	xmpHeader  = []byte("http://ns.adobe.com/xap/1.0/\x00")
)

// jpegMeta returns the EXIF (TIFF) and XMP payloads of a JPEG's APP1
// segments.
func jpegMeta(b []byte) (exif, xmp [][]byte) {
	for i := 2; i+4 <= len(b); {
		if b[i] != 0xff {
			return
		}
		marker := b[i+1]
		if marker == 0xd8 || marker == 0x01 || (marker >= 0xd0 && marker <= 0xd7) {
			i += 2
			continue
		}
		if marker == 0xda || marker == 0xd9 { // image data: no more metadata
			return
		}
		n := int(binary.BigEndian.Uint16(b[i+2:]))
		if n < 2 || i+2+n > len(b) {
			return
		}
		seg := b[i+4 : i+2+n]
		if marker == 0xe1 {
			switch {
			case bytes.HasPrefix(seg, exifHeader):
				exif = append(exif, seg[len(exifHeader):])
			case bytes.HasPrefix(seg, xmpHeader):
				xmp = append(xmp, seg[len(xmpHeader):])
			}
		}
		i += 2 + n
	}
	return
}

// pngMeta returns a PNG's eXIf chunk and its XMP text chunk, and whether a
// text chunk names an author.
func pngMeta(b []byte) (exif, xmp [][]byte, author bool) {
	for i := 8; i+8 <= len(b); {
		n := int(binary.BigEndian.Uint32(b[i:]))
		if n < 0 || i+12+n > len(b) {
			return
		}
		typ, data := string(b[i+4:i+8]), b[i+8:i+8+n]
		switch typ {
		case "eXIf":
			exif = append(exif, data)
		case "iTXt", "tEXt":
			key, _, _ := bytes.Cut(data, []byte{0})
			switch string(key) {
			case "XML:com.adobe.xmp":
				xmp = append(xmp, data)
			case "Author", "Artist":
				author = true
			}
		case "IEND":
			return
		}
		i += 12 + n
	}
	return
}

// webpMeta returns a WebP's EXIF and XMP chunks.
func webpMeta(b []byte) (exif, xmp [][]byte) {
	for i := 12; i+8 <= len(b); {
		n := int(binary.LittleEndian.Uint32(b[i+4:]))
		if n < 0 || i+8+n > len(b) {
			return
		}
		data := b[i+8 : i+8+n]
		switch string(b[i : i+4]) {
		case "EXIF":
			exif = append(exif, bytes.TrimPrefix(data, exifHeader))
		case "XMP ":
			xmp = append(xmp, data)
		}
		i += 8 + n + n%2
	}
	return
}

// exifMeta reads a TIFF structure: whether IFD0 points to a GPS IFD that
// holds a latitude or longitude, and which person tag (Artist, XPAuthor)
// holds a name.
func exifMeta(t []byte) (gps bool, person string) {
	if len(t) < 8 {
		return
	}
	var bo binary.ByteOrder
	switch string(t[:2]) {
	case "II":
		bo = binary.LittleEndian
	case "MM":
		bo = binary.BigEndian
	default:
		return
	}
	type entry struct {
		tag, typ    uint16
		count, off  uint32
		valueOffset int // where the value is when it fits in 4 bytes
	}
	ifd := func(off uint32) []entry {
		if uint64(off)+2 > uint64(len(t)) {
			return nil
		}
		n := int(bo.Uint16(t[off:]))
		var out []entry
		for k := 0; k < n && k < 1000; k++ {
			p := int(off) + 2 + 12*k
			if p+12 > len(t) {
				break
			}
			out = append(out, entry{bo.Uint16(t[p:]), bo.Uint16(t[p+2:]), bo.Uint32(t[p+4:]), bo.Uint32(t[p+8:]), p + 8})
		}
		return out
	}
	value := func(e entry, size int) []byte {
		n := uint64(e.count) * uint64(size)
		start := uint64(e.off)
		if n <= 4 {
			start = uint64(e.valueOffset)
		}
		if start+n > uint64(len(t)) {
			return nil
		}
		return t[start : start+n]
	}
	for _, e := range ifd(bo.Uint32(t[4:])) {
		switch e.tag {
		case 0x8825: // GPSInfo
			for _, g := range ifd(e.off) {
				if (g.tag == 2 || g.tag == 4) && g.count > 0 { // GPSLatitude, GPSLongitude
					gps = true
				}
			}
		case 0x013b: // Artist (ASCII)
			if strings.TrimSpace(strings.Trim(string(value(e, 1)), "\x00")) != "" {
				person = "Artist"
			}
		case 0x9c9d: // XPAuthor (UCS-2 little-endian, in bytes)
			v := value(e, 1)
			u := make([]uint16, 0, len(v)/2)
			for k := 0; k+1 < len(v); k += 2 {
				u = append(u, binary.LittleEndian.Uint16(v[k:]))
			}
			if person == "" && strings.TrimSpace(strings.Trim(string(utf16.Decode(u)), "\x00")) != "" {
				person = "XPAuthor"
			}
		}
	}
	return
}
