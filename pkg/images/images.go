// Package images turns source images (JPEG, PNG; SVG passes through) into
// the resized, re-encoded variants a <picture> element offers, with a
// content-addressed cache so that a rebuild encodes nothing.
//
// Rendering asks for pictures (Processor.Picture), which only reads image
// headers and names the variants; Processor.Run then makes every variant
// named, in parallel, from the cache where it can.
package images

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"image"
	_ "image/jpeg" // decoders
	_ "image/png"
	"io/fs"
	"math"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"sitegen/pkg/internal/ctxwait"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"sitegen/pkg/images/resample"
)

// DefaultWidths are RUNTIME.md's "maxWidth 650": 650 CSS pixels at 1x and 2x,
// and the halves and quarters below them.
var DefaultWidths = []int{163, 325, 650, 1300}

// DefaultQuality is the spec's "quality 50".
const DefaultQuality = 50

// DefaultSizes fits DefaultWidths.
const DefaultSizes = "(min-width: 650px) 650px, 100vw"

// URLPrefix is where variants are written in the output (fingerprinted, so
// they can be cached forever).
const URLPrefix = "/_assets/img/"

// Options of one picture.
type Options struct {
	Quality int     // 1-100; 0 means DefaultQuality
	Widths  []int   // nil means DefaultWidths; capped at the (cropped) source width
	Ratio   float64 // width/height of a fixed-ratio crop; 0 keeps the source's ratio
	// Focus is the point (0-1 across, 0-1 down) a crop keeps in view;
	// the zero value means the centre.
	FocusX, FocusY float64
}

// Variant is one encoded file of a picture.
type Variant struct {
	URL           string
	Width, Height int
}

// Source is one format of a picture with its widths, smallest first.
type Source struct {
	Type     string // MIME type
	Variants []Variant
}

// Srcset is the srcset attribute of s.
func (s Source) Srcset() string {
	parts := make([]string, len(s.Variants))
	for i, v := range s.Variants {
		parts[i] = v.URL + " " + strconv.Itoa(v.Width) + "w"
	}
	return strings.Join(parts, ", ")
}

// Default is the src of a browser that ignores srcset: the widest variant
// up to 650 px (the spec's maxWidth), or the narrowest.
func (s Source) Default() Variant {
	d := s.Variants[0]
	for _, v := range s.Variants {
		if v.Width <= 650 {
			d = v
		}
	}
	return d
}

// Largest is the widest variant.
func (s Source) Largest() Variant { return s.Variants[len(s.Variants)-1] }

// Picture is what a <picture> element needs.
type Picture struct {
	// Width and Height are the intrinsic size of the largest variant (the
	// width and height attributes; the ratio is what matters).
	Width, Height int
	Sources       []Source // modern formats, best first
	Fallback      Source   // JPEG or PNG, for the <img>
	// SVG is set for a vector source, which passes through at URL.
	SVG bool
	URL string
}

// Processor makes the variants of every picture asked for.
type Processor struct {
	fsys       fs.FS
	dirs       []string // where source paths are looked up, in order
	cacheDir   string   // "" disables the cache
	siteDir    string   // the site's own folder of variants (SiteFolder), or ""
	cacheErrMu sync.Mutex
	cacheErr   error // the first write into cacheDir that failed
	enc        Encoders
	// maxPixels bounds width × height of a source, read from its header.
	maxPixels int

	mu      sync.Mutex
	sources map[string]*source // by site path
	jobs    map[string]*job    // by output path
	held    int64              // bytes of the sources' decoded images kept

	processed, cached atomic.Int64
}

type source struct {
	file   string // path in fsys
	hash   string
	w, h   int
	format string // jpeg, png or svg
	data   []byte
	err    error
	jobs   []*job
	// check decodes the source once (checkDecodes); decodeErr is its error.
	check     sync.Once
	decodeErr error
	// decoded is the check's decoding, kept for Run while the processor
	// holds few enough (keepDecoded); decodedBytes is its size.
	decoded      image.Image
	decodedBytes int64
}

