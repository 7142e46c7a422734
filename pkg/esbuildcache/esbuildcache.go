// Package esbuildcache runs esbuild builds through the persistent build
// cache (pkg/cache): a build whose options, esbuild version and input files
// are the same as a cached one's returns that build's output without
// running esbuild.
//
// The key is the options (everything but plugins, whose virtual modules the
// caller names), the working folder, esbuild's version and the site's
// package-lock.json. The entry carries a trace: every input file esbuild's
// metafile lists (node_modules files included), with a SHA-256 of its
// content; a lookup hashes them again and any difference is a miss. Builds
// with errors or warnings are not cached.
package esbuildcache

import (
	"bytes"
	"crypto/sha256"
	"encoding/gob"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"runtime/debug"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/evanw/esbuild/pkg/api"

	"sitegen/pkg/cache"
)

// Cache runs builds through a store. A nil *Cache runs esbuild every time.
type Cache struct {
	store  *cache.Store
	runs   atomic.Int64
	mu     sync.Mutex
	inputs map[string]string // absolute path → fileDigest, of every build's inputs
}

// New returns a Cache over store (nil when store is nil).
func New(store *cache.Store) *Cache {
	if store == nil {
		return nil
	}
	return &Cache{store: store, inputs: map[string]string{}}
}

// Inputs returns the files the builds so far read, taken from esbuild's
// metafiles (node_modules files included) and the package-lock.json in
// their keys: absolute path → the hex SHA-256 of the bytes the build was
// made or checked with ("missing" for a file that was not there).
func (c *Cache) Inputs() map[string]string {
	if c == nil {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return maps.Clone(c.inputs)
}

func (c *Cache) noteInputs(dir string, trace []input) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.inputs[filepath.Join(dir, "package-lock.json")] = fileDigest(dir, "package-lock.json")
	for _, in := range trace {
		p := in.Path
		if !filepath.IsAbs(p) {
			p = filepath.Join(dir, p)
		}
		c.inputs[p] = in.Digest
	}
}

// Runs returns how many builds ran esbuild (were not taken from the cache).
func (c *Cache) Runs() int {
	if c == nil {
		return 0
	}
	return int(c.runs.Load())
}

// Build returns api.Build(bo), or the result of an earlier build with the
// same key whose input files are unchanged. virtual are the sources of the
// modules bo's plugins serve (they are part of the key).
func (c *Cache) Build(bo api.BuildOptions, virtual ...string) api.BuildResult {
	if c == nil {
		return api.Build(bo)
	}
	store := c.store
	bo.Metafile = true // the trace's input files
	dir := bo.AbsWorkingDir
	if dir == "" {
		dir, _ = os.Getwd()
	}
	key := buildKey(bo, dir, virtual)
	if b, ok := store.Get(key); ok {
		var e entry
		if gob.NewDecoder(bytes.NewReader(b)).Decode(&e) == nil && e.valid(dir) {
			c.noteInputs(dir, e.Trace)
			return api.BuildResult{OutputFiles: e.Outputs, Metafile: e.Metafile}
		}
	}
	c.runs.Add(1)
	res := api.Build(bo)
	e := entry{Outputs: res.OutputFiles, Metafile: res.Metafile}
	var meta struct {
		Inputs map[string]json.RawMessage `json:"inputs"`
	}
	if err := json.Unmarshal([]byte(res.Metafile), &meta); err != nil {
		return res
	}
	for in := range meta.Inputs {
		if isVirtual(in) {
			continue
		}
		e.Trace = append(e.Trace, input{Path: in, Digest: fileDigest(dir, in)})
	}
	sort.Slice(e.Trace, func(i, j int) bool { return e.Trace[i].Path < e.Trace[j].Path })
	c.noteInputs(dir, e.Trace)
	if len(res.Errors) > 0 || len(res.Warnings) > 0 {
		return res
	}
	var buf bytes.Buffer
	if gob.NewEncoder(&buf).Encode(&e) == nil {
		store.Put(key, buf.Bytes())
	}
	return res
}

type entry struct {
	Trace    []input
	Outputs  []api.OutputFile
	Metafile string
}

type input struct{ Path, Digest string }

func (e *entry) valid(dir string) bool {
	for _, in := range e.Trace {
		if fileDigest(dir, in.Path) != in.Digest {
			return false
		}
	}
	return true
}

// isVirtual tells a module a plugin serves ("sitegen:sitegen:ssr") from a
// file path in the metafile.
func isVirtual(p string) bool {
	ns, _, ok := strings.Cut(p, ":")
	return ok && !strings.ContainsAny(ns, `/\.`) && len(ns) > 1
}

func fileDigest(dir, p string) string {
	if !filepath.IsAbs(p) {
		p = filepath.Join(dir, p)
	}
	b, err := os.ReadFile(p)
	if err != nil {
		return "missing"
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

func buildKey(bo api.BuildOptions, dir string, virtual []string) cache.Key {
	plugins := len(bo.Plugins)
	bo.Plugins = nil
	parts := [][]byte{[]byte("esbuild"), []byte(Version()), []byte(dir),
		[]byte(fmt.Sprintf("%#v plugins=%d", bo, plugins)), []byte(fileDigest(dir, "package-lock.json"))}
	for _, v := range virtual {
		parts = append(parts, []byte(v))
	}
	return cache.NewKey(parts...)
}

var version = sync.OnceValue(func() string {
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, m := range bi.Deps {
			if m.Path == "github.com/evanw/esbuild" {
				if m.Replace != nil {
					m = m.Replace
				}
				return m.Version + " " + m.Sum
			}
		}
	}
	return "unknown"
})

// Version is the esbuild module's version (part of every key).
func Version() string { return version() }
