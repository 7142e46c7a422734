package render

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"strings"

	"sitegen/pkg/content"
	"sitegen/pkg/images"
)

// A build keeps each rendered page with a trace: the dependency keys its
// render recorded (Deps) and a digest of what each named when it rendered.
// A later build takes the page from its cache only when every digest is
// the same again (TraceDigest), never by a file's modification time.
//
// Most kinds of key name something the build's cache salt covers already,
// because every page shows it (the build hash covers templates, assets,
// data sets and UI strings; the salt also names the route plan with every
// paged list's pages, the options and the islands bundle): their digest is
// empty. What one page reads of
// another page (a listing's titles, dates, summaries and covers) and the
// source files it is built from are digested one by one.

// saltCovered are the kinds of key whose inputs a build's cache salt names.
var saltCovered = []string{"route:", "url:", "list:", "pager:", "data:", "str:", "tpl:", "island:", "asset:", "style:", "static:", "image:"}

// TraceDigest returns a digest of the input behind a dependency key as it
// is now. ok is false for a kind of key it does not know: a page whose
// render recorded one must not be cached.
func (r *Renderer) TraceDigest(key string) (digest string, ok bool) {
	switch {
	case strings.HasPrefix(key, "file:"):
		return r.fileDigest(strings.TrimPrefix(key, "file:")), true
	case strings.HasPrefix(key, "page:"):
		lang, id, _ := strings.Cut(strings.TrimPrefix(key, "page:"), "/")
		return r.pageDigest(lang, id), true
	}
	for _, p := range saltCovered {
		if strings.HasPrefix(key, p) {
			return "", true
		}
	}
	return "", false
}

// fileDigest digests a source file: a page's file as it was loaded (what
// the page was rendered from), any other file as it is on disk.
//
// A page's digest is not kept: it is computed from the loaded page each time
// (every page asks for its own, and keeping them would hold a string per
// page of the site for the whole build).
func (r *Renderer) fileDigest(file string) string {
	if pg := r.pageFile(file); pg != nil {
		return hex.EncodeToString(pg.Sum[:16])
	}
	if v, ok := r.digests.Load(file); ok {
		return v.(string)
	}
	var d string
	if b, err := fs.ReadFile(r.opts.FS, file); err == nil {
		sum := sha256.Sum256(b)
		d = hex.EncodeToString(sum[:16])
	} else {
		d = "missing"
	}
	r.digests.Store(file, d)
	return d
}

func (r *Renderer) pageFile(file string) *content.Page {
	r.filesOnce.Do(func() {
		r.files = map[string]*content.Page{}
		for _, loc := range r.opts.Source.Locales {
			for _, pg := range loc.Pages {
				r.files[pg.File] = pg
			}
		}
	})
	return r.files[file]
}

// pageDigest digests what a listing shows of a page (see pages): its
// title, date, summary, cover and its alt text, tags, terms and params.
func (r *Renderer) pageDigest(lang, id string) string {
	e, ok := r.opts.Plan.Lookup(lang, id)
	if !ok {
		return "none"
	}
	pg := e.Page
	h := sha256.New()
	alt, _ := pg.Params["imageAlt"].(string)
	fmt.Fprintf(h, "%q %q %q %q %q %q %q %v %q %v", e.URL, pg.Title, pg.Description, pg.Date, pg.Summary, pg.Image.Path, alt, pg.Image.Pos,
		pg.Tags, pg.Params)
	for _, tt := range pg.Terms {
		fmt.Fprintf(h, " %q:", tt.Taxonomy)
		for _, t := range tt.Terms {
			fmt.Fprintf(h, " %q", t.Name)
		}
	}
	return hex.EncodeToString(h.Sum(nil)[:16])
}

// PictureUse is one picture a render asked the image processor for: a page
// taken from a cache asks for it again (Replay), so its variants are made.
type PictureUse struct {
	Path    string
	Options images.Options
}

// Replay redoes what rendering a page does besides its bytes, for a page
// taken from a cache: the UI strings it looked up (so that strings missing
// in its locale are reported), the data sets it took from the default
// locale, and the pictures whose variants the build must make.
func (r *Renderer) Replay(lang string, deps []string, pictures []PictureUse) error {
	def := r.opts.Plan.Default.Code
	for _, k := range deps {
		switch {
		case strings.HasPrefix(k, "str:"+lang+"/"):
			r.opts.Catalog.Lookup(lang, strings.TrimPrefix(k, "str:"+lang+"/"))
		case strings.HasPrefix(k, "data:"+lang+"/") && lang != def:
			r.data(nil, lang, strings.TrimPrefix(k, "data:"+lang+"/"))
		}
	}
	for _, p := range pictures {
		if r.opts.Images == nil {
			return fmt.Errorf("picture %s: this build has no image processor", p.Path)
		}
		if _, err := r.opts.Images.Picture(p.Path, p.Options); err != nil {
			return err
		}
	}
	return nil
}
