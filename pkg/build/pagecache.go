package build

import (
	"encoding/binary"
	"encoding/json"
	"sort"
	"strconv"
	"sync"
	"sync/atomic"

	"sitegen/pkg/cache"
	"sitegen/pkg/internal/bufpool"
	"sitegen/pkg/internal/wire"
	"sitegen/pkg/render"
	"sitegen/pkg/route"
)

// pageCache keeps each page's output (its HTML, page data and island
// manifest: the final bytes written) in the persistent build cache, under
// a key of the build's salt and the page's own source, with a trace of
// everything else its render read (render.TraceDigest). A page is taken
// from the cache only when every input of its trace is the same again;
// otherwise it is rendered and stored anew. A nil *pageCache caches and
// counts nothing.
type pageCache struct {
	store *cache.Store
	salt  []byte
	r     *render.Renderer
	// pageData makes a page's page data and island manifest from its HTML
	// and <main> (Site.pageData): an entry keeps where <main> is in the
	// HTML instead of a second copy of it in the page data.
	pageData func(*route.Entry, *render.Result) (data, rsc []byte, err error)

	// keep, when set (a build staging its tree in a spare), keeps every
	// file of a page from the cache where the spare holds those bytes
	// already, and reports whether it did: the page's HTML is then not
	// read from the cache at all, nor needed there (Site.keepPage; a site
	// too large for the cache keeps each page's entry, not its HTML).
	keep func(*route.Entry, *pageSums) bool
	// formDigest is the digest of the site's form schemas (Site.forms): a
	// page checked against them needs no check again.
	formDigest func() string

	// entryBufs are the buffers pages' entries are encoded into, free
	// once Put has copied them.
	entryBufs bufpool.Pool

	hits, renders atomic.Int64
	mu            sync.Mutex
	rendered      []string // URLs of the pages rendered (not taken from the cache)
}

// pageEntry is one cached page. Its HTML is an entry of its own (htmlKey):
// a page whose files the spare holds is kept without it.
type pageEntry struct {
	Trace []traceItem
	HTML  []byte // not encoded
	// Main is where the page's <main> HTML sits in HTML (offset and
	// length): the page data and island manifest are made from it again
	// on a hit, as a render makes them.
	Main     [2]int
	Islands  []string
	Pictures []render.PictureUse
	// MainIslands are the islands rendering recorded in <main>, for the
	// island manifest.
	MainIslands []render.MainIsland
	// FormChecked is the digest of the form schema the page's form matched
	// ("" when it has none): checked again only when the schema changed.
	FormChecked string
	Styles      []string // CSP hashes of its <style>s and inline scripts (output.InlineHashes)
	// Sums are the digests and sizes of the page's files, made when it
	// was stored: a warm build keeps the files the spare holds without
	// hashing them or making the page data again (see placePage).
	Sums pageSums
}

type traceItem struct{ Dep, Digest string }

func (c *pageCache) key(e *route.Entry) cache.Key {
	flags := "root=" + strconv.FormatBool(e.Root) + " fallback=" + strconv.FormatBool(e.Fallback) +
		" error=" + strconv.FormatBool(e.Error) + " notfound=" + strconv.FormatBool(e.NotFound)
	own, _ := c.r.TraceDigest(render.DepFile(e.Page.File))
	return cache.NewKey(c.salt, []byte("page-9"), []byte(e.Lang), []byte(e.ID), []byte(e.URL), []byte(flags), []byte(own))
}

// htmlKey is the key of the HTML of the page stored under k.
func htmlKey(k cache.Key) cache.Key { return cache.NewKey([]byte("page-html"), k[:]) }

// lookup returns the page from the cache when its trace still holds. A
// page whose files c.keep keeps comes without its bytes (rendered.kept).
func (c *pageCache) lookup(e *route.Entry) (rendered, bool) {
	if c == nil || c.store == nil {
		return rendered{}, false
	}
	k := c.key(e)
	b, ok := c.store.Get(k)
	if !ok {
		return rendered{}, false
	}
	var pe pageEntry
	if !pe.decode(b) {
		return rendered{}, false
	}
	deps := make([]string, len(pe.Trace))
	for i, t := range pe.Trace {
		if d, ok := c.r.TraceDigest(t.Dep); !ok || d != t.Digest {
			return rendered{}, false
		}
		deps[i] = t.Dep
	}
	if err := c.r.Replay(e.Lang, deps, pe.Pictures); err != nil {
		return rendered{}, false // rendering reports it
	}
	r := rendered{entry: e, sums: &pe.Sums, islands: pe.Islands, mainIslands: pe.MainIslands, formChecked: pe.FormChecked, styles: pe.Styles}
	switch {
	case c.keep != nil && c.formDigest != nil && pe.FormChecked == c.formDigest() && c.keep(e, &pe.Sums):
		r.kept = true
	default:
		html, ok := c.store.Get(htmlKey(k))
		off, n := pe.Main[0], pe.Main[1]
		if !ok || len(html) != pe.Sums.HTMLLen || off < 0 || n < 0 || off+n > len(html) {
			return rendered{}, false
		}
		res := &render.Result{HTML: html, Main: string(html[off : off+n]), MainIslands: pe.MainIslands}
		r.html = html
		r.pageData = func() ([]byte, []byte, error) { return c.pageData(e, res) }
	}
	if !e.Root {
		c.hits.Add(1)
	}
	return r, true
}

