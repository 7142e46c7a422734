package build_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"path"
	"regexp"
	"slices"
	"strings"
	"testing"

	"sitegen/internal/treetest"
	"sitegen/pkg/build"
	"sitegen/pkg/devserver"
	"sitegen/pkg/diag"
	"sitegen/pkg/output"
)

// The dev server's half of the differential test: one dev server is kept
// for a whole sequence and told of each mutation as its file watcher
// reports it (watched); after each, its HTTP answers must be the bytes of
// a build without a cache of the same sources (devMatches). It is asked
// through its handler only, as a browser does, so the test holds however
// the server makes its answers.

// devDate is the build date of every build of the test.
const devDate = "2026-01-01"

// startDev starts the dev server on the site as it is.
func (d *diffSite) startDev(t *testing.T) {
	t.Helper()
	srv, err := devserver.New(context.Background(), devserver.Options{Build: build.Options{Source: d.dir, Date: devDate}})
	if err != nil {
		t.Fatalf("dev server: %v", err)
	}
	t.Cleanup(func() { srv.Close() })
	d.srv = srv
}

// watched are the paths of a mutation the dev server's watcher reports
// (Server.Reports: the sources it watches, editors' droppings left out).
func (d *diffSite) watched(paths []string) []string {
	var out []string
	for _, p := range paths {
		if d.srv.Reports(p) {
			out = append(out, p)
		}
	}
	return out
}

// checkDev tells the dev server of the paths a mutation changed and
// compares its answers with the build without a cache in cold (rep and
// cerr are that build's report and error).
func (d *diffSite) checkDev(t *testing.T, what string, paths []string, cold string, rep *build.Report, cerr error) {
	t.Helper()
	var derr error
	reported := d.watched(paths)
	if len(reported) > 0 {
		_, derr = d.srv.Update(context.Background(), reported)
	}
	if (derr != nil || cerr != nil) && len(reported) > 0 {
		// Pages render on demand: an error only a render finds shows once
		// the pages are rendered (the background check's work), also on a
		// site the update found errors in without rendering.
		if probs := d.srv.Problems(context.Background()); len(probs) > 0 {
			derr = probs.Err()
		}
	}
	switch {
	case cerr != nil && derr == nil && len(reported) > 0:
		t.Fatalf("%s: the build refuses the site (%v), the dev server does not", what, cerr)
	case cerr == nil && derr != nil:
		t.Fatalf("%s: the dev server refuses the site (%v), the build does not", what, derr)
	case cerr != nil && derr != nil:
		// Both refuse it: with the same diagnostics, all of them.
		if got, want := diagKeys(derr), diagKeys(cerr); !slices.Equal(got, want) {
			t.Errorf("%s: the dev server reports\n\t%s\nthe build\n\t%s", what, strings.Join(got, "\n\t"), strings.Join(want, "\n\t"))
		}
		return
	case cerr != nil:
		return
	}
	d.hashes = append(d.hashes, rep.BuildHash)
	for _, msg := range devMatches(d.srv, treetest.Read(t, cold), rep.BuildHash, d.hashes) {
		t.Errorf("%s: dev server: %s", what, msg)
	}
}

