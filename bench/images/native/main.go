// Command native compares sitegen's AVIF encoder with the native avifenc
// (libavif + aom, where installed) on the AVIF variants a site's build
// makes: the same pixels (the resized, cropped images sitegen encodes,
// written as PNG for avifenc), CPU seconds (user + system, of this process
// and of the encoder processes, process starts included), bytes, and SSIM
// against those pixels (package ssim; the AVIFs decoded by gen2brain/avif).
//
// avifenc's quantizer is swept (-minmax) and the smallest output whose mean
// SSIM is at least sitegen's is the match: the comparison is at equal
// quality, not equal settings. Encodes run one at a time on both sides
// (avifenc -j 1), so CPU is comparable on a shared machine.
//
//	go run -tags=nodynamic ./bench/images/native [-site .] [-speeds 8] [-q 50] [-minmax 20,24,28,32,36]
//
// With -stage N it then runs N rounds of sitegen's whole image stage
// (package stage: decoding, resizing, the AVIF and JPEG encodes of every
// variant, as a cold build pays them) against avifenc's encodes at the
// matched quantizer, interleaved, and prints the ratio of each round.
//
// bench/images/native.sh runs it with the sweeps the README's table used.
package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"flag"
	"fmt"
	"image"
	"image/draw"
	"image/png"
	"io"
	"log"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/gen2brain/avif"

	"sitegen/bench/images/internal/stage"
	"sitegen/internal/ssim"
	"sitegen/pkg/build"
	"sitegen/pkg/images"
)

func main() {
	site := flag.String("site", ".", "site root")
	speeds := flag.String("speeds", "8", "sitegen AVIF speeds to try, comma-separated")
	quals := flag.String("q", "", "sitegen AVIF qualities to try, comma-separated (default: the pages' own)")
	minmax := flag.String("minmax", "20,24,26,28,30,32,36", "avifenc quantizers (--min = --max) to try")
	aspeed := flag.Int("avifenc-speed", 8, "avifenc -s")
	tmp := flag.String("tmp", os.TempDir(), "scratch folder")
	rounds := flag.Int("stage", 0, "then this many rounds of the whole image stage (bench/images/internal/stage) against avifenc at the matched quantizer, interleaved")
	flag.Parse()
	if err := run(*site, *tmp, ints(*speeds), ints(*quals), ints(*minmax), *aspeed, *rounds); err != nil {
		log.Fatal(err)
	}
}

func ints(s string) []int {
	var out []int
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f == "" {
			continue
		}
		n, err := strconv.Atoi(f)
		if err != nil {
			log.Fatalf("%q is not a number", f)
		}
		out = append(out, n)
	}
	return out
}

// shot is one AVIF variant's pixels, as sitegen's encoder receives them.
type shot struct {
	m *image.RGBA
	q int
}

// capture is an AVIF "encoder" that keeps the pixels it is given.
type capture struct {
	mu    sync.Mutex
	shots []shot
}

type captureEnc struct{ c *capture }

func (captureEnc) Format() string { return "avif" }
func (captureEnc) ID() string     { return "bench/capture" }
func (e captureEnc) Encode(w io.Writer, m image.Image, q int) error {
	rgba := image.NewRGBA(image.Rect(0, 0, m.Bounds().Dx(), m.Bounds().Dy()))
	draw.Draw(rgba, rgba.Rect, m, m.Bounds().Min, draw.Src)
	e.c.mu.Lock()
	e.c.shots = append(e.c.shots, shot{rgba, q})
	e.c.mu.Unlock()
	_, err := w.Write([]byte{0})
	return err
}

