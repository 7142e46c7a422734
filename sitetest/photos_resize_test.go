package sitetest

// The resize the image stage gives the encoders (images.Resize: an integer
// Catmull-Rom, each width made from the next wider) against two resizes of
// the website's photographs in float64 (x/image/draw): Lanczos 3, a
// reference of high quality, and Catmull-Rom, the one the stage used
// before (each width from the photo).

import (
	"fmt"
	"image"
	"image/draw"
	_ "image/jpeg"
	"math"
	"os"
	"path/filepath"
	"testing"

	xdraw "golang.org/x/image/draw"

	"sitegen/internal/ssim"
	"sitegen/pkg/images"
)

// Bounds of the SSIM (luma, and chroma) of every size of every photo
// against the two float resizes: measured 2026-12-07 at least 0.9957 and
// 0.9988 luma (bench/images/README.md, "Resizing"); a blurrier or sharper
// filter, or a cascade of lesser steps, falls below.
const (
	minSSIMLanczos    = 0.995
	minSSIMCatmullRom = 0.998
)

var lanczos3 = &xdraw.Kernel{Support: 3, At: func(t float64) float64 {
	if t == 0 {
		return 1
	}
	if t >= 3 {
		return 0
	}
	return 3 * math.Sin(math.Pi*t) * math.Sin(math.Pi*t/3) / (math.Pi * math.Pi * t * t)
}}

// TestPhotoResizeQuality: every width the website makes of each of its
// photographs, in full and in the 21:9 crop its covers use, stays within
// minSSIMLanczos of a Lanczos 3 resize of the same pixels and within
// minSSIMCatmullRom of x/image/draw's Catmull-Rom, luma and chroma.
func TestPhotoResizeQuality(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "assets", "images", "photos", "*.jpg"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no photographs in assets/images/photos (%v)", err)
	}
	worst := map[string]float64{"lanczos": 1, "catmullrom": 1}
	for _, f := range files {
		m := decodeFile(t, f)
		for _, o := range []images.Options{{}, {Ratio: 21.0 / 9}} {
			crop := images.Crop(m.Bounds().Dx(), m.Bounds().Dy(), o).Add(m.Bounds().Min)
			for _, got := range images.Resize(m, o) {
				name := fmt.Sprintf("%s ratio %.2f at %d px", filepath.Base(f), o.Ratio, got.Rect.Dx())
				for _, ref := range []struct {
					name string
					k    xdraw.Interpolator
					min  float64
				}{{"lanczos", lanczos3, minSSIMLanczos}, {"catmullrom", xdraw.CatmullRom, minSSIMCatmullRom}} {
					want := image.NewRGBA(got.Rect)
					ref.k.Scale(want, want.Rect, m, crop, draw.Src, nil)
					l, c := ssim.Mean(want, got), ssim.Chroma(want, got)
					worst[ref.name] = min(worst[ref.name], l, c)
					if l < ref.min || c < ref.min {
						t.Errorf("%s: SSIM %.5f, chroma %.5f against %s; want at least %.3f", name, l, c, ref.name, ref.min)
					}
				}
			}
		}
	}
	t.Logf("least SSIM (luma or chroma): %.5f against Lanczos 3, %.5f against Catmull-Rom", worst["lanczos"], worst["catmullrom"])
}

func decodeFile(t *testing.T, f string) image.Image {
	t.Helper()
	r, err := os.Open(f)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	m, _, err := image.Decode(r)
	if err != nil {
		t.Fatalf("%s: %v", f, err)
	}
	return m
}
