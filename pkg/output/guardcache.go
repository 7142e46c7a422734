package output

import (
	"fmt"
	"path/filepath"
)

// GuardCache checks that a cache folder (flag names it: --cache-dir,
// --image-cache) keeps out of the site at source: it may not be the site
// root or a folder holding it, nor inside content/, templates/ or assets/
// (a cache writes and merges files there). Paths are compared after
// resolving symbolic links. A refusal is a usage error.
func GuardCache(source, flag, dir string) error {
	if dir == "" {
		return nil
	}
	if source == "" {
		source = "."
	}
	src, err := resolve(source)
	if err != nil {
		return fmt.Errorf("site source %s: %w", source, err)
	}
	d, err := resolve(dir)
	if err != nil {
		return fmt.Errorf("%s %s: %w", flag, dir, err)
	}
	refuse := func(reason string) error {
		return &CacheRefusedError{Flag: flag, Dir: dir, Reason: reason}
	}
	if within(d, src) {
		if d == src {
			return refuse("it is the site's root")
		}
		return refuse("it holds the site")
	}
	for _, sd := range SourceDirs {
		if within(filepath.Join(src, sd), d) {
			return refuse("it is inside the site's " + sd + "/ folder")
		}
	}
	return nil
}

// CacheRefusedError is a cache folder inside the site's sources: a usage
// error.
type CacheRefusedError struct{ Flag, Dir, Reason string }

func (e *CacheRefusedError) Error() string {
	return fmt.Sprintf("%s %s: refusing to keep the cache there: %s; leave the flag out (the user cache folder) or choose a folder outside content/, templates/ and assets/", e.Flag, e.Dir, e.Reason)
}