func run(root, tmp string, speeds, quals, minmax []int, aspeed, rounds int) error {
	ctx := context.Background()
	dir, err := os.MkdirTemp(tmp, "sitegen-native-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	shots, err := collect(ctx, root, dir)
	if err != nil {
		return err
	}
	px := 0
	for _, s := range shots {
		px += s.m.Rect.Dx() * s.m.Rect.Dy()
	}
	fmt.Printf("%s: %d AVIF variants, %.1f megapixels (%s)\n", root, len(shots), float64(px)/1e6, time.Now().UTC().Format(time.RFC3339))
	fmt.Printf("%-34s %8s %10s %8s %8s\n", "encoder", "CPU s", "bytes", "SSIM", "CbCr")

	for _, how := range []string{"process start, compiling", "process start, compiled before"} {
		start, err := startupCPU()
		if err != nil {
			return err
		}
		fmt.Printf("%-34s %8.2f %10s %8s %8s\n", "sitegen: "+how, start.Seconds(), "-", "-", "-")
	}
	var base float64
	for i, sp := range speeds {
		qs := quals
		if len(qs) == 0 {
			qs = []int{0}
		}
		for j, q := range qs {
			r, err := sitegen(shots, sp, q)
			if err != nil {
				return err
			}
			if i == 0 && j == 0 {
				base = r.ssim
			}
			qn := "pages'"
			if q != 0 {
				qn = strconv.Itoa(q)
			}
			if id := images.NewAVIF(sp, nil).ID(); strings.Contains(id, "/q+") {
				qn += " (" + id[strings.LastIndex(id, "/")+1:] + ")" // the encoder's lift
			}
			fmt.Printf("%-34s %8.2f %10d %8.4f %8.4f\n", fmt.Sprintf("sitegen wasm speed %d q %s", sp, qn), r.cpu.Seconds(), r.bytes, r.ssim, r.chroma)
		}
	}
	bin, err := exec.LookPath("avifenc")
	if err != nil {
		fmt.Println("avifenc: not installed (apt-get install libavif-bin), no native comparison")
		return nil
	}
	ver, _ := exec.Command(bin, "--version").Output()
	fmt.Printf("native: %s\n", strings.SplitN(strings.TrimSpace(string(ver)), "\n", 2)[0])
	var match *result
	var matchQ int
	for _, q := range minmax {
		r, err := native(bin, dir, shots, q, aspeed)
		if err != nil {
			return err
		}
		fmt.Printf("%-34s %8.2f %10d %8.4f %8.4f\n", fmt.Sprintf("avifenc -s %d -j 1 --min %d --max %d", aspeed, q, q), r.cpu.Seconds(), r.bytes, r.ssim, r.chroma)
		if r.ssim >= base && (match == nil || r.bytes < match.bytes) {
			rr := r
			match, matchQ = &rr, q
		}
	}
	if match == nil {
		fmt.Printf("no avifenc quantizer tried reached SSIM %.4f\n", base)
		return nil
	}
	fmt.Printf("matched SSIM (>= %.4f): avifenc quantizer %d, %.2f s CPU, %d bytes\n", base, matchQ, match.cpu.Seconds(), match.bytes)
	return stages(ctx, root, dir, bin, shots, matchQ, aspeed, rounds)
}

// stages runs rounds of sitegen's whole image stage of a cold build (its
// Run, every variant decoded, resized and encoded, and the checks'
// decoding; the AVIF module compiled before) and of avifenc's encodes of
// the AVIF variants at quantizer q, one after the other, and prints each
// round's ratio and their median: the two sides see the same load.
func stages(ctx context.Context, root, dir, bin string, shots []shot, q, aspeed, rounds int) error {
	if rounds <= 0 {
		return nil
	}
	fmt.Printf("%-5s %12s %10s %12s %10s %8s\n", "round", "sitegen s", "of it AVIF", "avifenc s", "variants", "ratio")
	var ratios []float64
	for r := 1; r <= rounds; r++ {
		cache, err := os.MkdirTemp(dir, "stage-cache-")
		if err != nil {
			return err
		}
		st, err := stage.Measure(ctx, root, cache, 0)
		os.RemoveAll(cache)
		if err != nil {
			return err
		}
		nat, err := native(bin, dir, shots, q, aspeed)
		if err != nil {
			return err
		}
		ratio := st.Total().Seconds() / nat.cpu.Seconds()
		ratios = append(ratios, ratio)
		fmt.Printf("%-5d %12.2f %10.2f %12.2f %10d %7.2fx\n", r, st.Total().Seconds(), st.Cold.Encoder.Seconds(), nat.cpu.Seconds(), st.Cold.Files, ratio)
	}
	sort.Float64s(ratios)
	fmt.Printf("whole stage against avifenc's encodes: median %.2fx, range %.2f-%.2fx (%d rounds)\n", ratios[len(ratios)/2], ratios[0], ratios[len(ratios)-1], rounds)
	return nil
}

// collect builds the site's pictures with the capture encoder and writes
// each variant's pixels as dir/N.png, sorted by size and content.
func collect(ctx context.Context, root, dir string) ([]shot, error) {
	c := &capture{}
	enc := images.Encoders{Modern: []images.Encoder{captureEnc{c}}, JPEG: images.JPEG{}, PNG: images.PNG{}}
	site, err := build.Load(ctx, build.Options{Source: root, ImageCache: filepath.Join(dir, "cache"), ImageEncoders: &enc, NoSiteImages: true, Date: "2026-01-01"})
	if err != nil {
		return nil, err
	}
	defer site.Close()
	var urls []string
	for _, e := range site.Entries() { // the root page first
		urls = append(urls, e.URL)
	}
	for _, u := range urls {
		if _, _, err := site.RenderURL(ctx, u); err != nil {
			return nil, fmt.Errorf("rendering %s: %w", u, err)
		}
	}
	if _, err := site.Images.Run(ctx, 0); err != nil {
		return nil, err
	}
	shots := c.shots
	key := func(s shot) string {
		sum := sha256.Sum256(s.m.Pix)
		return fmt.Sprintf("%06d %06d %x", s.m.Rect.Dx(), s.m.Rect.Dy(), sum)
	}
	sort.Slice(shots, func(i, j int) bool { return key(shots[i]) < key(shots[j]) })
	for i, s := range shots {
		var b bytes.Buffer
		if err := png.Encode(&b, s.m); err != nil {
			return nil, err
		}
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("%d.png", i)), b.Bytes(), 0o644); err != nil {
			return nil, err
		}
	}
	return shots, nil
}

