// Command resize compares ways of making a picture's widths from its
// source photo: the CPU of the resizes alone (one at a time, the least of
// -rounds interleaved rounds), and the SSIM (luma) of each result against
// x/image/draw's Lanczos 3 and against its Catmull-Rom from the decoded
// YCbCr, the resize the image stage used before. The photos are the
// website's, in full and in the 21:9 crop of its covers, at DefaultWidths.
//
//	go run -tags=nodynamic ./bench/images/resize [-photos assets/images/photos] [-rounds 3]
package main

import (
	"bytes"
	"flag"
	"fmt"
	"image"
	"image/draw"
	_ "image/jpeg"
	"log"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"syscall"
	"time"

	"github.com/gohugoio/gift"
	xdraw "golang.org/x/image/draw"

	"sitegen/internal/ssim"
	"sitegen/pkg/images"
	"sitegen/pkg/images/resample"
)

type variant struct {
	crop image.Rectangle
	w, h int
}

type photo struct {
	name string
	ycc  image.Image
	rgba *image.RGBA
	jobs []variant // widest first, per crop
	opts []images.Options
}

type method struct {
	name string
	run  func(p *photo) []*image.RGBA
}

func cpu() time.Duration {
	var u syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &u)
	return time.Duration(u.Utime.Nano() + u.Stime.Nano())
}

func newDst(v variant) *image.RGBA { return image.NewRGBA(image.Rect(0, 0, v.w, v.h)) }

func kernelEach(k xdraw.Interpolator, fromRGBA bool) func(p *photo) []*image.RGBA {
	return func(p *photo) []*image.RGBA {
		var out []*image.RGBA
		for _, v := range p.jobs {
			d := newDst(v)
			var src image.Image = p.ycc
			if fromRGBA {
				src = p.rgba
			}
			k.Scale(d, d.Bounds(), src, v.crop, draw.Src, nil)
			out = append(out, d)
		}
		return out
	}
}

func intDirect(p *photo) []*image.RGBA {
	var out []*image.RGBA
	for _, v := range p.jobs {
		d := newDst(v)
		resample.Scale(d, p.rgba, v.crop, true)
		out = append(out, d)
	}
	return out
}

// stage is the image stage's own resize (images.Resize: every width of a
// crop from the next wider), from the decoded photo (its conversion to
// RGBA, once per crop, included).
func stage(p *photo) []*image.RGBA {
	var out []*image.RGBA
	for _, o := range p.opts {
		m := images.Resize(p.ycc, o)
		for i := len(m) - 1; i >= 0; i-- { // widest first, as jobs
			out = append(out, m[i])
		}
	}
	return out
}

func giftEach(p *photo) []*image.RGBA {
	var out []*image.RGBA
	for _, v := range p.jobs {
		d := newDst(v)
		g := gift.NewWithOptions(gift.Options{Workers: 1}, gift.Resize(v.w, v.h, gift.CubicResampling))
		g.Draw(d, p.rgba.SubImage(v.crop))
		out = append(out, d)
	}
	return out
}

func main() {
	dir := flag.String("photos", "assets/images/photos", "folder of JPEG photos")
	rounds := flag.Int("rounds", 3, "rounds of every method, interleaved; the least CPU is shown")
	flag.Parse()
	runtime.GOMAXPROCS(1)
	files, _ := filepath.Glob(filepath.Join(*dir, "*.jpg"))
	sort.Strings(files)
	var photos []*photo
	var decodeCPU, convCPU time.Duration
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			log.Fatal(err)
		}
		c0 := cpu()
		m, _, err := image.Decode(bytes.NewReader(b))
		if err != nil {
			log.Fatal(err)
		}
		c1 := cpu()
		rgba := image.NewRGBA(image.Rect(0, 0, m.Bounds().Dx(), m.Bounds().Dy()))
		draw.Draw(rgba, rgba.Rect, m, m.Bounds().Min, draw.Src)
		decodeCPU += c1 - c0
		convCPU += cpu() - c1
		p := &photo{name: filepath.Base(f), ycc: m, rgba: rgba}
		for _, o := range []images.Options{{}, {Ratio: 21.0 / 9}} {
			crop := images.Crop(m.Bounds().Dx(), m.Bounds().Dy(), o)
			ws := images.Widths(crop.Dx(), nil)
			for i := len(ws) - 1; i >= 0; i-- {
				w := ws[i]
				h := max(1, int(math.Round(float64(w)*float64(crop.Dy())/float64(crop.Dx()))))
				p.jobs = append(p.jobs, variant{crop, w, h})
			}
			p.opts = append(p.opts, o)
		}
		photos = append(photos, p)
	}
	n := 0
	for _, p := range photos {
		n += len(p.jobs)
	}
	fmt.Printf("%d photos, %d variants; decode %.2f s CPU, to RGBA %.2f s\n", len(photos), n, decodeCPU.Seconds(), convCPU.Seconds())
	lanczos := &xdraw.Kernel{Support: 3, At: func(t float64) float64 {
		if t == 0 {
			return 1
		}
		if t >= 3 {
			return 0
		}
		return 3 * math.Sin(math.Pi*t) * math.Sin(math.Pi*t/3) / (math.Pi * math.Pi * t * t)
	}}
	ref := make(map[*photo][]*image.RGBA)
	cur := make(map[*photo][]*image.RGBA)
	for _, p := range photos {
		ref[p] = kernelEach(lanczos, false)(p)
		cur[p] = kernelEach(xdraw.CatmullRom, false)(p)
	}
	methods := []method{
		{"x/image/draw CatmullRom from YCbCr (now)", kernelEach(xdraw.CatmullRom, false)},
		{"x/image/draw CatmullRom from RGBA", kernelEach(xdraw.CatmullRom, true)},
		{"gohugoio/gift Cubic from RGBA", giftEach},
		{"resample int, each from source", intDirect},
		{"images.Resize: resample, each from the wider", stage},
	}
	fmt.Printf("%-46s %8s  %-23s %-23s\n", "method", "CPU s", "SSIM vs Lanczos3 mean/min", "SSIM vs now mean/min")
	best := make([]time.Duration, len(methods))
	outs := make([]map[*photo][]*image.RGBA, len(methods))
	for round := 0; round < *rounds; round++ {
		for i, m := range methods {
			runtime.GC()
			c0 := cpu()
			o := map[*photo][]*image.RGBA{}
			for _, p := range photos {
				o[p] = m.run(p)
			}
			if el := cpu() - c0; round == 0 || el < best[i] {
				best[i] = el
			}
			outs[i] = o
		}
	}
	for i, m := range methods {
		var sr, sc, mr, mc float64 = 0, 0, 1, 1
		for _, p := range photos {
			for j, o := range outs[i][p] {
				a, b := ssim.Mean(ref[p][j], o), ssim.Mean(cur[p][j], o)
				sr += a
				sc += b
				mr, mc = min(mr, a), min(mc, b)
			}
		}
		fmt.Printf("%-46s %8.2f  %.5f / %.5f       %.5f / %.5f\n", m.name, best[i].Seconds(), sr/float64(n), mr, sc/float64(n), mc)
	}
}
