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
	"sitegen/pkg/internal/wire"
	"sitegen/pkg/output"
	"sitegen/pkg/schema"
)

// inputRoots are the files and folders of a site a build reads (the build
// hash's, and the pages).
var inputRoots = []string{config.FileName, schema.FileName, "templates", "assets", content.Dir, "package-lock.json"}

// inputDigest is the digest of everything a build's output depends on: every
// file under inputRoots (path, kind and the SHA-256 of its bytes), the
// options that change the output, the build date (opts.Date, set),
// sitegen's version and the executable itself (its path, size, inode and
// times: a rebuilt sitegen is a new file). Two builds with the same digest
// write the same bytes; a build whose digest is the one the output was
// built from, with that output unchanged (output.Last.Current), has nothing
// to do.
//
// A file's SHA-256 is read again only when it may have changed: prev (the
// notes of the build that wrote the output, see sourceNotes) gives it for a
// file whose lstat is the same (size, inode, modification and change time)
// and whose change time is more than two seconds before that build began
// (a file changed twice within the clock's step on a coarse file system
// keeps its times). A file read by this build (read: its SHA-256 by
// path, as the build read it; nil when the build has not read its pages)
// is not read again when its change time is more than two seconds before
// the build began (began: then the bytes the build read are those the lstat
// describes). It returns the notes for the next build.
func inputDigest(ctx context.Context, opts Options, prev []byte, read map[string][32]byte, began time.Time) (string, []byte, error) {
	root := opts.Source
	if root == "" {
		root = "."
	}
	known, knownAt := decodeNotes(prev)
	type entry struct {
		rel, id string
		ctime   int64
		mode    fs.FileMode
		sum     [32]byte
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
			return "", nil, err
		}
	}
	// The files' digests, on a few goroutines (sorted first: the digest
	// does not depend on the walk).
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
				p := filepath.Join(root, filepath.FromSlash(e.rel))
				id, ctime := output.StatID(p)
				e.ctime = ctime
				if k, ok := known[e.rel]; ok && id != "" && k.id == id && ctime < knownAt-2e9 {
					e.id, e.sum = id, k.sum
					continue
				}
				if sum, ok := read[e.rel]; ok && id != "" && ctime < began.UnixNano()-2e9 {
					e.id, e.sum = id, sum
					continue
				}
				b, err := os.ReadFile(p)
				if err != nil {
					mu.Lock()
					firstErr = err
					mu.Unlock()
					continue
				}
				e.id, e.sum = id, sha256.Sum256(b)
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
		return "", nil, firstErr
	}
	if err := ctx.Err(); err != nil {
		return "", nil, err
	}
	stats := make(map[string]statID, len(entries))
	for _, e := range entries {
		if e.mode.IsRegular() {
			stats[e.rel] = statID{e.id, e.ctime}
		}
	}
	opts.statIDs.publish(stats)
	h := sha256.New()
	fmt.Fprintf(h, "sitegen %s\nexe %s\ndate %s\nbase %q\nhost %q\ndrafts %t\nminify %t\n",
		Version, executableID(), opts.Date, opts.BaseURL, opts.Host, opts.Drafts, opts.Minify)
	notes := binary.AppendVarint(nil, began.UnixNano())
	for _, e := range entries {
		h.Write(binary.AppendUvarint(nil, uint64(len(e.rel))))
		h.Write([]byte(e.rel))
		h.Write(binary.AppendUvarint(nil, uint64(e.mode)))
		h.Write(e.sum[:])
		if e.id != "" {
			notes = appendNote(notes, e.rel, e.id, e.sum)
		}
	}
	return hex.EncodeToString(h.Sum(nil)), notes, nil
}

// pageSums are the SHA-256 of the page files the site was loaded from, by
// path (inputDigest's read).
func (s *Site) pageSums() map[string][32]byte {
	sums := map[string][32]byte{}
	for _, f := range s.files {
		if f.Page != nil {
			sums[f.Path] = f.Page.Sum
		}
	}
	return sums
}

// sourceNote is what a build noted of one source file: its lstat and the
// SHA-256 of its bytes.
type sourceNote struct {
	id  string
	sum [32]byte
}

func appendNote(b []byte, rel, id string, sum [32]byte) []byte {
	for _, v := range []string{rel, id} {
		b = binary.AppendUvarint(b, uint64(len(v)))
		b = append(b, v...)
	}
	return append(b, sum[:]...)
}

// decodeNotes reads what inputDigest returned: the notes by file and when
// the build that took them began (Unix nanoseconds); none when b is not
// such notes.
func decodeNotes(b []byte) (map[string]sourceNote, int64) {
	r := wire.NewReader(b)
	at := r.Varint()
	notes := map[string]sourceNote{}
	for !r.Bad() && r.Len() > 0 {
		rel, id := string(r.Prefixed()), string(r.Prefixed())
		sum := r.Bytes(32)
		if r.Bad() {
			break
		}
		notes[rel] = sourceNote{id: id, sum: [32]byte(sum)}
	}
	if !r.Done() {
		return nil, 0
	}
	return notes, at
}

// executableID names the running sitegen binary; "" when it cannot be told,
// which makes every digest differ from the recorded one.
func executableID() string {
	exe, err := os.Executable()
	if err != nil {
		return fmt.Sprintf("unknown %d", time.Now().UnixNano())
	}
	id, _ := output.StatID(exe)
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
// written); the caller sets its duration.
func unchangedReport(b []byte) (*Report, bool) {
	rep, ok := decodeReport(b)
	if !ok {
		return nil, false
	}
	rep.Unchanged = true
	rep.FilesWritten = 0
	rep.PagesRendered, rep.Rendered, rep.PagesCached = 0, nil, 0
	rep.CacheHits, rep.CacheMisses, rep.TemplateSets, rep.EsbuildRuns = 0, 0, 0, 0
	rep.SSRCalls, rep.SSRTime, rep.SSREngine = 0, 0, 0
	return rep, true
}