type job struct {
	// mu makes one encoding of the job at a time: Run's and a Variant's
	// asked for the same file meanwhile (the second takes the cache).
	mu   sync.Mutex
	src  *source
	out  string          // output path, without the leading slash
	key  string          // cache key
	crop image.Rectangle // the part of the source shown
	size image.Point     // width and height
	via  []image.Point   // the wider sizes it is made through, next wider first
	q    int
	enc  Encoder
}

// Config of a Processor.
type Config struct {
	FS       fs.FS
	Dirs     []string // folders of fsys source paths are looked up in, first match wins
	CacheDir string   // a folder outside the output; "" disables caching
	// SiteDir, when set, is the site's own folder of variants (the site's
	// SiteFolder), read before CacheDir and written with it, which Prune
	// empties of what the site no longer uses.
	SiteDir  string
	Encoders *Encoders
	// MaxPixels bounds width × height of a source image, checked from its
	// header before it is decoded; 0 means DefaultMaxPixels.
	MaxPixels int
}

// DefaultCacheDir is where variants are kept unless a caller says
// otherwise: sitegen/images in the user's cache folder (os.UserCacheDir),
// or in the temporary folder when there is none. Never inside a site:
// keys are content addresses, so sites can share it (a site keeps its own
// variants in its SiteFolder as well when it asks for it).
func DefaultCacheDir() string {
	if d, err := os.UserCacheDir(); err == nil {
		return filepath.Join(d, "sitegen", "images")
	}
	return filepath.Join(os.TempDir(), "sitegen-images")
}

// DefaultMaxPixels is 50 megapixels: decoding one takes 200 MB (RGBA).
const DefaultMaxPixels = 50_000_000

// New returns a Processor.
func New(c Config) *Processor {
	enc := DefaultEncoders()
	if c.Encoders != nil {
		enc = *c.Encoders
	}
	maxPixels := c.MaxPixels
	if maxPixels <= 0 {
		maxPixels = DefaultMaxPixels
	}
	for _, e := range enc.Modern {
		if l, ok := e.(interface{ limitPixels(int) }); ok {
			l.limitPixels(maxPixels)
		}
	}
	return &Processor{fsys: c.FS, dirs: c.Dirs, cacheDir: c.CacheDir, siteDir: c.SiteDir, enc: enc, maxPixels: maxPixels,
		sources: map[string]*source{}, jobs: map[string]*job{}}
}

// Exists reports whether p (a site path such as /photos/dune.jpg) names a
// source image.
func (p *Processor) Exists(sitePath string) bool {
	_, err := p.find(sitePath)
	return err == nil
}

func (p *Processor) find(sitePath string) (string, error) {
	clean := path.Clean("/" + sitePath)
	if clean != sitePath || strings.Contains(sitePath, "\\") {
		return "", fmt.Errorf("image path %q is not a clean site path (like /photos/dune.jpg)", sitePath)
	}
	for _, d := range p.dirs {
		f := path.Join(d, clean)
		if st, err := fs.Stat(p.fsys, f); err == nil && st.Mode().IsRegular() {
			return f, nil
		}
	}
	return "", fmt.Errorf("no image %s in %s", sitePath, strings.Join(p.dirs, " or "))
}

func (p *Processor) load(sitePath string) (*source, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if s, ok := p.sources[sitePath]; ok {
		return s, s.err
	}
	s := &source{}
	p.sources[sitePath] = s
	s.err = func() error {
		f, err := p.find(sitePath)
		if err != nil {
			return err
		}
		s.file = f
		b, err := fs.ReadFile(p.fsys, f)
		if err != nil {
			return err
		}
		sum := sha256.Sum256(b)
		s.hash = hex.EncodeToString(sum[:])
		if strings.EqualFold(path.Ext(f), ".svg") {
			s.format = "svg"
			return nil
		}
		cfg, format, err := image.DecodeConfig(bytes.NewReader(b))
		if err != nil {
			return fmt.Errorf("image %s: %v (JPEG, PNG and SVG are supported)", f, err)
		}
		if format != "jpeg" && format != "png" {
			return fmt.Errorf("image %s is %s; JPEG, PNG and SVG are supported", f, format)
		}
		if px := int64(cfg.Width) * int64(cfg.Height); cfg.Width <= 0 || cfg.Height <= 0 || px > int64(p.maxPixels) {
			return fmt.Errorf("image %s declares %d×%d pixels (%.1f megapixels), more than the limit of %.1f (images.maxPixels in site.yaml; scale the image down)",
				f, cfg.Width, cfg.Height, float64(px)/1e6, float64(p.maxPixels)/1e6)
		}
		s.w, s.h, s.format, s.data = cfg.Width, cfg.Height, format, b
		return nil
	}()
	return s, s.err
}

