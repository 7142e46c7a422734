package images

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"image"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"sync"
	_ "unsafe" // go:linkname

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
	"github.com/tetratelabs/wazero/imports/wasi_snapshot_preview1"

	_ "github.com/gen2brain/avif" // the encoder's WebAssembly
)

// avifEncodeWasm is gen2brain/avif's encoder: libavif and aom compiled to
// WebAssembly (lib/encode.wasm.gz of the version in go.mod), run by
// wazero. avif.Encode makes a new instance of it for every encode, whose
// memory grows to 120 MB for a 1300 px photo: a cold build of the website
// allocated 3.4 GB so, 0.6 GB with an instance kept between encodes, and
// collected half as often. A collection waits for the encodes under way
// (Go cannot preempt WebAssembly), and so did Ctrl+C when it came during
// one (bench/interrupt/README.md): the encodes run in their own process
// (avifproc.go, avifserve.go). The bytes are the library's
// (TestAVIFMatchesLibrary).
//
//go:linkname avifEncodeWasm github.com/gen2brain/avif.encodeWasm
var avifEncodeWasm []byte

// avifPixelFormatYuv420 is libavif's AVIF_PIXEL_FORMAT_YUV420.
const avifPixelFormatYuv420 = 3

// avifModule is the encoder compiled, once per process: 1.4-1.7 s of CPU
// with wazero's optimizing compiler (the interpreter compiles in 0.1 s but
// encodes many times slower), 0.04 s when the compiled code is read from
// the compilation cache (avifCompileCache). The compiled code is machine
// code for this CPU: it changes nothing in the encoder's output.
var avifModule = sync.OnceValues(func() (*avifCompiled, error) {
	ctx := context.Background()
	zr, err := gzip.NewReader(bytes.NewReader(avifEncodeWasm))
	if err != nil {
		return nil, fmt.Errorf("avif encoder: %w", err)
	}
	var wasm bytes.Buffer
	if _, err := wasm.ReadFrom(zr); err != nil {
		return nil, fmt.Errorf("avif encoder: %w", err)
	}
	return compileAVIF(ctx, avifCompileCache(), wasm.Bytes())
})

// avifCompileCache is the folder of wazero's compilation cache:
// sitegen/wasm/wazero-VERSION in the user's cache folder (os.UserCacheDir),
// or "" (none) when there is no such folder or the program does not know
// its wazero's version (a test binary: wazero would then file its entries
// under "dev" for every version). Entries are keyed by the module's hash
// and the CPU's features and written through a rename; a new wazero or
// encoder adds a folder or an entry of about 8 MB beside the old ones.
func avifCompileCache() string {
	d, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return ""
	}
	for _, dep := range info.Deps {
		if dep.Path == "github.com/tetratelabs/wazero" && dep.Replace == nil && strings.HasPrefix(dep.Version, "v") {
			return filepath.Join(d, "sitegen", "wasm", "wazero-"+dep.Version)
		}
	}
	return ""
}

// compileAVIF compiles the module through the compilation cache in dir
// ("": none). A cache that cannot be used (a damaged entry, a folder that
// cannot be made) costs the compilation, never the build.
func compileAVIF(ctx context.Context, dir string, wasm []byte) (*avifCompiled, error) {
	if dir != "" {
		if cc, err := wazero.NewCompilationCacheWithDir(dir); err == nil {
			if c, err := compileWith(ctx, wazero.NewRuntimeConfig().WithCompilationCache(cc), wasm); err == nil {
				return c, nil
			}
		}
	}
	return compileWith(ctx, wazero.NewRuntimeConfig(), wasm)
}

func compileWith(ctx context.Context, cfg wazero.RuntimeConfig, wasm []byte) (*avifCompiled, error) {
	rt := wazero.NewRuntimeWithConfig(ctx, cfg)
	wasi_snapshot_preview1.MustInstantiate(ctx, rt)
	cm, err := rt.CompileModule(ctx, wasm)
	if err != nil {
		rt.Close(ctx)
		return nil, fmt.Errorf("avif encoder: %w", err)
	}
	return &avifCompiled{rt, cm}, nil
}

type avifCompiled struct {
	rt wazero.Runtime
	cm wazero.CompiledModule
}

// avifInstance is one instance of the encoder, for one encode at a time.
type avifInstance struct {
	mod                  api.Module
	malloc, free, encode api.Function
}

func newAVIFInstance(ctx context.Context) (*avifInstance, error) {
	c, err := avifModule()
	if err != nil {
		return nil, err
	}
	mod, err := c.rt.InstantiateModule(ctx, c.cm, wazero.NewModuleConfig().WithName(""))
	if err != nil {
		return nil, fmt.Errorf("avif encoder: %w", err)
	}
	return &avifInstance{mod, mod.ExportedFunction("malloc"), mod.ExportedFunction("free"), mod.ExportedFunction("encode")}, nil
}

