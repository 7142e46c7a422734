// Command bench times AVIF encoder wasm modules (gen2brain/avif-style encode.wasm) under wazero,
// the way the project's pkg/images/avifwasm.go calls them (4:2:0, one instance reused).
package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"flag"
	"fmt"
	"image"
	_ "image/jpeg"
	"image/png"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"
	"unsafe"

	"github.com/gen2brain/avif"
	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
	"github.com/tetratelabs/wazero/imports/wasi_snapshot_preview1"
	"golang.org/x/image/draw"
)

// cpu is the CPU time of the calling OS thread (CLOCK_THREAD_CPUTIME_ID); main locks its goroutine
// to its thread, and wazero runs the wasm on the calling goroutine, so GC on other threads is excluded.
func cpu() time.Duration {
	var ts syscall.Timespec
	syscall.Syscall(syscall.SYS_CLOCK_GETTIME, 3 /* CLOCK_THREAD_CPUTIME_ID */, uintptr(unsafe.Pointer(&ts)), 0)
	return time.Duration(ts.Nano())
}

type img struct {
	name string
	m    *image.RGBA
}

type mod struct {
	name, path string
	rt         wazero.Runtime
	cm         wazero.CompiledModule
	compWall   time.Duration
	compCPU    time.Duration
	encCPU     []time.Duration // per run
	encWall    []time.Duration
	sizes      map[string]int
	hashes     map[string][32]byte
}

type inst struct {
	mod                  api.Module
	malloc, free, encode api.Function
}

func (in *inst) run(ctx context.Context, m *image.RGBA, quality, speed int) ([]byte, error) {
	mem := in.mod.Memory()
	alloc := func(n int) (uint64, error) {
		res, err := in.malloc.Call(ctx, uint64(n))
		if err != nil || res[0] == 0 {
			return 0, fmt.Errorf("out of memory for %d bytes (%v)", n, err)
		}
		return res[0], nil
	}
	pix, err := alloc(len(m.Pix))
	if err != nil {
		return nil, err
	}
	defer in.free.Call(ctx, pix)
	if !mem.Write(uint32(pix), m.Pix) {
		return nil, errors.New("writing the pixels")
	}
	sizePtr, err := alloc(8)
	if err != nil {
		return nil, err
	}
	defer in.free.Call(ctx, sizePtr)
	res, err := in.encode.Call(ctx, pix, uint64(m.Rect.Dx()), uint64(m.Rect.Dy()), sizePtr,
		uint64(quality), uint64(quality), uint64(speed), 3 /* AVIF_PIXEL_FORMAT_YUV420 */)
	if err != nil {
		return nil, err
	}
	size, ok := mem.ReadUint64Le(uint32(sizePtr))
	if !ok || size == 0 || res[0] == 0 {
		return nil, errors.New("libavif failed")
	}
	defer in.free.Call(ctx, res[0])
	out, ok := mem.Read(uint32(res[0]), uint32(size))
	if !ok {
		return nil, errors.New("reading the result")
	}
	return bytes.Clone(out), nil
}

