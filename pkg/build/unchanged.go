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
	"time"

	"sitegen/pkg/deps"
	"sitegen/pkg/images"
	"sitegen/pkg/output"
)

// The trust model of a warm build. A build records what it read of the
// site as it read it (deps.Record): every file, through deps.FS, with the SHA-256
// of the bytes read; every folder listed, with a digest of its entries;
// every path stated or looked up and not found; the page files knownPages
// did not need to read, with the SHA-256 of the bytes it had read of them;
// every file esbuild read (its metafile's inputs, node_modules included)
// and the folders holding them. No list of folders says what a site is:
// what was read is. The output's index keeps that record (its notes) and
// a digest of it with the options, the date, sitegen's version and its
// executable (inputDigest). The next build trusts the output only when
// that digest is its own and every dependency in the notes is still as
// recorded (deps.Verify): a file or folder whose lstat (size, inode,
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
func inputDigest(opts Options, root string, es []deps.Entry) string {
	h := sha256.New()
	fmt.Fprintf(h, "sitegen %s\nexe %s\ndate %s\nbase %q\nhost %q\ndrafts %t\nminify %t\nroot %q\n",
		Version, executableID(), opts.Date, opts.BaseURL, opts.Host, opts.Drafts, opts.Minify, root)
	for _, e := range es {
		h.Write([]byte{byte(e.Kind)})
		h.Write(binary.AppendUvarint(nil, uint64(len(e.Path))))
		h.Write([]byte(e.Path))
		h.Write(e.Sum[:])
	}
	return hex.EncodeToString(h.Sum(nil))
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

// verifiedInput is the input digest the last build's notes stand for when
// every dependency they name still holds in the site (fsys, unrecorded),
// "" when one does not.
func verifiedInput(ctx context.Context, opts Options, fsys fs.FS, notes []byte) string {
	es, abs := deps.Verify(ctx, fsys, opts.Source, notes, writers(), images.ProgramID)
	if es == nil {
		return ""
	}
	return inputDigest(opts, abs, es)
}
