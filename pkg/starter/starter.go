// Package starter holds the starter site that `sitegen init` writes: two
// locales, a base template with canonical and hreflang links and a language
// switcher, a home and an about page, 404 and 500 pages, a schema with one
// record type and a data set, one island with its package.json and
// package-lock.json (unless Options.NoIslands), a stylesheet, a favicon and
// a .gitignore.
package starter

import (
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sitegen/pkg/sitefs"
	"strings"
)

//go:embed all:site noislands
var files embed.FS

// ErrNotEmpty is returned for a folder that holds anything: init never
// mixes the starter site with files of the user's.
var ErrNotEmpty = errors.New("folder is not empty")

// renamed maps files stored under another name (a .gitignore in the
// source tree would apply to the repository itself).
var renamed = map[string]string{"gitignore": ".gitignore"}

// Options choose the starter's parts.
type Options struct {
	// NoIslands leaves the island out (and package.json with its lock
	// file: no npm install).
	NoIslands bool
}

// withIslands are the files only a site with islands has; noIslands maps
// files to their version without islands (under noislands/).
var (
	withIslands = map[string]bool{"assets/islands/Counter.jsx": true, "package.json": true, "package-lock.json": true}
	noIslands   = map[string]string{"templates/layouts/home.html": "noislands/home.html"}
)

// Write writes the starter site into dir, creating it if needed. It refuses
// a dir that exists and is not empty. It returns the files written, as
// slash-separated paths relative to dir, in order.
func Write(dir string, o Options) ([]string, error) {
	entries, err := os.ReadDir(dir)
	switch {
	case err == nil && len(entries) > 0:
		return nil, fmt.Errorf("%s: %w (it has %s); init writes a new site into an empty or new folder", dir, ErrNotEmpty, entries[0].Name())
	case err != nil && !errors.Is(err, fs.ErrNotExist):
		return nil, err
	}
	site, err := fs.Sub(files, "site")
	if err != nil {
		return nil, err
	}
	var written []string
	err = fs.WalkDir(site, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		if o.NoIslands && withIslands[p] {
			return nil
		}
		b, err := fs.ReadFile(site, p)
		if alt, ok := noIslands[p]; ok && o.NoIslands {
			b, err = fs.ReadFile(files, alt)
		}
		if err != nil {
			return err
		}
		name := p
		if n, ok := renamed[path.Base(p)]; ok {
			name = path.Join(path.Dir(p), n)
		}
		if err := sitefs.WriteNew(filepath.Join(dir, filepath.FromSlash(name)), b); err != nil {
			return err
		}
		written = append(written, strings.TrimPrefix(name, "./"))
		return nil
	})
	if err != nil {
		return written, fmt.Errorf("writing the starter site: %w", err)
	}
	return written, nil
}
