package devserver

import (
	"context"
	"fmt"
	"mime"
	"net/http"
	"path"
	"strings"

	"sitegen/pkg/images"
)

// The first build of a fresh site would spend most of its time encoding
// picture variants (seconds each for AVIF). The dev server renders and
// serves the pages first, with the same markup a build writes (their
// <picture> names the variants' URLs); the variants are encoded in the
// background into the image cache, a variant asked for before then is
// encoded on demand, and once all are done they join the output
// (build.Dev.Pictures), which is then the output of a build.

// encodeInBackground encodes every variant p's pictures named into the
// image cache, then hands p to Watch (encoded). nil or the processor
// already being encoded: nothing to do.
func (s *Server) encodeInBackground(p *images.Processor) {
	if p == nil || p == s.encoding {
		return
	}
	s.encoding = p
	go func() {
		if _, err := p.Run(s.ctx, 0); err != nil {
			if s.ctx.Err() == nil {
				s.opts.Log.Warn("encoding the picture variants", "err", err)
			}
			return
		}
		select {
		case s.encoded <- p:
		case <-s.ctx.Done():
		}
	}()
}

// addPictures adds the variants p encoded to the output, unless a build
// since has a processor of its own (whose variants come the same way).
func (s *Server) addPictures(ctx context.Context, p *images.Processor) {
	if snap := s.snap.Load(); snap == nil || snap.images != p {
		return
	}
	res, err := s.dev.Pictures(ctx)
	if err != nil {
		s.fail(err)
		return
	}
	if res != nil {
		if err := s.install(res); err != nil {
			s.fail(err)
			return
		}
		fmt.Fprintf(s.opts.Out, "picture variants: %d added\n", len(res.Changed))
	}
	if s.picturesAdded != nil {
		s.picturesAdded <- struct{}{}
	}
}

// servePicture answers a request for a picture variant the output does not
// have yet by encoding it now (from the cache when the background got
// there first). It reports whether it answered.
func (s *Server) servePicture(w http.ResponseWriter, r *http.Request, snap *snapshot) bool {
	p := r.URL.Path
	if snap.images == nil || !strings.HasPrefix(p, images.URLPrefix) || (r.Method != http.MethodGet && r.Method != http.MethodHead) {
		return false
	}
	if _, err := snap.fs.Stat(strings.TrimPrefix(p, "/")); err == nil {
		return false
	}
	b, ok, err := snap.images.Variant(r.Context(), p)
	if !ok {
		return false
	}
	if err != nil {
		s.opts.Log.Warn("encoding a picture variant", "path", p, "err", err)
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return true
	}
	h := w.Header()
	h.Set("Content-Type", mime.TypeByExtension(path.Ext(p)))
	h.Set("Cache-Control", "no-store")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Content-Length", fmt.Sprint(len(b)))
	w.WriteHeader(http.StatusOK)
	if r.Method == http.MethodGet {
		w.Write(b)
	}
	return true
}
