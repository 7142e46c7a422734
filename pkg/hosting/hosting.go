// Package hosting serves a built output tree the way the production host
// does: the URL semantics a CDN gives (directory index, the locale's 404
// page for unknown paths, 301 for redirects keeping the query) and the
// headers of output.HeaderRules, the table the build writes to _headers, so
// a CSP violation shows while authoring. It is not the development server
// (pkg/devserver, sitegen serve), which serves its in-memory build with it.
package hosting

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path"
	"strings"
	"time"

	"sitegen/pkg/output"
)

// Handler serves a built output tree.
type Handler struct {
	FS        fs.FS             // the output tree (a folder, or the dev server's memory)
	Prefixes  []string          // locale prefixes, e.g. /pl, /en: their 404.html serves their unknown paths
	redirects map[string]string // from (no trailing slash) -> to
	headers   []output.HeaderRule
}

// NewHandler serves root with the build's redirects (the route plan's, as
// output.RedirectTable gives them: source path without trailing slash ->
// target; not re-read from _redirects) and header rules (the table
// _headers was written from, with the site's CSP).
func NewHandler(root string, prefixes []string, redirects map[string]string, headers []output.HeaderRule) (*Handler, error) {
	if _, err := os.Stat(root); err != nil {
		return nil, err
	}
	return NewHandlerFS(os.DirFS(root), prefixes, redirects, headers), nil
}

// NewHandlerFS is NewHandler for any tree (the dev server's is in memory).
func NewHandlerFS(fsys fs.FS, prefixes []string, redirects map[string]string, headers []output.HeaderRule) *Handler {
	return &Handler{FS: fsys, Prefixes: prefixes, redirects: redirects, headers: headers}
}

func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	p := path.Clean("/" + r.URL.Path)
	for _, hd := range output.HeadersFor(h.headers, p) {
		w.Header().Set(hd.Name, hd.Value)
	}
	if w.Header().Get("Cache-Control") == "" {
		// No rule caches this path: the dev server lets the browser keep
		// nothing between edits.
		w.Header().Set("Cache-Control", "no-cache")
	}
	if output.Private(p) {
		h.notFound(w, r, p)
		return
	}
	if to, ok := h.redirects[strings.TrimSuffix(p, "/")]; ok && p != "/" {
		if r.URL.RawQuery != "" {
			to += "?" + r.URL.RawQuery
		}
		http.Redirect(w, r, to, http.StatusMovedPermanently)
		return
	}
	file := fsPath(p)
	st, err := fs.Stat(h.FS, file)
	if err == nil && st.IsDir() {
		if !strings.HasSuffix(r.URL.Path, "/") {
			http.Redirect(w, r, p+"/", http.StatusMovedPermanently)
			return
		}
		file = path.Join(file, "index.html")
		st, err = fs.Stat(h.FS, file)
	}
	if err != nil || st.IsDir() {
		h.notFound(w, r, p)
		return
	}
	http.ServeFileFS(w, r, h.FS, file)
}

// fsPath turns a clean site path into an fs.FS name.
func fsPath(p string) string {
	if p == "/" {
		return "."
	}
	return strings.TrimPrefix(p, "/")
}

func (h *Handler) notFound(w http.ResponseWriter, r *http.Request, p string) {
	page := "404.html"
	for _, pre := range h.Prefixes {
		if p == pre || strings.HasPrefix(p, pre+"/") {
			if _, err := fs.Stat(h.FS, fsPath(pre+"/404.html")); err == nil {
				page = fsPath(pre + "/404.html")
			}
		}
	}
	b, err := fs.ReadFile(h.FS, page)
	w.Header().Set("Cache-Control", "no-cache") // the cache rules are for what exists
	if err != nil || strings.HasPrefix(p, "/page-data/") || strings.HasPrefix(p, "/_assets/") {
		http.Error(w, "404 page not found", http.StatusNotFound)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(http.StatusNotFound)
	if r.Method != http.MethodHead {
		w.Write(b)
	}
}

// Server runs the handler on addr until ctx ends.
func Server(ctx context.Context, addr string, handler http.Handler, log *slog.Logger, ready func(url string)) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("listen on %s: %w", addr, err)
	}
	srv := &http.Server{Handler: handler, ReadHeaderTimeout: 10 * time.Second}
	if ready != nil {
		ready("http://" + ln.Addr().String() + "/")
	}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case <-ctx.Done():
		sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		return srv.Shutdown(sctx)
	case err := <-errc:
		if errors.Is(err, http.ErrServerClosed) {
			return nil
		}
		return err
	}
}