// done counts a rendered page and stores it when its render succeeded and
// every input it recorded can be traced; it gives the page its sums (the
// tree writes them without hashing the bytes again).
func (c *pageCache) done(r *rendered) {
	if c == nil {
		return
	}
	if r.err == nil {
		r.sums = newPageSums(r.html, r.data, r.rsc)
	}
	if !r.entry.Root {
		c.renders.Add(1)
	}
	c.mu.Lock()
	c.rendered = append(c.rendered, r.entry.URL)
	c.mu.Unlock()
	if c.store == nil || r.err != nil || r.formErr != nil || r.deps == nil {
		return
	}
	off := r.mainAt
	if off < 0 || off+len(r.main) > len(r.html) { // not where the page data took it from: not kept
		return
	}
	pe := pageEntry{HTML: r.html, Main: [2]int{off, len(r.main)}, Islands: r.islands, MainIslands: r.mainIslands, Pictures: r.pictures,
		FormChecked: r.formChecked, Styles: r.styles, Sums: *r.sums, Trace: make([]traceItem, 0, len(r.deps))}
	for _, k := range r.deps.Sorted() {
		d, ok := c.r.TraceDigest(k)
		if !ok {
			return
		}
		pe.Trace = append(pe.Trace, traceItem{k, d})
	}
	buf := c.entryBufs.Get(64*len(pe.Trace) + 256)
	defer func() { c.entryBufs.Put(buf) }()
	parts, err := pe.encode(buf)
	if err != nil {
		return
	}
	// The entry goes in even when its HTML no longer fits the cache: a
	// later build keeps the page's files by it alone (lookup).
	k := c.key(r.entry)
	if c.store.Room(len(r.html)) {
		c.store.Put(htmlKey(k), r.html)
	}
	c.store.Put(k, parts...)
}

// stats returns the pages rendered, their URLs sorted, and the pages taken
// from the cache. The counts leave out the root page (a copy of a home
// page, not counted as a page of the site); the URLs do not.
func (c *pageCache) stats() (rendered int, urls []string, cached int) {
	if c == nil {
		return 0, nil, 0
	}
	c.mu.Lock()
	urls = append([]string(nil), c.rendered...)
	c.mu.Unlock()
	sort.Strings(urls)
	return int(c.renders.Load()), urls, int(c.hits.Load())
}

// encode writes the entry as length-prefixed fields (a page is read back in
// every warm build: this is several times cheaper to decode than gob), its
// first part into buf. The page's bytes are not copied: the parts are
// written one after the other.
func (pe *pageEntry) encode(buf []byte) ([][]byte, error) {
	pics, err := json.Marshal(pe.Pictures)
	if err != nil {
		return nil, err
	}
	mainIslands, err := json.Marshal(pe.MainIslands)
	if err != nil {
		return nil, err
	}
	var parts [][]byte
	b := buf[:0]
	put := func(v []byte) {
		b = binary.AppendUvarint(b, uint64(len(v)))
		if len(v) > 1024 { // a page's bytes: a part of their own
			parts = append(parts, b, v)
			b = make([]byte, 0, 64)
			return
		}
		b = append(b, v...)
	}
	b = binary.AppendUvarint(b, uint64(len(pe.Trace)))
	for _, t := range pe.Trace {
		put([]byte(t.Dep))
		put([]byte(t.Digest))
	}
	for _, list := range [][]string{pe.Islands, pe.Styles} {
		b = binary.AppendUvarint(b, uint64(len(list)))
		for _, n := range list {
			put([]byte(n))
		}
	}
	b = binary.AppendUvarint(b, uint64(pe.Main[0]))
	b = binary.AppendUvarint(b, uint64(pe.Main[1]))
	for _, v := range [][]byte{pics, mainIslands, []byte(pe.FormChecked)} {
		put(v)
	}
	return append(parts, pe.Sums.append(b)), nil
}

// decode reads what encode wrote; false when b is not such an entry.
func (pe *pageEntry) decode(b []byte) bool {
	r := wire.NewReader(b)
	n := r.Int(r.Len())
	pe.Trace = make([]traceItem, 0, n)
	for i := 0; i < n && !r.Bad(); i++ {
		pe.Trace = append(pe.Trace, traceItem{string(r.Prefixed()), string(r.Prefixed())})
	}
	for _, list := range []*[]string{&pe.Islands, &pe.Styles} {
		n = r.Int(r.Len())
		for i := 0; i < n && !r.Bad(); i++ {
			*list = append(*list, string(r.Prefixed()))
		}
	}
	for i := range pe.Main { // offsets into the HTML (checked once it is read)
		pe.Main[i] = r.Int(1 << 40)
	}
	pics, mainIslands := r.Prefixed(), r.Prefixed()
	pe.FormChecked = string(r.Prefixed())
	pe.Sums.read(r)
	if !r.Done() {
		return false
	}
	if pe.Main[0]+pe.Main[1] > pe.Sums.HTMLLen { // <main> outside the HTML
		return false
	}
	return unmarshalOrNull(pics, &pe.Pictures) && unmarshalOrNull(mainIslands, &pe.MainIslands)
}

// unmarshalOrNull decodes the JSON b into v; "null" (most pages' pictures
// and islands) leaves v as it is without a decoder's cost.
func unmarshalOrNull(b []byte, v any) bool {
	return string(b) == "null" || json.Unmarshal(b, v) == nil
}