// Forget drops what the processor knows of the source images at sitePath
// or below it (a folder): the next Picture reads them again, as after an
// edit. Sources with the same bytes are dropped too (they share variants).
// It returns the site paths dropped and the output paths of their variants
// named so far, both sorted; a later Run no longer makes those.
func (p *Processor) Forget(sitePath string) (sources, variants []string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	prefix := strings.TrimSuffix(sitePath, "/") + "/"
	hashes := map[string]bool{}
	for k, s := range p.sources {
		if (k == sitePath || strings.HasPrefix(k, prefix)) && s.hash != "" {
			hashes[s.hash] = true
		}
	}
	for k, s := range p.sources {
		if k != sitePath && !strings.HasPrefix(k, prefix) && !hashes[s.hash] {
			continue
		}
		for _, j := range s.jobs {
			delete(p.jobs, j.out)
			variants = append(variants, j.out)
		}
		p.held -= s.decodedBytes
		s.decoded, s.decodedBytes = nil, 0
		delete(p.sources, k)
		sources = append(sources, k)
	}
	sort.Strings(sources)
	sort.Strings(variants)
	return sources, variants
}

// Picture names the variants of the image at sitePath; Run makes them.
// The first time a source has variants that are not in the cache, it is
// decoded once to check that it can be, so that an image that cannot is
// an error where the page asks for it (the caller's file and line), not
// one of Run's without a page.
func (p *Processor) Picture(sitePath string, o Options) (*Picture, error) {
	pic, s, err := p.picture(sitePath, o)
	if err != nil || pic.SVG {
		return pic, err
	}
	if err := p.checkDecodes(s); err != nil {
		return nil, err
	}
	return pic, nil
}

// checkDecodes decodes s once, unless every variant named so far is in the
// cache (then Run decodes nothing), and returns the decoding error. The
// image decoded is kept for Run, within a bound (keepDecoded), so that a
// cold build decodes each source once.
func (p *Processor) checkDecodes(s *source) error {
	s.check.Do(func() {
		p.mu.Lock()
		jobs := append([]*job(nil), s.jobs...)
		p.mu.Unlock()
		cached := true
		for _, j := range jobs {
			if cached = p.inCache(j); !cached {
				break
			}
		}
		if cached {
			return
		}
		m, _, err := image.Decode(bytes.NewReader(s.data))
		if err != nil {
			s.decodeErr = fmt.Errorf("image %s cannot be decoded: %v", s.file, err)
			return
		}
		p.keepDecoded(s, m)
	})
	return s.decodeErr
}

