package devserver

import (
	"sitegen/pkg/images"
)

// The first render of a fresh site would spend most of its time encoding
// picture variants (seconds each for AVIF). The dev server renders and
// serves the pages first, with the same markup a build writes (their
// <picture> names the variants' URLs); a variant asked for is encoded on
// demand (devsession.Session.File), and once the background check has rendered
// every page (check.go), all the variants they named are encoded into the
// image cache, where later requests find them.

// encodeInBackground encodes every variant p's pictures named into the
// image cache. nil or the processor already being encoded: nothing to do.
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
		if s.picturesAdded != nil {
			s.picturesAdded <- struct{}{}
		}
	}()
}
