package build

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"time"

	"sitegen/pkg/config"
	"sitegen/pkg/content"
	"sitegen/pkg/output"
	"sitegen/pkg/schema"
)

// inputRoots are the files and folders of a site a build reads (the build
// hash's, and the pages).
var inputRoots = []string{config.FileName, schema.FileName, "templates", "assets", content.Dir, "package-lock.json"}

// inputDigest is the digest of everything a build's output depends on: every
// file under inputRoots (path, kind and bytes, read in full), the options
// that change the output, the build date (opts.Date, set), sitegen's version and the
// executable itself (its path, size, inode and times: a rebuilt sitegen is a
// new file). Two builds with the same digest write the same bytes; a build
// whose digest is the one the output was built from, with that output
// unchanged (output.Current), has nothing to do.
func inputDigest(ctx context.Context, opts Options) (string, error) {
	root := opts.Source
	if root == "" {
		root = "."
	}
	type entry struct {
		rel  string
		mode fs.FileMode
		sum  [32]byte
	}
	var entries []entry
	for _, r := range inputRoots {
		err := filepath.WalkDir(filepath.Join(root, r), func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				if os.IsNotExist(err) && p == filepath.Join(root, r) {
					return nil
				}
				return err
			}
			rel, _ := filepath.Rel(root, p)
			entries = append(entries, entry{rel: filepath.ToSlash(rel), mode: d.Type()})
			return nil
		})
		if err != nil {
			return "", err
		}
	}
	// The files' bytes, read on a few goroutines (sorted first: the
	// digest does not depend on the walk).
	sort.Slice(entries, func(i, j int) bool { return entries[i].rel < entries[j].rel })
	var mu sync.Mutex
	var firstErr error
	next := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < writers(); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				e := &entries[i]
				if !e.mode.IsRegular() { // a folder, or a link or special file a build refuses: named only
					continue
				}
				b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(e.rel)))
				if err != nil {
					mu.Lock()
					firstErr = err
					mu.Unlock()
					continue
				}
				e.sum = sha256.Sum256(b)
			}
		}()
	}
	for i := range entries {
		if ctx.Err() != nil {
			break
		}
		next <- i
	}
	close(next)
	wg.Wait()
	if firstErr != nil {
		return "", firstErr
	}
	if err := ctx.Err(); err != nil {
		return "", err
	}
	h := sha256.New()
	fmt.Fprintf(h, "sitegen %s\nexe %s\ndate %s\nbase %q\nhost %q\ndrafts %t\nminify %t\n",
		Version, executableID(), opts.Date, opts.BaseURL, opts.Host, opts.Drafts, opts.Minify)
	for _, e := range entries {
		h.Write(binary.AppendUvarint(nil, uint64(len(e.rel))))
		h.Write([]byte(e.rel))
		h.Write(binary.AppendUvarint(nil, uint64(e.mode)))
		h.Write(e.sum[:])
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// executableID names the running sitegen binary; "" when it cannot be told,
// which makes every digest differ from the recorded one.
func executableID() string {
	exe, err := os.Executable()
	if err != nil {
		return fmt.Sprintf("unknown %d", time.Now().UnixNano())
	}
	id := output.StatID(exe)
	if id == "" {
		return fmt.Sprintf("unknown %d", time.Now().UnixNano())
	}
	return exe + " " + id
}

// encodeReport and decodeReport keep a build's report in the output's
// index, for a later build that finds nothing changed.
func encodeReport(rep *Report) []byte {
	b, err := json.Marshal(rep)
	if err != nil {
		return nil
	}
	return b
}

func decodeReport(b []byte) (*Report, bool) {
	var rep Report
	if len(b) == 0 || json.Unmarshal(b, &rep) != nil {
		return nil, false
	}
	return &rep, true
}

// unchangedReport is the report of a build that found nothing to do: the
// last build's, with what this build did (nothing rendered, nothing
// written).
func unchangedReport(b []byte, start time.Time) (*Report, bool) {
	rep, ok := decodeReport(b)
	if !ok {
		return nil, false
	}
	rep.Unchanged = true
	rep.FilesWritten = 0
	rep.PagesRendered, rep.Rendered, rep.PagesCached = 0, nil, 0
	rep.CacheHits, rep.CacheMisses, rep.TemplateSets, rep.EsbuildRuns = 0, 0, 0, 0
	rep.SSRCalls, rep.SSRTime, rep.SSREngine = 0, 0, 0
	rep.Duration = time.Since(start)
	return rep, true
}
