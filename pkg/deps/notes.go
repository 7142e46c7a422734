package deps

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"

	"sitegen/pkg/internal/wire"
	"sitegen/pkg/output"
)

// EncodeNotes writes a Record's entries for the next build (the output's
// index keeps them: output.Last.Sources).
func EncodeNotes(began int64, es []Entry) []byte {
	b := binary.AppendVarint(nil, began)
	for _, e := range es {
		b = append(b, byte(e.Kind))
		for _, v := range []string{e.Path, e.ID} {
			b = binary.AppendUvarint(b, uint64(len(v)))
			b = append(b, v...)
		}
		b = append(b, e.Sum[:]...)
	}
	return b
}

// DecodeNotes reads what EncodeNotes wrote; nil when b is not such notes.
func DecodeNotes(b []byte) []Entry {
	r := wire.NewReader(b)
	r.Varint()
	var es []Entry
	for !r.Bad() && r.Len() > 0 {
		kb := r.Bytes(1)
		p, id := string(r.Prefixed()), string(r.Prefixed())
		sum := r.Bytes(32)
		if r.Bad() {
			break
		}
		es = append(es, Entry{Key{Kind(kb[0]), p}, Dep{id, [32]byte(sum)}})
	}
	if !r.Done() {
		return nil
	}
	return es
}

// Verify checks every dependency of the last build's notes against the
// site as it is now, on workers goroutines: fsys is the site's file system
// (sitefs, unrecorded), root its folder, programID the ID a program has now
// (images.ProgramID). It returns the notes' entries and the absolute site
// folder when every one holds; none when one does not.
func Verify(ctx context.Context, fsys fs.FS, root string, notes []byte, workers int, programID func(name string) string) (es []Entry, abs string) {
	es = DecodeNotes(notes)
	if len(es) == 0 || fsys == nil {
		return nil, ""
	}
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, ""
	}
	rec := &Record{root: abs}
	var changed atomic.Bool
	next := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < max(workers, 1); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				if changed.Load() {
					continue
				}
				id := ""
				if k := es[i].Kind; k != Stat && k != Absent && k != OSGone && k != Program {
					id, _ = output.StatID(rec.Full(es[i].Path))
				}
				if !holds(fsys, rec, es[i], id, programID) {
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
		return nil, ""
	}
	return es, abs
}

// holds reports whether one dependency is as noted; id is its lstat now.
func holds(fsys fs.FS, rec *Record, e Entry, id string, programID func(string) string) bool {
	if id != "" && id == e.ID {
		return true
	}
	var sum [32]byte
	switch e.Kind {
	case File:
		b, err := fs.ReadFile(fsys, e.Path)
		if err != nil {
			return false
		}
		sum = sha256.Sum256(b)
	case Dir:
		ents, err := fs.ReadDir(fsys, e.Path)
		if err != nil {
			return false
		}
		sum = listingSum(ents)
	case Stat:
		st, err := fs.Stat(fsys, e.Path)
		if err != nil {
			return false
		}
		sum = statSum(st)
	case Absent:
		_, err := fs.Stat(fsys, e.Path)
		return errors.Is(err, fs.ErrNotExist)
	case OSGone:
		_, err := os.Lstat(rec.Full(e.Path))
		return errors.Is(err, fs.ErrNotExist)
	case Program:
		id := programID(e.Path)
		return id != "" && sha256.Sum256([]byte(id)) == e.Sum
	case OSFile, OSDir:
		var err error
		if sum, err = osSum(e.Key, rec.Full(e.Path)); err != nil {
			return false
		}
	default:
		return false
	}
	return sum == e.Sum
}

// osSum digests a file or folder outside the site's file system (what
// esbuild read), following links as esbuild does.
func osSum(k Key, full string) ([32]byte, error) {
	if k.Kind == OSDir {
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
