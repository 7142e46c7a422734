package devserver

import (
	"context"
	"fmt"
	"runtime"
	"time"

	"sitegen/pkg/diag"
)

// checkAll renders, one at a time in the background, the pages no request
// has rendered since their inputs last changed, for the errors only a
// render finds (a template error on one page): they show over open tabs as
// they are found, as all of a build's errors do once every page has
// rendered. It starts after the first answer (or a second after start),
// and again after each update, until ctx ends.
func (s *Server) checkAll(ctx context.Context) {
	select {
	case <-s.answered:
	case <-time.After(time.Second):
	case <-ctx.Done():
		return
	}
	select { // the first pass covers the site New loaded
	case <-s.wake:
	default:
	}
	for {
		rendered, changed := s.dev.CheckNext(ctx)
		s.noteSources(false)
		if changed {
			s.showProblems()
		}
		if rendered {
			runtime.Gosched() // requests first
			continue
		}
		if snap := s.snap.Load(); snap != nil {
			s.encodeInBackground(snap.images) // every page has named its pictures
		}
		select {
		case s.checked <- struct{}{}:
		default:
		}
		select {
		case <-s.wake:
		case <-ctx.Done():
			return
		}
	}
}

// showProblems shows the errors the pages rendered so far have, or that
// they have none any more; while the last update failed, its errors show,
// with those its pages have as they render (devsession.Session.Problems).
func (s *Server) showProblems() {
	if probs := s.dev.Problems(); len(probs) > 0 {
		if p := problemOf(s.opts.Build.Source, probs.Err()); !s.events.showing(p) {
			s.fail(probs.Err())
		}
		return
	}
	if s.failing.Swap(false) {
		fmt.Fprintln(s.opts.Out, "no errors")
		s.events.send(event{name: "reload", data: reloadData{Recovered: true, Changed: []string{}}})
	}
}

// Problems renders every page no request has rendered since its inputs
// last changed, as the background check does, and returns the errors the
// site's pages have: all of them, as a build reports them.
func (s *Server) Problems(ctx context.Context) diag.List {
	for {
		if rendered, _ := s.dev.CheckNext(ctx); !rendered {
			break
		}
	}
	return s.dev.Problems()
}
