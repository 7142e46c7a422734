package build

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"sitegen/pkg/images"
	"sitegen/pkg/internal/wire"
	"sitegen/pkg/output"
)

// The trust model of a warm build. A build records what it read of the
// site as it read it (record): every file, through recFS, with the SHA-256
// of the bytes read; every folder listed, with a digest of its entries;
// every path stated or looked up and not found; the page files knownPages
// did not need to read, with the SHA-256 of the bytes it had read of them;
// every file esbuild read (its metafile's inputs, node_modules included)
// and the folders holding them. No list of folders says what a site is:
// what was read is. The output's index keeps that record (its notes) and
// a digest of it with the options, the date, sitegen's version and its
// executable (inputDigest). The next build trusts the output only when
// that digest is its own and every dependency in the notes is still as
// recorded (verifyNotes): a file or folder whose lstat (size, inode,
// modification and change time) is the one noted, or whose bytes or
// listing have the noted digest when read again; a stat or an absence is
// checked again. An lstat is noted only when the change time it shows is
// more than two seconds before the build began (a file changed twice within
// the clock's step keeps its times), and no program but the kernel sets a
// change time. The page cache trusts the same reads: the build hash (the
// salt of every cached page) digests what the load read, and a page's own
// trace the rest (render.TraceDigest).

// inputDigest is the digest of a record's entries with everything else the
// output depends on: the options that change it, the date, the site folder,
// sitegen's version and its executable (path, size, inode and times: a
// rebuilt sitegen is a new file).
func inputDigest(opts Options, root string, es []depEntry) string {
	h := sha256.New()
	fmt.Fprintf(h, "sitegen %s\nexe %s\ndate %s\nbase %q\nhost %q\ndrafts %t\nminify %t\nroot %q\n",
		Version, executableID(), opts.Date, opts.BaseURL, opts.Host, opts.Drafts, opts.Minify, root)
	for _, e := range es {
		h.Write([]byte{byte(e.kind)})
		h.Write(binary.AppendUvarint(nil, uint64(len(e.path))))
		h.Write([]byte(e.path))
		h.Write(e.sum[:])
	}
	return hex.EncodeToString(h.Sum(nil))
}

// decodeNotes reads what encodeNotes wrote; nil when b is not such notes.
func decodeNotes(b []byte) []depEntry {
	r := wire.NewReader(b)
	r.Varint()
	var es []depEntry
	for !r.Bad() && r.Len() > 0 {
		kb := r.Bytes(1)
		p, id := string(r.Prefixed()), string(r.Prefixed())
		sum := r.Bytes(32)
		if r.Bad() {
			break
		}
		es = append(es, depEntry{depKey{depKind(kb[0]), p}, dep{id, [32]byte(sum)}})
	}
	if !r.Done() {
		return nil
	}
	return es
}

// verifyNotes checks every dependency of the last build's notes against
// the site as it is now, on a few goroutines: fsys is the site's file
// system (sitefs, unrecorded), root its folder. It returns the input
// digest those notes stand for when every one holds, "" when one does
// not.
func verifyNotes(ctx context.Context, opts Options, fsys fs.FS, root string, notes []byte) string {
	es := decodeNotes(notes)
	if len(es) == 0 || fsys == nil {
		return ""
	}
	abs, err := filepath.Abs(root)
	if err != nil {
		return ""
	}
	rec := &record{root: abs}
	var changed atomic.Bool
	next := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < writers(); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				if changed.Load() {
					continue
				}
				id := ""
				if k := es[i].kind; k != depStat && k != depAbsent && k != depOSGone && k != depProgram {
					id, _ = output.StatID(rec.full(es[i].path))
				}
				if !holds(fsys, rec, es[i], id) {
					changed.Store(true)
				}
			}
		}()
	}
	for i := range es {
		if ctx.Err() != nil || changed.Load() {
			break
		}
		next <- i
	}
	close(next)
	wg.Wait()
	if changed.Load() || ctx.Err() != nil {
		return ""
	}
	return inputDigest(opts, abs, es)
}

// holds reports whether one dependency is as noted; id is its lstat now.
func holds(fsys fs.FS, rec *record, e depEntry, id string) bool {
	if id != "" && id == e.id {
		return true
	}
	var sum [32]byte
	switch e.kind {
	case depFile:
		b, err := fs.ReadFile(fsys, e.path)
		if err != nil {
			return false
		}
		sum = sha256.Sum256(b)
	case depDir:
		ents, err := fs.ReadDir(fsys, e.path)
		if err != nil {
			return false
		}
		sum = listingSum(ents)
	case depStat:
		st, err := fs.Stat(fsys, e.path)
		if err != nil {
			return false
		}
		sum = statSum(st)
	case depAbsent:
		_, err := fs.Stat(fsys, e.path)
		return errors.Is(err, fs.ErrNotExist)
	case depOSGone:
		_, err := os.Lstat(rec.full(e.path))
		return errors.Is(err, fs.ErrNotExist)
	case depProgram:
		id := images.ProgramID(e.path)
		return id != "" && sha256.Sum256([]byte(id)) == e.sum
	case depOSFile, depOSDir:
		var err error
		if sum, err = osSum(e.depKey, rec.full(e.path)); err != nil {
			return false
		}
	default:
		return false
	}
	return sum == e.sum
}

// osSum digests a file or folder outside the site's file system (what
// esbuild read), following links as esbuild does.
func osSum(k depKey, full string) ([32]byte, error) {
	if k.kind == depOSDir {
		ents, err := os.ReadDir(full)
		if err != nil {
			return [32]byte{}, err
		}
		return listingSum(ents), nil
	}
	b, err := os.ReadFile(full)
	if err != nil {
		return [32]byte{}, err
	}
	return sha256.Sum256(b), nil
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