type result struct {
	cpu          time.Duration
	bytes        int
	ssim, chroma float64
}

// cpu is this process's CPU time and that of its children waited for.
func cpu() time.Duration {
	var self, kids syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &self)
	syscall.Getrusage(syscall.RUSAGE_CHILDREN, &kids)
	return time.Duration(self.Utime.Nano() + self.Stime.Nano() + kids.Utime.Nano() + kids.Stime.Nano())
}

// startupCPU is the CPU of starting sitegen's encoder process and one
// 16×16 encode: the process, and the module's compilation, or reading it
// from wazero's compilation cache (the user cache folder: native.sh runs
// this with an empty one, so the first start compiles).
func startupCPU() (time.Duration, error) {
	enc := images.NewAVIF(8, nil)
	release := enc.Hold()
	c0 := cpu()
	err := enc.Encode(new(bytes.Buffer), image.NewRGBA(image.Rect(0, 0, 16, 16)), 50)
	release()
	return cpu() - c0, err
}

// sitegen encodes every shot with the AVIF encoder a build uses, one at a
// time, in one encoder process (as a build keeps it).
func sitegen(shots []shot, speed, q int) (result, error) {
	enc := images.NewAVIF(speed, nil)
	release := enc.Hold()
	outs := make([][]byte, len(shots))
	c0 := cpu()
	for i, s := range shots {
		qq := q
		if qq == 0 {
			qq = s.q
		}
		var b bytes.Buffer
		if err := enc.Encode(&b, s.m, qq); err != nil {
			release()
			return result{}, err
		}
		outs[i] = b.Bytes()
	}
	release() // the process ends and is waited for: its CPU is counted
	r := result{cpu: cpu() - c0}
	return r, score(&r, shots, outs)
}

// native encodes every shot's PNG with avifenc at quantizer q.
func native(bin, dir string, shots []shot, q, speed int) (result, error) {
	c0 := cpu()
	for i := range shots {
		in, out := filepath.Join(dir, fmt.Sprintf("%d.png", i)), filepath.Join(dir, fmt.Sprintf("%d.avif", i))
		cmd := exec.Command(bin, "-j", "1", "-s", strconv.Itoa(speed), "-y", "420", "--min", strconv.Itoa(q), "--max", strconv.Itoa(q), in, out)
		if b, err := cmd.CombinedOutput(); err != nil {
			return result{}, fmt.Errorf("%s: %v: %s", cmd, err, b)
		}
	}
	r := result{cpu: cpu() - c0}
	outs := make([][]byte, len(shots))
	for i := range shots {
		b, err := os.ReadFile(filepath.Join(dir, fmt.Sprintf("%d.avif", i)))
		if err != nil {
			return r, err
		}
		outs[i] = b
	}
	return r, score(&r, shots, outs)
}

// score adds up the bytes and the mean SSIM of the decoded outs.
func score(r *result, shots []shot, outs [][]byte) error {
	var sum, sumc float64
	n := 0
	for i, b := range outs {
		r.bytes += len(b)
		m, err := avif.Decode(bytes.NewReader(b))
		if err != nil {
			return fmt.Errorf("decoding variant %d: %w", i, err)
		}
		if s := ssim.Mean(shots[i].m, m); !math.IsNaN(s) {
			sum += s
			sumc += ssim.Chroma(shots[i].m, m)
			n++
		}
	}
	r.ssim, r.chroma = sum/float64(max(n, 1)), sumc/float64(max(n, 1))
	return nil
}
