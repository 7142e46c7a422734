// Command native compares sitegen's AVIF encoders, the portable one
// (libavif/aom in WebAssembly) and the native choice (site.yaml's
// images.avif: native: the machine's avifenc, images.NativeAVIF), with the
// native avifenc run by hand (libavif + aom, where installed) on the AVIF
// variants a site's build makes: the same pixels (the resized, cropped
// images sitegen encodes, written as PNG for avifenc), CPU seconds (user +
// system, of this process and of the encoder processes, process starts
// included), bytes, and SSIM against those pixels (package ssim; the AVIFs
// decoded by gen2brain/avif).
//
// avifenc's quantizer is swept (-minmax) at each speed (-avifenc-speeds)
// and the smallest output whose mean SSIM is at least the portable
// encoder's is the match: the comparison is at equal quality, not equal
// settings. Encodes run one at a time on all sides (avifenc -j 1), so CPU
// is comparable on a shared machine.
//
//	go run -tags=nodynamic ./bench/images/native [-site .] [-speeds 8] [-q 50] [-minmax 20,24,28,32,36] [-avifenc-speeds 8,9]
//
// With -stage N it then runs N rounds of sitegen's whole image stage
// (package stage: decoding, resizing, the AVIF and JPEG encodes of every
// variant, as a cold build pays them), with the portable encoder and with
// the native choice, against avifenc's encodes at each match, interleaved,
// and prints the ratios of each round and their medians.
//
// bench/images/native.sh runs it with the sweeps the README's tables used.
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
	"maps"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
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
	aspeeds := flag.String("avifenc-speeds", "8,9", "avifenc -s to sweep, each matched apart")
	tmp := flag.String("tmp", os.TempDir(), "scratch folder")
	rounds := flag.Int("stage", 0, "then this many rounds of the whole image stage (bench/images/internal/stage) against avifenc at the matched quantizer, interleaved")
	flag.Parse()
	if err := run(*site, *tmp, ints(*speeds), ints(*quals), ints(*minmax), ints(*aspeeds), *rounds); err != nil {
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

func run(root, tmp string, speeds, quals, minmax, aspeeds []int, rounds int) error {
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
	bin, err := exec.LookPath("avifenc")
	var nat *images.NativeAVIF
	if err == nil {
		ver, _ := exec.Command(bin, "--version").Output()
		fmt.Printf("native: %s\n", strings.SplitN(strings.TrimSpace(string(ver)), "\n", 2)[0])
		if nat, err = images.NewNativeAVIF("bench"); err != nil {
			return err
		}
		fmt.Printf("sitegen native: %s\n", nat.ID())
	}
	qs := quals
	if len(qs) == 0 {
		qs = []int{0}
	}
	var base float64
	for j, q := range qs {
		qn := "pages'"
		if q != 0 {
			qn = strconv.Itoa(q)
		}
		var first result
		for i, sp := range speeds {
			r, err := sitegen(shots, sp, q)
			if err != nil {
				return err
			}
			if i == 0 {
				first = r
			}
			if i == 0 && j == 0 {
				base = r.ssim
			}
			lift := ""
			if id := images.NewAVIF(sp, nil).ID(); strings.Contains(id, "/q+") {
				lift = " (" + id[strings.LastIndex(id, "/")+1:] + ")" // the encoder's lift
			}
			fmt.Printf("%-34s %8.2f %10d %8.4f %8.4f\n", fmt.Sprintf("sitegen wasm speed %d q %s%s", sp, qn, lift), r.cpu.Seconds(), r.bytes, r.ssim, r.chroma)
		}
		if nat == nil {
			continue
		}
		nr, err := encodeAll(nat, shots, q)
		if err != nil {
			return err
		}
		fmt.Printf("%-34s %8.2f %10d %8.4f %8.4f\n", "sitegen native q "+qn, nr.cpu.Seconds(), nr.bytes, nr.ssim, nr.chroma)
		fmt.Printf("  %s\n", below(nr, first))
	}
	if nat == nil {
		fmt.Println("avifenc: not installed (apt-get install libavif-bin), no native comparison")
		return nil
	}
	var refs []ref
	for _, sp := range aspeeds {
		r, ok, err := sweep(bin, dir, shots, minmax, sp, base)
		if err != nil {
			return err
		}
		if ok {
			refs = append(refs, r)
		}
	}
	if len(refs) == 0 {
		return nil
	}
	return stages(ctx, root, dir, bin, shots, refs, rounds)
}

// ref is an avifenc speed and the quantizer that matched sitegen's SSIM.
type ref struct{ speed, q int }

// sweep encodes the shots with avifenc at speed and every quantizer of
// minmax, printing each, and returns the one of fewest bytes whose SSIM is
// at least base.
func sweep(bin, dir string, shots []shot, minmax []int, speed int, base float64) (ref, bool, error) {
	if len(minmax) == 0 {
		return ref{}, false, nil
	}
	var match *result
	var matchQ int
	for _, q := range minmax {
		r, err := avifenc(bin, dir, shots, q, speed)
		if err != nil {
			return ref{}, false, err
		}
		fmt.Printf("%-34s %8.2f %10d %8.4f %8.4f\n", fmt.Sprintf("avifenc -s %d -j 1 --min %d --max %d", speed, q, q), r.cpu.Seconds(), r.bytes, r.ssim, r.chroma)
		if r.ssim >= base && (match == nil || r.bytes < match.bytes) {
			rr := r
			match, matchQ = &rr, q
		}
	}
	if match == nil {
		fmt.Printf("avifenc -s %d: no quantizer tried reached SSIM %.4f\n", speed, base)
		return ref{}, false, nil
	}
	fmt.Printf("matched SSIM (>= %.4f): avifenc -s %d quantizer %d, %.2f s CPU, %d bytes\n", base, speed, matchQ, match.cpu.Seconds(), match.bytes)
	return ref{speed, matchQ}, true, nil
}

// stages runs rounds of sitegen's whole image stage of a cold build (its
// Run, every variant decoded, resized and encoded, and the checks'
// decoding; the AVIF module compiled before), with the portable AVIF
// encoder and with the native choice (site.yaml's images.avif: native,
// images.NativeEncoders), and of avifenc's encodes of the AVIF variants at
// each matched speed and quantizer, one after the other, and prints each
// round's ratios and their medians: all see the same load.
func stages(ctx context.Context, root, dir, bin string, shots []shot, refs []ref, rounds int) error {
	if rounds <= 0 {
		return nil
	}
	fmt.Printf("%-5s %8s %11s %8s %11s %8s", "round", "variants", "portable s", "of AVIF", "native s", "of AVIF")
	for _, r := range refs {
		fmt.Printf(" %8s %8s %8s", fmt.Sprintf("-s%d q%d", r.speed, r.q), "port/av", "nat/av")
	}
	fmt.Println(" load")
	ratios := map[string][]float64{}
	for round := 1; round <= rounds; round++ {
		port, err := measure(ctx, root, dir, nil)
		if err != nil {
			return err
		}
		enc, err := images.NativeEncoders("bench")
		if err != nil {
			return err
		}
		nat, err := measure(ctx, root, dir, &enc)
		if err != nil {
			return err
		}
		if nat.Cold.Bytes == port.Cold.Bytes {
			return fmt.Errorf("the native stage wrote the portable one's %d bytes: was the native encoder used?", nat.Cold.Bytes)
		}
		fmt.Printf("%-5d %8d %11.2f %8.2f %11.2f %8.2f", round, port.Cold.Files, port.Total().Seconds(), port.Cold.Encoder.Seconds(),
			nat.Total().Seconds(), nat.Cold.Encoder.Seconds())
		for _, r := range refs {
			av, err := avifenc(bin, dir, shots, r.q, r.speed)
			if err != nil {
				return err
			}
			pr, nr := port.Total().Seconds()/av.cpu.Seconds(), nat.Total().Seconds()/av.cpu.Seconds()
			k := fmt.Sprintf("avifenc -s %d q%d", r.speed, r.q)
			ratios["portable|"+k], ratios["native|"+k] = append(ratios["portable|"+k], pr), append(ratios["native|"+k], nr)
			fmt.Printf(" %8.2f %7.2fx %7.2fx", av.cpu.Seconds(), pr, nr)
		}
		fmt.Printf(" %s\n", loadavg())
		if round == 1 {
			fmt.Printf("      (bytes of all variants: portable %d, native %d)\n", port.Cold.Bytes, nat.Cold.Bytes)
		}
	}
	for _, k := range slices.Sorted(maps.Keys(ratios)) {
		rs := ratios[k]
		sort.Float64s(rs)
		enc, av, _ := strings.Cut(k, "|")
		fmt.Printf("whole stage, %s AVIF, against %s's encodes: median %.2fx, range %.2f-%.2fx (%d rounds)\n", enc, av, rs[len(rs)/2], rs[0], rs[len(rs)-1], rounds)
	}
	return nil
}

// measure is one stage (bench/images/internal/stage) with a new cache.
func measure(ctx context.Context, root, dir string, enc *images.Encoders) (stage.Round, error) {
	cache, err := os.MkdirTemp(dir, "stage-cache-")
	if err != nil {
		return stage.Round{}, err
	}
	defer os.RemoveAll(cache)
	return stage.Measure(ctx, root, cache, 0, enc)
}

// loadavg is the 1-minute load average, from /proc/loadavg ("?" without).
func loadavg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "?"
	}
	return strings.Fields(string(b))[0]
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
	// each variant's SSIM, luma and chroma (NaN for one too small)
	each [][2]float64
}

