package build

import (
	"bytes"
	"context"
	"encoding/binary"
	"hash/crc32"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// pngDeclaring is a PNG whose header declares w×h pixels (its data is that
// of a 1×1 image: decoding fails, reading the header does not).
func pngDeclaring(t *testing.T, w, h uint32) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := png.Encode(&b, image.NewGray(image.Rect(0, 0, 1, 1))); err != nil {
		t.Fatal(err)
	}
	data := b.Bytes()
	// 8-byte signature, then IHDR: length(4) "IHDR"(4) width(4) height(4) ...
	binary.BigEndian.PutUint32(data[16:], w)
	binary.BigEndian.PutUint32(data[20:], h)
	binary.BigEndian.PutUint32(data[29:], crc32.ChecksumIEEE(data[12:29]))
	return data
}

// imagePage writes img as assets/images/<name> and a Markdown image of it
// at the end of content/pl/kontakt.md; it returns the site and the line
// of the image.
func imagePage(t *testing.T, name string, img []byte) (string, int) {
	t.Helper()
	src := fixtureCopy(t)
	p := filepath.Join(src, ImageDir, name)
	os.MkdirAll(filepath.Dir(p), 0o755)
	if err := os.WriteFile(p, img, 0o644); err != nil {
		t.Fatal(err)
	}
	page := filepath.Join(src, "content/pl/kontakt.md")
	b, _ := os.ReadFile(page)
	line := bytes.Count(b, []byte("\n")) + 2
	appendBody(t, page, "\n![Zdjęcie](/"+name+")\n")
	return src, line
}

// TestImagePixelLimit: an image whose header declares more pixels than
// images.maxPixels is refused before it is decoded (a 60000×60000 PNG once
// took the process down with "out of memory"), naming the page, its line
// and the image.
func TestImagePixelLimit(t *testing.T) {
	src, line := imagePage(t, "huge.png", pngDeclaring(t, 60000, 60000))
	_, err := Run(context.Background(), Options{Source: src, Out: filepath.Join(t.TempDir(), "public"), Date: "2026-01-01", ImageCache: t.TempDir()})
	want := "content/pl/kontakt.md:" + itoa(line) + ":"
	if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "assets/images/huge.png declares 60000×60000 pixels") {
		t.Fatalf("build error:\n%v\nwant one at %s naming the image and its size", err, want)
	}
	// The limit is site.yaml's images.maxPixels.
	os.WriteFile(filepath.Join(src, ImageDir, "huge.png"), pngDeclaring(t, 20, 20), 0o644)
	cfg := filepath.Join(src, "site.yaml")
	b, _ := os.ReadFile(cfg)
	os.WriteFile(cfg, append(b, "images: {maxPixels: 300}\n"...), 0o644)
	_, err = Run(context.Background(), Options{Source: src, Out: filepath.Join(t.TempDir(), "public"), Date: "2026-01-01", ImageCache: t.TempDir()})
	if err == nil || !strings.Contains(err.Error(), "declares 20×20 pixels") {
		t.Fatalf("build error:\n%v\nwant the 400-pixel image refused under maxPixels 300", err)
	}
}

// TestStaticPhotoMetadata: a photo in assets/static that tells where it was
// taken and who took it is published byte for byte (the promise) and the
// build reports it, naming the file and how to strip it.
func TestStaticPhotoMetadata(t *testing.T) {
	src := fixtureCopy(t)
	var img bytes.Buffer
	if err := png.Encode(&img, image.NewGray(image.Rect(0, 0, 2, 2))); err != nil {
		t.Fatal(err)
	}
	var jpg bytes.Buffer
	jpg.Write([]byte{0xff, 0xd8, 0xff, 0xe1})
	xmp := "http://ns.adobe.com/xap/1.0/\x00<x:xmpmeta><rdf:Description exif:GPSLatitude=\"52,13N\"><dc:creator>Jan Kowalski</dc:creator></rdf:Description></x:xmpmeta>"
	binary.Write(&jpg, binary.BigEndian, uint16(len(xmp)+2))
	jpg.WriteString(xmp)
	jpg.Write([]byte{0xff, 0xd9})
	files := map[string][]byte{"uploads/photo.jpg": jpg.Bytes(), "uploads/clean.png": img.Bytes()}
	for rel, b := range files {
		p := filepath.Join(src, StaticDir, rel)
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, b, 0o644)
	}
	out := filepath.Join(t.TempDir(), "public")
	rep, err := Run(context.Background(), Options{Source: src, Out: out, Date: "2026-01-01"})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Metadata) != 1 || rep.Metadata[0].File != "assets/static/uploads/photo.jpg" {
		t.Fatalf("metadata warnings %+v, want one for assets/static/uploads/photo.jpg", rep.Metadata)
	}
	msg := rep.Metadata[0].Message()
	for _, want := range []string{"a GPS position (XMP)", "a person's name (XMP dc:creator)", "exiftool -all="} {
		if !strings.Contains(msg, want) {
			t.Errorf("warning %q lacks %q", msg, want)
		}
	}
	for rel, b := range files {
		if got, _ := os.ReadFile(filepath.Join(out, rel)); !bytes.Equal(got, b) {
			t.Errorf("%s is not published byte for byte", rel)
		}
	}
}

// TestUndecodableImageNamesPage: an image whose header reads but whose data
// does not decode is an error at the page and line that shows it (it was
// "png: invalid format" with no source).
func TestUndecodableImageNamesPage(t *testing.T) {
	src, line := imagePage(t, "broken.png", pngDeclaring(t, 40, 30))
	_, err := Run(context.Background(), Options{Source: src, Out: filepath.Join(t.TempDir(), "public"), Date: "2026-01-01", ImageCache: t.TempDir()})
	want := "content/pl/kontakt.md:" + itoa(line) + ":"
	if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "assets/images/broken.png cannot be decoded") {
		t.Fatalf("build error:\n%v\nwant one at %s naming the image", err, want)
	}
}