// run encodes m as gen2brain/avif's Encode does with 4:2:0 chroma.
func (in *avifInstance) run(ctx context.Context, m *image.RGBA, quality, speed int) ([]byte, error) {
	mem := in.mod.Memory()
	alloc := func(n int) (uint64, error) {
		res, err := in.malloc.Call(ctx, uint64(n))
		if err != nil || res[0] == 0 {
			return 0, fmt.Errorf("avif encoder: out of memory for %d bytes (%v)", n, err)
		}
		return res[0], nil
	}
	// The pixels are the encoder's once encode is called: its C side
	// (gen2brain/avif's lib/encode.c) hands them to libavif as the RGB
	// image's and frees them with it (avifRGBImageFreePixels), so they
	// are freed here only when encode is not called. Freeing them again
	// after it, as avif.Encode does in an instance it then drops, freed a
	// chunk of a kept instance's heap twice. An instance whose encode
	// failed is closed (avifInstances.encode): what it holds goes with it.
	pix, err := alloc(len(m.Pix))
	if err != nil {
		return nil, err
	}
	if !mem.Write(uint32(pix), m.Pix) {
		in.free.Call(ctx, pix)
		return nil, errors.New("avif encoder: writing the pixels")
	}
	sizePtr, err := alloc(8)
	if err != nil {
		in.free.Call(ctx, pix)
		return nil, err
	}
	defer in.free.Call(ctx, sizePtr)
	res, err := in.encode.Call(ctx, pix, uint64(m.Rect.Dx()), uint64(m.Rect.Dy()), sizePtr,
		uint64(quality), uint64(quality), uint64(speed), avifPixelFormatYuv420)
	if err != nil {
		return nil, fmt.Errorf("avif encoder: %w", err)
	}
	size, ok := mem.ReadUint64Le(uint32(sizePtr))
	if !ok || size == 0 || res[0] == 0 {
		return nil, errors.New("avif encoder: libavif failed")
	}
	defer in.free.Call(ctx, res[0])
	out, ok := mem.Read(uint32(res[0]), uint32(size))
	if !ok {
		return nil, errors.New("avif encoder: reading the result")
	}
	return bytes.Clone(out), nil
}

// avifInstances keeps the instances between encodes, as many as encoded
// at once, until release, each while its memory is at most maxMemory
// bytes (0: avifInstanceMemory).
type avifInstances struct {
	mu        sync.Mutex
	idle      []*avifInstance
	maxMemory uint32
}

// avifInstanceMemory bounds the memory of an instance kept for the next
// encode. A WebAssembly memory only grows, and lib/encode.c leaks the RGB
// buffer it allocates before it takes the caller's (4 bytes a pixel: 4.5
// MB for a 1300 × 867 variant), so an instance kept for every encode of a
// build grew without end: about 6 MB for each photo of a site (its four
// widths), gigabytes for a blog's photos, where a wasm32 memory ends at
// 4 GB. An instance past the bound is closed after its encode and a new
// one made from the compiled module when needed (0.75 ms), which gives
// its memory back: a page of 120 photos (the website's 8 saved at 15 JPEG
// qualities; 480 AVIF encodes) took the encoder process to 1,960 MB and
// growing, 1,269 MB with a bound of 256 MB, 660 MB with this one, for the
// same CPU (79 s);
// one encode of a 1300 × 867 photo takes an instance to about 35 MB
// (TestAVIFInstanceMemory).
const avifInstanceMemory = 128 << 20

// encode encodes m (Stride 4×width) with an idle instance, or a new one.
// An instance whose encode failed is closed, not kept.
func (p *avifInstances) encode(m *image.RGBA, quality, speed int) ([]byte, error) {
	ctx := context.Background()
	in := p.take()
	if in == nil {
		var err error
		if in, err = newAVIFInstance(ctx); err != nil {
			return nil, err
		}
	}
	b, err := in.run(ctx, m, quality, speed)
	if err != nil {
		in.mod.Close(ctx)
		return b, err
	}
	limit := p.maxMemory
	if limit == 0 {
		limit = avifInstanceMemory
	}
	if in.mod.Memory().Size() > limit {
		in.mod.Close(ctx)
		return b, nil
	}
	p.mu.Lock()
	p.idle = append(p.idle, in)
	p.mu.Unlock()
	return b, nil
}

func (p *avifInstances) take() *avifInstance {
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.idle) == 0 {
		return nil
	}
	in := p.idle[len(p.idle)-1]
	p.idle = p.idle[:len(p.idle)-1]
	return in
}

// release closes the idle instances, giving back their memory.
func (p *avifInstances) release() {
	p.mu.Lock()
	idle := p.idle
	p.idle = nil
	p.mu.Unlock()
	for _, in := range idle {
		in.mod.Close(context.Background())
	}
}
