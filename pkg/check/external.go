package check

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"sync"
	"time"
)

// External checks links to other sites: HEAD (GET where HEAD is refused),
// at most Concurrency requests at a time, each bounded by Timeout, with
// answers cached in CacheFile so a CI run does not hammer the same hosts.
type External struct {
	Client      *http.Client
	Concurrency int           // 0 means 8
	Timeout     time.Duration // per link; 0 means 10 s
	CacheFile   string        // "" means no cache
	// TTL is how long a good answer stays cached; failures are always
	// checked again. 0 means 24 hours.
	TTL time.Duration
	Now func() time.Time
}

// LinkResult is the answer for one URL; Err is empty when the link works.
type LinkResult struct {
	URL    string `json:"url"`
	Status int    `json:"status,omitempty"`
	Err    string `json:"error,omitempty"`
	Cached bool   `json:"-"`
}

type cacheEntry struct {
	Status  int       `json:"status"`
	Checked time.Time `json:"checked"`
}

// Check checks every URL and returns the results in the order given.
func (x *External) Check(ctx context.Context, urls []string) []LinkResult {
	conc, timeout, ttl, now := x.Concurrency, x.Timeout, x.TTL, x.Now
	if conc <= 0 {
		conc = 8
	}
	if timeout <= 0 {
		timeout = 10 * time.Second
	}
	if ttl <= 0 {
		ttl = 24 * time.Hour
	}
	if now == nil {
		now = time.Now
	}
	client := x.Client
	if client == nil {
		client = &http.Client{}
	}
	cache := x.loadCache()
	out := make([]LinkResult, len(urls))
	var mu sync.Mutex
	sem := make(chan struct{}, conc)
	var wg sync.WaitGroup
	for i, u := range urls {
		if c, ok := cache[u]; ok && now().Sub(c.Checked) < ttl {
			out[i] = LinkResult{URL: u, Status: c.Status, Cached: true}
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			select {
			case sem <- struct{}{}:
			case <-ctx.Done():
				out[i] = LinkResult{URL: u, Err: ctx.Err().Error()}
				return
			}
			defer func() { <-sem }()
			r := probe(ctx, client, u, timeout)
			out[i] = r
			if r.Err == "" {
				mu.Lock()
				cache[u] = cacheEntry{Status: r.Status, Checked: now()}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	x.saveCache(cache)
	return out
}

func probe(ctx context.Context, client *http.Client, u string, timeout time.Duration) LinkResult {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	status, err := request(ctx, client, http.MethodHead, u)
	if err == nil && (status == http.StatusMethodNotAllowed || status == http.StatusNotImplemented || status == http.StatusForbidden) {
		status, err = request(ctx, client, http.MethodGet, u)
	}
	switch {
	case errors.Is(err, context.DeadlineExceeded) || (err != nil && ctx.Err() == context.DeadlineExceeded):
		return LinkResult{URL: u, Err: fmt.Sprintf("no answer within %s", timeout)}
	case err != nil:
		return LinkResult{URL: u, Err: err.Error()}
	case status >= 400:
		return LinkResult{URL: u, Status: status, Err: fmt.Sprintf("%d %s", status, http.StatusText(status))}
	}
	return LinkResult{URL: u, Status: status}
}

func request(ctx context.Context, client *http.Client, method, u string) (int, error) {
	req, err := http.NewRequestWithContext(ctx, method, u, nil)
	if err != nil {
		return 0, err
	}
	req.Header.Set("User-Agent", "sitegen-check (link checker)")
	resp, err := client.Do(req)
	if err != nil {
		return 0, err
	}
	resp.Body.Close()
	return resp.StatusCode, nil
}

func (x *External) loadCache() map[string]cacheEntry {
	m := map[string]cacheEntry{}
	if x.CacheFile == "" {
		return m
	}
	if b, err := os.ReadFile(x.CacheFile); err == nil {
		if json.Unmarshal(b, &m) != nil {
			m = map[string]cacheEntry{} // a damaged cache is only a cache
		}
	}
	return m
}

// saveCache writes the cache through a temporary file and a rename.
func (x *External) saveCache(m map[string]cacheEntry) {
	if x.CacheFile == "" {
		return
	}
	b, err := json.MarshalIndent(m, "", " ")
	if err != nil {
		return
	}
	if err := os.MkdirAll(filepath.Dir(x.CacheFile), 0o755); err != nil {
		return
	}
	tmp := x.CacheFile + ".tmp"
	if os.WriteFile(tmp, b, 0o644) == nil {
		os.Rename(tmp, x.CacheFile)
	}
}
