package images

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
)

// SiteFolder is where a site keeps its variants when site.yaml asks for it
// (images.keepInSite), relative to the site's root: a folder a repository
// can commit, as Hugo sites commit resources/_gen, so that a fresh clone
// or a CI run encodes nothing the site's history already encoded. Its
// files are named by their cache key alone (the SHA-256 of the source's
// bytes, the crop, the size, the quality and the encoder's ID and
// settings) and hold the encoder's bytes: no path, time or machine is in
// them. A build reads it before the cache, writes what it encodes or finds
// only in the cache into it, and, once it has succeeded, removes what the
// site no longer uses (Prune). The folder is hidden, so the dev server's
// watcher and the site's loaders pass it by.
const SiteFolder = ".sitegen/images"

// siteFile matches the names Prune manages: a key and an extension, and
// the temporary files of a write cut short.
var siteFile = regexp.MustCompile(`^(?:[0-9a-f]{32}\.(?:avif|webp|jpg|png)|\.tmp-[0-9]+)$`)

// Prune removes from the site's folder every variant no picture named
// since the processor began (the site no longer uses it), and temporary
// files left by a build stopped half-way; other files (a README) stay.
// It returns the names removed, sorted. Call it only after a build that
// succeeded: a failed one has not named every picture.
func (p *Processor) Prune() ([]string, error) {
	if p == nil || p.siteDir == "" {
		return nil, nil
	}
	ents, err := os.ReadDir(p.siteDir)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("image folder: %w", err)
	}
	keep := map[string]bool{}
	p.mu.Lock()
	for _, j := range p.jobs {
		keep[filepath.Base(p.sitePath(j))] = true
	}
	p.mu.Unlock()
	var removed []string
	var errs []error
	for _, e := range ents {
		if !e.Type().IsRegular() || !siteFile.MatchString(e.Name()) || keep[e.Name()] {
			continue
		}
		if err := os.Remove(filepath.Join(p.siteDir, e.Name())); err != nil {
			errs = append(errs, fmt.Errorf("image folder: %w", err))
			continue
		}
		removed = append(removed, e.Name())
	}
	sort.Strings(removed)
	return removed, errors.Join(errs...)
}

// SiteDir is the site's folder of variants ("": none).
func (p *Processor) SiteDir() string { return p.siteDir }
