package build

import (
	"encoding/binary"

	"sitegen/pkg/cache"
	"sitegen/pkg/content"
	"sitegen/pkg/deps"
	"sitegen/pkg/internal/wire"
)

// knownPages is content.PageFiles over the build cache: what a build read
// of each page file (its front matter, where its body is, its SHA-256), by
// its path and its identity in the build's record (deps.Record.ID: its lstat,
// when its change time is more than two seconds before the build began).
// A later build does not read a page file again while its identity is the
// same, and records it as the build that read it found it.
type knownPages struct {
	store *cache.Store
	salt  []byte
	rec   *deps.Record // the build's record: the site folder, the clock, and where a page file not read is recorded
}

// newKnownPages is knownPages over store for the site rec records.
func newKnownPages(store *cache.Store, rec *deps.Record) *knownPages {
	if store == nil || rec == nil || rec.Root() == "" {
		return nil
	}
	return &knownPages{store: store, salt: []byte("page-file-3 sitegen " + Version + " " + rec.Root()), rec: rec}
}

func (k *knownPages) Identity(path string) string { return k.rec.ID(path) }

func (k *knownPages) key(path, id string) cache.Key {
	return cache.NewKey(k.salt, []byte(path), []byte(id))
}

func (k *knownPages) Known(path, id string) (content.KnownPage, bool) {
	if id == "" {
		return content.KnownPage{}, false
	}
	b, ok := k.store.Get(k.key(path, id))
	if !ok {
		return content.KnownPage{}, false
	}
	p, ok := decodeKnownPage(b)
	if ok { // not read: recorded as the build that read it found it
		k.rec.Add(deps.Key{Kind: deps.File, Path: path}, deps.Dep{ID: id, Sum: p.Sum})
	}
	return p, ok
}

func (k *knownPages) Remember(path, id string, p content.KnownPage) {
	if id != "" {
		k.store.Put(k.key(path, id), encodeKnownPage(p)...)
	}
}

// encodeKnownPage returns p encoded, in parts: its front matter and tree
// are not copied (Put writes the parts one after the other).
func encodeKnownPage(p content.KnownPage) [][]byte {
	var head [32 + 5*binary.MaxVarintLen64]byte
	b := append(head[:0], p.Sum[:]...)
	for _, n := range []int{p.BodyLine, p.BodyLen, int(p.BodyCRC), len(p.FrontMatter), len(p.Nodes)} {
		b = binary.AppendUvarint(b, uint64(n))
	}
	return [][]byte{b, p.FrontMatter, p.Nodes}
}

func decodeKnownPage(b []byte) (content.KnownPage, bool) {
	var p content.KnownPage
	r := wire.NewReader(b)
	copy(p.Sum[:], r.Bytes(32))
	p.BodyLine, p.BodyLen, p.BodyCRC = r.Int(1<<40), r.Int(1<<40), uint32(r.Int(1<<32-1))
	front, nodes := r.Int(r.Len()), r.Int(r.Len())
	p.FrontMatter, p.Nodes = r.Bytes(front), r.Bytes(nodes)
	return p, r.Done()
}