// diagKeys are the diagnostics of err as a dev server's overlay shows
// them (position, message, hint), sorted.
func diagKeys(err error) []string {
	var list diag.List
	if !errors.As(err, &list) {
		return []string{err.Error()}
	}
	var out []string
	for _, d := range list {
		out = append(out, fmt.Sprintf("%s: %s (hint: %s)", d.Pos, d.Message, d.Hint))
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// devMatches compares the dev server's answers with a build's files and
// returns the differences. What a dev session names differently from a
// build of the same sources is set aside (devNormal): the build hash and
// the URLs of the asset bundles are fixed at the session's start (see
// pkg/devsession), so the session's hash is one an earlier build of the
// sequence had (seen, ending with the build's own, hash), and a bundle the
// session serves under its first name pairs with the build's file of the
// same name but for its content hash.
func devMatches(srv *devserver.Server, files map[string][]byte, hash string, seen []string) []string {
	var diffs []string
	delete(files, output.ManifestName) // the mark of a build's own folder
	listed := devFiles(srv)
	names := pairBundles(files, listed)
	hashes := make([]string, 0, 2*len(seen))
	for _, h := range seen {
		if h != hash {
			hashes = append(hashes, h, hash)
		}
	}
	session := strings.NewReplacer(hashes...)  // on the dev server's answers
	urls := strings.NewReplacer(names.urls...) // on the build's files
	h := srv
	for _, name := range slices.Sorted(mapsKeys(files)) {
		want := []byte(urls.Replace(string(files[name])))
		served := names.dev(name)
		var got []byte
		if output.Private("/" + served) {
			b, ok := srv.File(served) // the host's own files: served to no one
			if !ok {
				diffs = append(diffs, fmt.Sprintf("lacks %s", name))
				continue
			}
			got = []byte(session.Replace(string(b)))
		} else {
			code, body, to := get(h, urlOf(served))
			if code == http.StatusMovedPermanently && bytes.Contains(files[name], []byte(`"`+to+`"`)) {
				continue // the host's redirect, where the build writes a page that redirects
			}
			if code != http.StatusOK {
				diffs = append(diffs, fmt.Sprintf("answers %s with %d", urlOf(served), code))
				continue
			}
			got = []byte(session.Replace(string(devNormal(body))))
		}
		if !bytes.Equal(got, want) {
			diffs = append(diffs, fmt.Sprintf("%s differs from the build's %s%s", urlOf(served), name, firstDiff(got, want)))
		}
	}
	for _, n := range listed {
		if _, ok := files[names.build(n)]; !ok {
			diffs = append(diffs, fmt.Sprintf("has %s, which the build does not write", n))
		}
	}
	return diffs
}

// devFiles lists the files the dev server serves.
func devFiles(srv *devserver.Server) []string {
	var out []string
	for pat := "*"; ; pat += "/*" {
		names := srv.Glob(pat)
		if len(names) == 0 {
			break
		}
		for _, n := range names {
			if _, ok := srv.File(n); ok {
				out = append(out, n)
			}
		}
	}
	slices.Sort(out)
	return out
}

// bundleName is a bundle's file name without its content hash
// ("_assets/main-4GQX2ZKD.css" is "_assets/main-.css").
var bundleName = regexp.MustCompile(`-[A-Z0-9]{8}(\.[a-z0-9]+)$`)

// bundlePairs pairs the build's bundles with the ones the dev server
// serves under another name.
type bundlePairs struct {
	toDev, toBuild map[string]string
	urls           []string // old, new pairs for strings.NewReplacer: build URL -> dev URL
}

func (p bundlePairs) dev(name string) string {
	if n, ok := p.toDev[name]; ok {
		return n
	}
	return name
}

func (p bundlePairs) build(name string) string {
	if n, ok := p.toBuild[name]; ok {
		return n
	}
	return name
}

// pairBundles pairs each asset bundle only the build has (a file right in
// _assets/; the islands' chunks below it are named afresh in a session
// too) with the one file only the dev server has of the same name but for
// its content hash.
func pairBundles(files map[string][]byte, listed []string) bundlePairs {
	p := bundlePairs{toDev: map[string]string{}, toBuild: map[string]string{}}
	devOnly := map[string][]string{}
	for _, n := range listed {
		if _, ok := files[n]; !ok {
			k := bundleName.ReplaceAllString(n, "-$1")
			devOnly[k] = append(devOnly[k], n)
		}
	}
	for _, n := range slices.Sorted(mapsKeys(files)) {
		if slices.Contains(listed, n) {
			continue
		}
		k := bundleName.ReplaceAllString(n, "-$1")
		if k == n || path.Dir(n) != "_assets" || len(devOnly[k]) != 1 {
			continue
		}
		dev := devOnly[k][0]
		p.toDev[n], p.toBuild[dev] = dev, n
		p.urls = append(p.urls, "/"+n, "/"+dev)
	}
	return p
}

// devScript is the tag the dev server adds to every HTML page, and
// devFallback the note on a page shown from another locale.
var (
	devScript   = regexp.MustCompile(`<script type="module" src="` + regexp.QuoteMeta(devserver.ScriptPath) + `" data-sitegen-dev data-file="[^"]*"></script>`)
	devFallback = regexp.MustCompile(`<div data-sitegen-dev="fallback"[^>]*>.*?</div>`)
)

// devNormal is an answer of the dev server without what it adds to pages.
func devNormal(b []byte) []byte {
	return devFallback.ReplaceAll(devScript.ReplaceAll(b, nil), nil)
}

// urlOf is the URL path that serves an output file.
func urlOf(name string) string {
	if name == "index.html" {
		return "/"
	}
	if path.Base(name) == "index.html" {
		return "/" + path.Dir(name) + "/"
	}
	return "/" + name
}

// get returns the status, body and Location of the answer to a GET of url.
func get(h http.Handler, url string) (int, []byte, string) {
	w := httptest.NewRecorder()
	h.ServeHTTP(w, httptest.NewRequest(http.MethodGet, url, nil))
	b, _ := io.ReadAll(w.Result().Body)
	return w.Code, b, w.Header().Get("Location")
}

// firstDiff says where got and want first differ.
func firstDiff(got, want []byte) string {
	i := 0
	for i < len(got) && i < len(want) && got[i] == want[i] {
		i++
	}
	lo := max(0, i-40)
	return fmt.Sprintf(" at byte %d: %q, the build %q", i, got[lo:min(len(got), i+60)], want[lo:min(len(want), i+60)])
}
