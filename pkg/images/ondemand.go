package images

import (
	"context"
	"strings"
)

// Variant returns the bytes of the variant published at urlPath (such as
// /_assets/img/dune-0123456789-650.avif) that a Picture named: from the
// cache, else encoded now and kept in the cache, so that a later Run takes
// it from there. ok is false when no picture named urlPath (or its source
// was forgotten since). It is how the dev server answers a variant its
// pages show before Run has made it; safe to call while Run runs.
func (p *Processor) Variant(ctx context.Context, urlPath string) (b []byte, ok bool, err error) {
	p.mu.Lock()
	j := p.jobs[strings.TrimPrefix(urlPath, "/")]
	p.mu.Unlock()
	if j == nil {
		return nil, false, nil
	}
	if err := ctx.Err(); err != nil {
		return nil, true, err
	}
	b, err = p.make(ctx, j, &pixels{})
	return b, true, err
}
