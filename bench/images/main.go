// Command images measures the image encoders on the site's photographs:
// bytes and SSIM (luma, 8×8 windows, Wang et al. 2004 constants) against
// the resized original, per format and quality, at one delivered width.
// It chooses formats and qualities by bytes at equal visual quality.
//
//	go run ./bench/images [-width 650] [-dir assets/images/photos]
package main

import (
	"bytes"
	"flag"
	"fmt"
	"image"
	"image/draw"
	_ "image/jpeg"
	"io"
	"log"
	"os"
	"path/filepath"
	"sort"
	"time"

	"github.com/gen2brain/avif"
	"github.com/gen2brain/webp"
	xdraw "golang.org/x/image/draw"
	"image/jpeg"

	"sitegen/internal/ssim"
	"sitegen/pkg/images"
)

func main() {
	width := flag.Int("width", 650, "delivered width")
	dir := flag.String("dir", "assets/images/photos", "folder of JPEG photographs")
	flag.Parse()
	files, _ := filepath.Glob(filepath.Join(*dir, "*.jpg"))
	sort.Strings(files)
	type row struct {
		bytes int
		ssim  float64
		dur   time.Duration
	}
	type setting struct {
		enc images.Encoder
		q   int
	}
	var settings []setting
	avifEnc := images.NewAVIF(0, nil)
	defer avifEnc.Hold()() // one encoder process (the module compiled once), as a build's
	for _, q := range []int{30, 40, 50, 60, 70} {
		settings = append(settings, setting{avifEnc, q})
	}
	for _, q := range []int{40, 50, 60, 75, 85} {
		settings = append(settings, setting{images.WebP{}, q})
	}
	for _, q := range []int{40, 50, 60, 75, 85} {
		settings = append(settings, setting{images.JPEG{}, q})
	}
	decode := map[string]func(io.Reader) (image.Image, error){"avif": avif.Decode, "webp": webp.Decode, "jpeg": jpeg.Decode}
	sum := make([]row, len(settings))
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			log.Fatal(err)
		}
		src, _, err := image.Decode(bytes.NewReader(b))
		if err != nil {
			log.Fatal(err)
		}
		h := src.Bounds().Dy() * *width / src.Bounds().Dx()
		ref := image.NewRGBA(image.Rect(0, 0, *width, h))
		xdraw.CatmullRom.Scale(ref, ref.Bounds(), src, src.Bounds(), draw.Src, nil)
		for i, s := range settings {
			var out bytes.Buffer
			t0 := time.Now()
			if err := s.enc.Encode(&out, ref, s.q); err != nil {
				log.Fatal(err)
			}
			d := time.Since(t0)
			m, err := decode[s.enc.Format()](bytes.NewReader(out.Bytes()))
			if err != nil {
				log.Fatal(err)
			}
			sum[i].bytes += out.Len()
			sum[i].ssim += ssim.Mean(ref, m)
			sum[i].dur += d
		}
	}
	n := float64(len(files))
	fmt.Printf("%d photos at %d px wide (%s)\n", len(files), *width, images.AVIF{}.ID()+", "+images.WebP{}.ID())
	fmt.Printf("%-6s %4s %10s %8s %10s\n", "format", "q", "avg bytes", "SSIM", "ms/image")
	for i, s := range settings {
		fmt.Printf("%-6s %4d %10.0f %8.4f %10.1f\n", s.enc.Format(), s.q, float64(sum[i].bytes)/n, sum[i].ssim/n, float64(sum[i].dur.Milliseconds())/n)
	}
}
