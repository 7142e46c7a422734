// Command gen writes the hostile inputs of bench/probes/run.sh:
//
//	gen png W H FILE     a grey PNG of W×H pixels, all black, its pixel
//	                     data compressed whole (60000×60000 is 3.5 MB)
//	gen gps-jpeg FILE    a 64×64 JPEG whose EXIF holds a GPS position and
//	                     an Artist (a person's name)
//	gen deep-list N FILE a Markdown list nested N deep, two spaces a level
//	gen photo W H SEED FILE  a W×H colour JPEG of smooth gradients and
//	                     noise (seconds of AVIF encoding at 1600×1200)
package main

import (
	"bufio"
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"image"
	"image/jpeg"
	"io"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	switch {
	case len(args) == 4 && args[0] == "png":
		w, err1 := strconv.Atoi(args[1])
		h, err2 := strconv.Atoi(args[2])
		if err1 != nil || err2 != nil {
			return fmt.Errorf("png: want W H FILE")
		}
		return writeFile(args[3], func(f io.Writer) error { return blackPNG(f, w, h) })
	case len(args) == 2 && args[0] == "gps-jpeg":
		return writeFile(args[1], gpsJPEG)
	case len(args) == 5 && args[0] == "photo":
		w, err1 := strconv.Atoi(args[1])
		h, err2 := strconv.Atoi(args[2])
		seed, err3 := strconv.ParseUint(args[3], 10, 64)
		if err1 != nil || err2 != nil || err3 != nil {
			return fmt.Errorf("photo: want W H SEED FILE")
		}
		return writeFile(args[4], func(f io.Writer) error { return photo(f, w, h, seed) })
	case len(args) == 3 && args[0] == "deep-list":
		n, err := strconv.Atoi(args[1])
		if err != nil {
			return err
		}
		return writeFile(args[2], func(f io.Writer) error {
			for i := range n {
				fmt.Fprintf(f, "%s- level %d\n", strings.Repeat("  ", i), i)
			}
			return nil
		})
	}
	return fmt.Errorf("usage: gen png W H FILE | gps-jpeg FILE | deep-list N FILE | photo W H SEED FILE")
}

// photo writes a JPEG (quality 90) of gradients with noise from seed:
// no two seeds give the same image.
func photo(out io.Writer, w, h int, seed uint64) error {
	m := image.NewRGBA(image.Rect(0, 0, w, h))
	r := rand.New(rand.NewPCG(seed, 36))
	for y := range h {
		for x := range w {
			i := m.PixOffset(x, y)
			m.Pix[i] = uint8(255*x/w) ^ uint8(r.IntN(24))
			m.Pix[i+1] = uint8(255*y/h) ^ uint8(r.IntN(24))
			m.Pix[i+2] = uint8((x*y)>>8) ^ uint8(seed)
			m.Pix[i+3] = 255
		}
	}
	return jpeg.Encode(out, m, &jpeg.Options{Quality: 90})
}

func writeFile(name string, write func(io.Writer) error) error {
	f, err := os.Create(name)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	if err := write(w); err != nil {
		f.Close()
		return err
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// blackPNG writes an 8-bit grey PNG of w×h black pixels: every row is a
// filter byte and w zeros, compressed into one IDAT chunk.
func blackPNG(out io.Writer, w, h int) error {
	var idat bytes.Buffer
	z, err := zlib.NewWriterLevel(&idat, zlib.BestCompression)
	if err != nil {
		return err
	}
	row := make([]byte, 1+w)
	for range h {
		if _, err := z.Write(row); err != nil {
			return err
		}
	}
	if err := z.Close(); err != nil {
		return err
	}
	ihdr := binary.BigEndian.AppendUint32(nil, uint32(w))
	ihdr = binary.BigEndian.AppendUint32(ihdr, uint32(h))
	ihdr = append(ihdr, 8, 0, 0, 0, 0) // 8-bit grey, deflate, no filter, no interlace
	if _, err := out.Write([]byte("\x89PNG\r\n\x1a\n")); err != nil {
		return err
	}
	for _, c := range []struct {
		typ  string
		data []byte
	}{{"IHDR", ihdr}, {"IDAT", idat.Bytes()}, {"IEND", nil}} {
		b := binary.BigEndian.AppendUint32(nil, uint32(len(c.data)))
		b = append(append(b, c.typ...), c.data...)
		b = binary.BigEndian.AppendUint32(b, crc32.ChecksumIEEE(b[4:]))
		if _, err := out.Write(b); err != nil {
			return err
		}
	}
	return nil
}

// gpsJPEG writes a JPEG with an APP1 EXIF block: IFD0 holds Artist and a
// GPS IFD with a latitude of 52° 13' 48".
func gpsJPEG(out io.Writer) error {
	le := binary.LittleEndian
	artist := "Jan Kowalski\x00"
	// IFD0 at 8: 2 entries; then the Artist text, the GPS IFD, the
	// latitude's three rationals.
	ifd0 := 8
	artistAt := ifd0 + 2 + 2*12 + 4
	gpsAt := artistAt + len(artist)
	latAt := gpsAt + 2 + 12 + 4
	b := []byte("II*\x00")
	b = le.AppendUint32(b, uint32(ifd0))
	b = le.AppendUint16(b, 2)
	b = entry(b, 0x013b, 2, uint32(len(artist)), uint32(artistAt)) // Artist
	b = entry(b, 0x8825, 4, 1, uint32(gpsAt))                      // GPS IFD
	b = le.AppendUint32(b, 0)
	b = append(b, artist...)
	b = le.AppendUint16(b, 1)
	b = entry(b, 0x0002, 5, 3, uint32(latAt)) // GPSLatitude
	b = le.AppendUint32(b, 0)
	for _, v := range []uint32{52, 1, 13, 1, 48, 1} {
		b = le.AppendUint32(b, v)
	}
	app1 := append([]byte("Exif\x00\x00"), b...)

	var img bytes.Buffer
	if err := jpeg.Encode(&img, image.NewGray(image.Rect(0, 0, 64, 64)), nil); err != nil {
		return err
	}
	j := []byte{0xff, 0xd8, 0xff, 0xe1}
	j = binary.BigEndian.AppendUint16(j, uint16(len(app1)+2))
	j = append(j, app1...)
	j = append(j, img.Bytes()[2:]...)
	_, err := out.Write(j)
	return err
}

func entry(b []byte, tag, typ uint16, count, value uint32) []byte {
	le := binary.LittleEndian
	b = le.AppendUint16(b, tag)
	b = le.AppendUint16(b, typ)
	b = le.AppendUint32(b, count)
	return le.AppendUint32(b, value)
}