func (p *Processor) picture(sitePath string, o Options) (*Picture, *source, error) {
	s, err := p.load(sitePath)
	if err != nil {
		return nil, nil, err
	}
	if s.format == "svg" {
		return &Picture{SVG: true, URL: sitePath}, s, nil
	}
	q := o.Quality
	if q == 0 {
		q = DefaultQuality
	}
	if q < 1 || q > 100 {
		return nil, nil, fmt.Errorf("image quality %d is outside 1-100", q)
	}
	if o.Ratio < 0 || math.IsNaN(o.Ratio) || math.IsInf(o.Ratio, 0) {
		return nil, nil, fmt.Errorf("image ratio %v is not a positive number", o.Ratio)
	}
	if o.FocusX < 0 || o.FocusX > 1 || o.FocusY < 0 || o.FocusY > 1 {
		return nil, nil, fmt.Errorf("image focus %v,%v is outside 0-1", o.FocusX, o.FocusY)
	}
	crop := Crop(s.w, s.h, o)
	widths := Widths(crop.Dx(), o.Widths)
	pic := &Picture{}
	stem := urlStem(strings.TrimSuffix(path.Base(sitePath), path.Ext(sitePath)))
	fallback := p.enc.JPEG
	if s.format == "png" {
		fallback = p.enc.PNG
	}
	encs := append(append([]Encoder{}, p.enc.Modern...), fallback)
	p.mu.Lock()
	defer p.mu.Unlock()
	sizes := sizesOf(crop, widths)
	for i, e := range encs {
		src := Source{Type: mimeTypes[e.Format()]}
		for k, size := range sizes {
			// Each size is made from the next wider one (scaled), so
			// that recipe is in its key.
			via := sizes[k+1:]
			sum := sha256.Sum256([]byte(fmt.Sprintf("%s|%v|%dx%d|q%d|%s|%s|via%v", s.hash, crop, size.X, size.Y, q, e.ID(), resample.ID, via)))
			key := hex.EncodeToString(sum[:16])
			out := fmt.Sprintf("%s%s-%s-%d%s", strings.TrimPrefix(URLPrefix, "/"), stem, key[:10], size.X, extensions[e.Format()])
			if _, ok := p.jobs[out]; !ok {
				j := &job{src: s, out: out, key: key, crop: crop, size: size, via: via, q: q, enc: e}
				p.jobs[out] = j
				s.jobs = append(s.jobs, j)
			}
			src.Variants = append(src.Variants, Variant{URL: "/" + out, Width: size.X, Height: size.Y})
		}
		if i < len(encs)-1 {
			pic.Sources = append(pic.Sources, src)
		} else {
			pic.Fallback = src
		}
	}
	l := pic.Fallback.Largest()
	pic.Width, pic.Height = l.Width, l.Height
	return pic, s, nil
}

// Crop is the part of a w×h source a picture shows: all of it, or the
// largest rectangle of o.Ratio around the focal point.
func Crop(w, h int, o Options) image.Rectangle {
	if o.Ratio == 0 {
		return image.Rect(0, 0, w, h)
	}
	fx, fy := o.FocusX, o.FocusY
	if fx == 0 && fy == 0 {
		fx, fy = 0.5, 0.5
	}
	cw, ch := w, int(math.Round(float64(w)/o.Ratio))
	if ch > h {
		cw, ch = int(math.Round(float64(h)*o.Ratio)), h
	}
	x := clamp(int(math.Round(fx*float64(w)-float64(cw)/2)), 0, w-cw)
	y := clamp(int(math.Round(fy*float64(h)-float64(ch)/2)), 0, h-ch)
	return image.Rect(x, y, x+cw, y+ch)
}

func clamp(v, lo, hi int) int { return max(lo, min(v, hi)) }

// Widths are the widths to make of a source max wide: the requested ones
// up to max, and max itself when a larger one was asked for.
func Widths(maxW int, want []int) []int {
	if want == nil {
		want = DefaultWidths
	}
	var out []int
	capped := false
	for _, w := range want {
		if w <= 0 {
			continue
		}
		if w >= maxW {
			capped = true
			continue
		}
		out = append(out, w)
	}
	if capped || len(out) == 0 {
		out = append(out, maxW)
	}
	sort.Ints(out)
	uniq := out[:0]
	for i, w := range out {
		if i == 0 || w != out[i-1] {
			uniq = append(uniq, w)
		}
	}
	return uniq
}

// File is one variant to write into the output.
type File struct {
	Path string // relative to the output root
	Data []byte
}

// Stats counts the variants a Run made (encoded) and took from the cache
// or the site's folder, and the files Prune removed from that folder.
type Stats struct{ Processed, Cached, Pruned int64 }

// Summary is the build's images line.
func (s Stats) Summary() string {
	line := fmt.Sprintf("images: %d processed, %d from cache", s.Processed, s.Cached)
	if s.Pruned > 0 {
		line += fmt.Sprintf(", %d no longer used removed from %s", s.Pruned, SiteFolder)
	}
	return line
}

// Stats of every Run so far.
func (p *Processor) Stats() Stats {
	return Stats{Processed: p.processed.Load(), Cached: p.cached.Load()}
}