func median(d []time.Duration) time.Duration {
	s := append([]time.Duration(nil), d...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s[len(s)/2]
}

func main() {
	imgDir := flag.String("images", "../../../assets/images/photos", "folder of JPEG/PNG photos (default: the website's, from this folder)")
	widths := flag.String("widths", "1300,650,325", "widths to resize to")
	quals := flag.String("q", "54", "qualities, comma-separated")
	speed := flag.Int("speed", 9, "speed")
	runs := flag.Int("runs", 3, "runs per module (interleaved)")
	pngOut := flag.String("png", "", "write the resized images as PNG into this folder")
	byModule := flag.Bool("bymodule", true, "interleave by run and module (false: by image, every module in turn)")
	flag.Parse()
	runtime.LockOSThread()
	ctx := context.Background()

	// images
	var ims []img
	files, _ := filepath.Glob(filepath.Join(*imgDir, "*"))
	for _, f := range files {
		ext := strings.ToLower(filepath.Ext(f))
		if ext != ".jpg" && ext != ".jpeg" && ext != ".png" {
			continue
		}
		fh, err := os.Open(f)
		if err != nil {
			panic(err)
		}
		src, _, err := image.Decode(fh)
		fh.Close()
		if err != nil {
			panic(err)
		}
		for _, ws := range strings.Split(*widths, ",") {
			w, _ := strconv.Atoi(ws)
			b := src.Bounds()
			h := (b.Dy()*w + b.Dx()/2) / b.Dx()
			dst := image.NewRGBA(image.Rect(0, 0, w, h))
			draw.CatmullRom.Scale(dst, dst.Rect, src, b, draw.Src, nil)
			name := fmt.Sprintf("%s-%d", strings.TrimSuffix(filepath.Base(f), filepath.Ext(f)), w)
			ims = append(ims, img{name, dst})
			if *pngOut != "" {
				os.MkdirAll(*pngOut, 0o755)
				o, _ := os.Create(filepath.Join(*pngOut, name+".png"))
				png.Encode(o, dst)
				o.Close()
			}
		}
	}
	var qs []int
	for _, q := range strings.Split(*quals, ",") {
		n, _ := strconv.Atoi(q)
		qs = append(qs, n)
	}
	if *runs == 0 {
		return
	}
	fmt.Printf("%d images x %d qualities %v, speed %d, %d runs\n", len(ims), len(qs), qs, *speed, *runs)

	// modules: name=path args
	var mods []*mod
	for _, a := range flag.Args() {
		name, path, _ := strings.Cut(a, "=")
		wasm, err := os.ReadFile(path)
		if err != nil {
			panic(err)
		}
		m := &mod{name: name, path: path, sizes: map[string]int{}, hashes: map[string][32]byte{}}
		m.rt = wazero.NewRuntimeWithConfig(ctx, wazero.NewRuntimeConfig()) // no compilation cache
		wasi_snapshot_preview1.MustInstantiate(ctx, m.rt)
		c0, t0 := cpu(), time.Now()
		m.cm, err = m.rt.CompileModule(ctx, wasm)
		m.compWall, m.compCPU = time.Since(t0), cpu()-c0
		if err != nil {
			panic(fmt.Sprintf("%s: %v", name, err))
		}
		fmt.Printf("compiled %-8s %8d bytes wasm  wall %6.2fs  cpu %6.2fs\n", name, len(wasm), m.compWall.Seconds(), m.compCPU.Seconds())
		mods = append(mods, m)
	}

	// Interleaved at the finest grain: for every image, every module encodes it in turn (one instance
	// per module per run, reused for all the images of that run), so bursts of noise on this shared
	// machine hit all the modules alike. Per encode: thread CPU is not available from Go, so process
	// CPU (user+sys, includes GC) around the call.
	firstOut := map[string][]byte{}
	minCPU := map[*mod]map[string]time.Duration{}
	for _, m := range mods {
		minCPU[m] = map[string]time.Duration{}
	}
	for r := 0; r < *runs; r++ {
		ins := map[*mod]*inst{}
		for _, m := range mods {
			mi, err := m.rt.InstantiateModule(ctx, m.cm, wazero.NewModuleConfig().WithName(""))
			if err != nil {
				panic(err)
			}
			ins[m] = &inst{mi, mi.ExportedFunction("malloc"), mi.ExportedFunction("free"), mi.ExportedFunction("encode")}
		}
		runCPU := map[*mod]time.Duration{}
		runWall := map[*mod]time.Duration{}
		type task struct {
			m  *mod
			q  int
			im img
		}
		var tasks []task
		if *byModule {
			for _, m := range mods {
				for _, q := range qs {
					for _, im := range ims {
						tasks = append(tasks, task{m, q, im})
					}
				}
			}
		} else {
			for _, q := range qs {
				for _, im := range ims {
					for _, m := range mods {
						tasks = append(tasks, task{m, q, im})
					}
				}
			}
		}
		{
			{
				for _, t := range tasks {
					m, q, im := t.m, t.q, t.im
					k := fmt.Sprintf("%s-q%d", im.name, q)
					c0, t0 := cpu(), time.Now()
					b, err := ins[m].run(ctx, im.m, q, *speed)
					wall, c := time.Since(t0), cpu()-c0
					if err != nil {
						panic(fmt.Sprintf("%s %s: %v", m.name, k, err))
					}
					runCPU[m] += c
					runWall[m] += wall
					if old, ok := minCPU[m][k]; !ok || c < old {
						minCPU[m][k] = c
					}
					h := sha256.Sum256(b)
					if old, ok := m.hashes[k]; ok && old != h {
						fmt.Printf("  NOTE %s %s: output differs between runs\n", m.name, k)
					}
					m.hashes[k] = h
					m.sizes[k] = len(b)
					if r == 0 {
						firstOut[m.name+"/"+k] = b
					}
					if false {
						if len(b) < 12 || string(b[4:8]) != "ftyp" {
							fmt.Printf("  BAD %s %s: no ftyp box\n", m.name, k)
						} else if dm, err := avif.Decode(bytes.NewReader(b)); err != nil {
							fmt.Printf("  BAD %s %s: decode: %v\n", m.name, k, err)
						} else if dm.Bounds().Dx() != im.m.Rect.Dx() || dm.Bounds().Dy() != im.m.Rect.Dy() {
							fmt.Printf("  BAD %s %s: decoded size %v\n", m.name, k, dm.Bounds())
						}
					}
				}
			}
		}
		for _, m := range mods {
			m.encCPU = append(m.encCPU, runCPU[m])
			m.encWall = append(m.encWall, runWall[m])
			fmt.Printf("run %d %-8s encode wall %6.2fs cpu %6.2fs  (memory %d MB)\n", r, m.name, runWall[m].Seconds(), runCPU[m].Seconds(), ins[m].mod.Memory().Size()>>20)
			ins[m].mod.Close(ctx)
		}
	}
	bad := 0
	for k, b := range firstOut {
		if len(b) < 12 || string(b[4:8]) != "ftyp" {
			fmt.Printf("  BAD %s: no ftyp box\n", k)
			bad++
		} else if _, err := avif.Decode(bytes.NewReader(b)); err != nil {
			fmt.Printf("  BAD %s: decode: %v\n", k, err)
			bad++
		}
	}
	fmt.Printf("decode check (gen2brain/avif Decode): %d outputs, %d bad\n", len(firstOut), bad)
	fmt.Println("\nsum over images of the per-image minimum CPU across runs (robust to noise):")
	for _, m := range mods {
		var t, t0 time.Duration
		for k, c := range minCPU[m] {
			t += c
			t0 += minCPU[mods[0]][k]
		}
		fmt.Printf("  %-8s %6.2fs  speedup vs %s %.2fx\n", m.name, t.Seconds(), mods[0].name, t0.Seconds()/t.Seconds())
	}

	fmt.Println()
	fmt.Printf("%-8s %10s %10s %12s %12s %10s %9s %s\n", "module", "compile_s", "compCPU_s", "encCPU_med", "encWall_med", "bytes", "speedup", "identical-outputs-vs-2nd-module")
	base := median(mods[0].encCPU)
	for _, m := range mods {
		tot := 0
		for _, s := range m.sizes {
			tot += s
		}
		same := 0
		for k, h := range m.hashes {
			if mods[min(1, len(mods)-1)].hashes[k] == h {
				same++
			}
		}
		fmt.Printf("%-8s %10.2f %10.2f %12.2f %12.2f %10d %8.2fx %d/%d\n", m.name, m.compWall.Seconds(), m.compCPU.Seconds(),
			median(m.encCPU).Seconds(), median(m.encWall).Seconds(), tot, base.Seconds()/median(m.encCPU).Seconds(), same, len(m.hashes))
	}
	fmt.Printf("(speedup = median encode CPU of %s / of the module; CPU = CPU time of the encoding OS thread, CLOCK_THREAD_CPUTIME_ID)\n", mods[0].name)
	fmt.Println("\nper-image bytes:")
	keys := []string{}
	for k := range mods[0].sizes {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		fmt.Printf("%-24s", k)
		for _, m := range mods {
			fmt.Printf(" %s=%d", m.name, m.sizes[k])
		}
		fmt.Println()
	}
}