// below says how many of r's variants have a lower SSIM than base's, luma
// and chroma, and by how much at most.
func below(r, base result) string {
	var luma, chroma int
	var worst float64
	for i, e := range r.each {
		b := base.each[i]
		if e[0] < b[0] {
			luma, worst = luma+1, max(worst, b[0]-e[0])
		}
		if e[1] < b[1] {
			chroma, worst = chroma+1, max(worst, b[1]-e[1])
		}
	}
	return fmt.Sprintf("variants below the portable speed's SSIM: luma %d, chroma %d of %d, by at most %.4f", luma, chroma, len(r.each), worst)
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

// sitegen encodes every shot with the portable AVIF encoder a build uses,
// one at a time, in one encoder process (as a build keeps it).
func sitegen(shots []shot, speed, q int) (result, error) {
	enc := images.NewAVIF(speed, nil)
	release := enc.Hold()
	defer release()
	return encodeAll(enc, shots, q, release)
}

// encodeAll encodes every shot with enc at q (0: the shot's own quality),
// one at a time; the CPU counted ends after done (the portable encoder's
// process ended and waited for, so its CPU is counted).
func encodeAll(enc images.Encoder, shots []shot, q int, done ...func()) (result, error) {
	outs := make([][]byte, len(shots))
	c0 := cpu()
	for i, s := range shots {
		qq := q
		if qq == 0 {
			qq = s.q
		}
		var b bytes.Buffer
		if err := enc.Encode(&b, s.m, qq); err != nil {
			return result{}, err
		}
		outs[i] = b.Bytes()
	}
	for _, d := range done {
		d()
	}
	r := result{cpu: cpu() - c0}
	return r, score(&r, shots, outs)
}

// avifenc encodes every shot's PNG with avifenc at quantizer q.
func avifenc(bin, dir string, shots []shot, q, speed int) (result, error) {
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
		l, c := ssim.Mean(shots[i].m, m), ssim.Chroma(shots[i].m, m)
		r.each = append(r.each, [2]float64{l, c})
		if !math.IsNaN(l) {
			sum += l
			sumc += c
			n++
		}
	}
	r.ssim, r.chroma = sum/float64(max(n, 1)), sumc/float64(max(n, 1))
	return nil
}