// Run makes every variant named so far (sources in parallel, workers at a
// time, at most EncodeWorkers; 0 means EncodeWorkers) and returns them
// sorted by path.
func (p *Processor) Run(ctx context.Context, workers int) ([]File, error) {
	if workers <= 0 || workers > EncodeWorkers() {
		workers = EncodeWorkers()
	}
	p.mu.Lock()
	var todo []*source
	for _, s := range p.sources {
		if s.err == nil && len(s.jobs) > 0 {
			todo = append(todo, s)
		}
	}
	p.mu.Unlock()
	p.cacheErrMu.Lock()
	p.cacheErr = nil // CacheErr is this Run's
	p.cacheErrMu.Unlock()
	defer p.holdEncoders()()
	// An encoder that failed for good (fatalError) stops the other
	// workers: their images could not be encoded either.
	outer := ctx
	ctx, stop := context.WithCancelCause(ctx)
	defer stop(nil)
	sort.Slice(todo, func(i, j int) bool { return todo[i].file < todo[j].file })
	var (
		mu    sync.Mutex
		files []File
		errs  []error
		wg    sync.WaitGroup
	)
	next := make(chan *source)
	for w := 0; w < min(workers, max(len(todo), 1)); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for s := range next {
				made, err := p.runSource(ctx, s)
				if errors.As(err, new(fatalError)) {
					stop(err)
				}
				mu.Lock()
				files = append(files, made...)
				if err != nil {
					errs = append(errs, err)
				}
				mu.Unlock()
			}
		}()
	}
feed:
	for _, s := range todo {
		select {
		case next <- s:
		case <-ctx.Done():
			break feed
		}
	}
	close(next)
	// Stopped (Ctrl+C), Run returns at once: a worker in the middle of a
	// step (a decode, a resize) ends it and drops its variant, unseen; an
	// AVIF encode is given up, and its process killed.
	if err := ctxwait.Wait(ctx, &wg); err != nil {
		if cause := context.Cause(ctx); outer.Err() == nil && errors.As(cause, new(fatalError)) {
			return nil, cause
		}
		return nil, err
	}
	mu.Lock()
	defer mu.Unlock()
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	sort.Slice(files, func(i, j int) bool { return files[i].Path < files[j].Path })
	return files, nil
}

// EncodeWorkers is how many sources Run works on at once: GOMAXPROCS. A
// worker decodes, resizes and encodes JPEG and PNG in this process, code
// Go preempts, and waits for its AVIF encodes, which run in the encoder
// process (avifproc.go), on a pipe.
func EncodeWorkers() int { return max(1, runtime.GOMAXPROCS(0)) }

// runSource makes the variants of one source, decoding it at most once.
func (p *Processor) runSource(ctx context.Context, s *source) ([]File, error) {
	p.mu.Lock()
	jobs := append([]*job(nil), s.jobs...)
	p.mu.Unlock()
	px := &pixels{}
	defer p.takeDecoded(s) // the check's decoding, if every variant was in the cache
	var out []File
	for _, j := range jobs {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		b, err := p.make(ctx, j, px)
		if err != nil {
			return nil, err
		}
		out = append(out, File{Path: j.out, Data: b})
	}
	return out, nil
}

// make returns the bytes of j's variant: from the cache, else encoded
// from px (which decodes the source the first time and keeps each size
// it makes, for the formats of one size share it) and kept in the cache.
// It stops between the steps once ctx ends.
func (p *Processor) make(ctx context.Context, j *job, px *pixels) ([]byte, error) {
	j.mu.Lock()
	defer j.mu.Unlock()
	if b, ok := p.fromCache(j); ok {
		p.cached.Add(1)
		return b, nil
	}
	s := j.src
	if err := px.decode(s, p.takeDecoded(s)); err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	dst := px.scaled(j.crop, j.size, j.via)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if err := encode(ctx, j.enc, &buf, dst, j.q); err != nil {
		return nil, fmt.Errorf("image %s: encoding %s at %d px: %w", s.file, j.enc.Format(), j.size.X, err)
	}
	p.processed.Add(1)
	if err := p.toCache(j, buf.Bytes()); err != nil {
		p.noteCacheErr(err) // a cache that cannot be written slows the next build, never this one
	}
	return buf.Bytes(), nil
}

