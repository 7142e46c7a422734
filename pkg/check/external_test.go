package check

import (
	"context"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// linkServer is a real HTTP server on 127.0.0.1 (the only host reachable
// here) with a working page, a missing one, one refusing HEAD and one that
// never answers in time; it counts requests and the most in flight.
type linkServer struct {
	*httptest.Server
	hits              atomic.Int64
	mu                sync.Mutex
	inFlight, maxSeen int
	release           chan struct{}
}

func newLinkServer(t *testing.T) *linkServer {
	s := &linkServer{release: make(chan struct{})}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.hits.Add(1)
		s.mu.Lock()
		s.inFlight++
		s.maxSeen = max(s.maxSeen, s.inFlight)
		s.mu.Unlock()
		defer func() {
			s.mu.Lock()
			s.inFlight--
			s.mu.Unlock()
		}()
		switch {
		case r.URL.Path == "/slow":
			select {
			case <-s.release:
			case <-r.Context().Done():
			}
		case r.URL.Path == "/missing":
			http.NotFound(w, r)
		case r.URL.Path == "/no-head" && r.Method == http.MethodHead:
			w.WriteHeader(http.StatusMethodNotAllowed)
		case strings.HasPrefix(r.URL.Path, "/ok"):
			time.Sleep(5 * time.Millisecond) // overlap, so concurrency shows
			w.WriteHeader(http.StatusOK)
		default:
			w.WriteHeader(http.StatusOK)
		}
	}))
	t.Cleanup(func() { close(s.release); s.Close() })
	return s
}

func TestExternal(t *testing.T) {
	s := newLinkServer(t)
	var urls []string
	for i := 0; i < 12; i++ {
		urls = append(urls, s.URL+"/ok"+strings.Repeat("x", i))
	}
	urls = append(urls, s.URL+"/missing", s.URL+"/no-head", s.URL+"/slow")
	cache := filepath.Join(t.TempDir(), "links.json")
	x := &External{Concurrency: 3, Timeout: 300 * time.Millisecond, CacheFile: cache}
	res := x.Check(context.Background(), urls)
	errs := map[string]string{}
	for _, r := range res {
		errs[strings.TrimPrefix(r.URL, s.URL)] = r.Err
	}
	if errs["/missing"] != "404 Not Found" || errs["/no-head"] != "" || errs["/okxxx"] != "" || !strings.HasPrefix(errs["/slow"], "no answer within") {
		t.Errorf("results: %v", errs)
	}
	if s.maxSeen > 3 {
		t.Errorf("%d requests at once, want at most 3", s.maxSeen)
	}
	// The second run asks again only for what failed.
	before := s.hits.Load()
	res = x.Check(context.Background(), urls)
	if got := s.hits.Load() - before; got != 2 {
		t.Errorf("second run made %d requests, want 2 (the missing and the slow link)", got)
	}
	cached := 0
	for _, r := range res {
		if r.Cached {
			cached++
		}
	}
	if cached != 13 {
		t.Errorf("%d cached answers, want 13", cached)
	}
}

// TestExternalFixture: a page linking to a missing external page is a
// finding at the link in the page's source.
func TestExternalFixture(t *testing.T) {
	s := newLinkServer(t)
	dir, _ := site(t, "external.txtar", "http://SERVER", s.URL)
	rep := run(t, dir, &External{Timeout: time.Second})
	got := diagsText(rep)
	want := "content/pl/kontakt.md:9:13: error: external link " + s.URL + "/missing: 404 Not Found\n"
	if got != want {
		t.Errorf("findings:\n%s\nwant:\n%s", got, want)
	}
	if rep := run(t, dir, nil); len(rep.Diagnostics) != 0 {
		t.Errorf("without External: %s", diagsText(rep))
	}
}