// noteCacheErr keeps the first error of writing the cache (CacheErr).
func (p *Processor) noteCacheErr(err error) {
	p.cacheErrMu.Lock()
	if p.cacheErr == nil {
		p.cacheErr = err
	}
	p.cacheErrMu.Unlock()
}

// CacheErr is the first error met writing a variant into the cache folder
// (a full disk), or nil: the variants were made all the same, and the
// caller warns that the next build will make them again.
func (p *Processor) CacheErr() error {
	p.cacheErrMu.Lock()
	defer p.cacheErrMu.Unlock()
	return p.cacheErr
}

// CacheDir is the folder the variants are kept in ("": none).
func (p *Processor) CacheDir() string { return p.cacheDir }

func (p *Processor) cachePath(j *job) string {
	return filepath.Join(p.cacheDir, j.key[:2], j.key+extensions[j.enc.Format()])
}

// sitePath is j's file in the site's folder: its key and extension, the
// name Prune knows it by.
func (p *Processor) sitePath(j *job) string {
	return filepath.Join(p.siteDir, j.key+extensions[j.enc.Format()])
}

// inCache reports whether j's variant is in the site's folder or the
// cache, without reading it.
func (p *Processor) inCache(j *job) bool {
	for _, f := range []string{p.siteDir, p.cacheDir} {
		if f == "" {
			continue
		}
		path := p.sitePath(j)
		if f == p.cacheDir {
			path = p.cachePath(j)
		}
		if st, err := os.Stat(path); err == nil && st.Size() > 0 {
			return true
		}
	}
	return false
}

// fromCache reads j's variant from the site's folder, else from the cache
// (then copying it into the site's folder, which holds every variant the
// site uses once a build ends).
func (p *Processor) fromCache(j *job) ([]byte, bool) {
	if p.siteDir != "" {
		if b, err := os.ReadFile(p.sitePath(j)); err == nil && len(b) > 0 {
			return b, true
		}
	}
	if p.cacheDir == "" {
		return nil, false
	}
	b, err := os.ReadFile(p.cachePath(j))
	if err != nil || len(b) == 0 {
		return nil, false
	}
	if p.siteDir != "" {
		if err := writeAtomic(p.sitePath(j), b); err != nil {
			p.noteCacheErr(err)
		}
	}
	return b, true
}

// toCache keeps b, j's variant, in the cache and the site's folder.
func (p *Processor) toCache(j *job, b []byte) error {
	var errs []error
	if p.cacheDir != "" {
		errs = append(errs, writeAtomic(p.cachePath(j), b))
	}
	if p.siteDir != "" {
		errs = append(errs, writeAtomic(p.sitePath(j), b))
	}
	return errors.Join(errs...)
}

// writeAtomic writes through a temporary file and a rename, so a build
// stopped half-way never leaves a truncated variant behind for the next
// one.
func writeAtomic(f string, b []byte) error {
	if err := os.MkdirAll(filepath.Dir(f), 0o755); err != nil {
		return fmt.Errorf("image cache: %w", err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(f), ".tmp-*")
	if err != nil {
		return fmt.Errorf("image cache: %w", err)
	}
	_, werr := tmp.Write(b)
	merr := tmp.Chmod(0o644) // CreateTemp's 0600: a committed folder is read by others
	cerr := tmp.Close()
	if err := errors.Join(werr, merr, cerr); err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("image cache: %w", err)
	}
	if err := os.Rename(tmp.Name(), f); err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("image cache: %w", err)
	}
	return nil
}

// urlStem keeps a file name readable in variant URLs but safe in a srcset
// (no spaces or commas): ASCII letters, digits, - and _, the rest as -.
func urlStem(s string) string {
	b := []byte(strings.ToLower(s))
	for i, c := range b {
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			b[i] = '-'
		}
	}
	if len(b) == 0 {
		return "img"
	}
	return string(b)
}

// EncoderIDs names the encoders and their settings, and the resizer (they
// are part of every variant's URL), for caches of pages that show pictures.
func (p *Processor) EncoderIDs() string {
	var ids []string
	for _, e := range append(append([]Encoder{}, p.enc.Modern...), p.enc.JPEG, p.enc.PNG) {
		ids = append(ids, e.ID())
	}
	ids = append(ids, resample.ID)
	return strings.Join(ids, " ")
}
