package output

import (
	"container/list"
	"fmt"
	"path"
	"sort"
	"sync"
)

// Writer is where a build puts its output: a Tree (a folder on disk,
// replaced atomically) or a MemTree (check, the dev server, tests). A
// build calls WriteFile from many goroutines at once, and uses data's
// buffer again once WriteFile returns: a Writer keeps no part of it.
type Writer interface {
	WriteFile(rel string, data []byte) error
	Files() int
	Bytes() int64
}

// MemTree is an output tree in memory. Without a limit it keeps every file
// (check reads a whole build from one). With one (NewMemCache) it is the dev
// server's cache of rendered bytes: it keeps the files used last, up to
// that many bytes, and Put reports whether a file's bytes changed.
type MemTree struct {
	mu    sync.Mutex
	Data  map[string][]byte // slash path below the root -> bytes
	bytes int64
	limit int64                    // 0: none
	lru   *list.List               // of names, used last at the front (limit only)
	at    map[string]*list.Element // name -> its place in lru
}

// NewMemTree returns an empty tree without a limit.
func NewMemTree() *MemTree { return &MemTree{Data: map[string][]byte{}} }

// NewMemCache returns an empty tree that keeps at most limit bytes (at
// least the last file put), forgetting the files used least recently.
func NewMemCache(limit int64) *MemTree {
	return &MemTree{Data: map[string][]byte{}, limit: limit, lru: list.New(), at: map[string]*list.Element{}}
}

// WriteFile stores data at rel, which must be a clean relative path written
// once.
func (m *MemTree) WriteFile(rel string, data []byte) error {
	if rel == "" || path.Clean(rel) != rel || path.IsAbs(rel) || rel == ".." || len(rel) > 2 && rel[:3] == "../" {
		return fmt.Errorf("output path %q is not a clean relative path", rel)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, dup := m.Data[rel]; dup {
		return fmt.Errorf("output path %s is written twice", rel)
	}
	m.set(rel, append([]byte(nil), data...))
	return nil
}

// Put stores data at name, replacing what was there, and reports whether
// the bytes differ from those it had (a file it did not have differs).
func (m *MemTree) Put(name string, data []byte) (changed bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	old, ok := m.Data[name]
	m.set(name, data)
	return !ok || string(old) != string(data)
}

// Get returns the bytes at name (not to be modified), marking them used.
func (m *MemTree) Get(name string) ([]byte, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	b, ok := m.Data[name]
	if ok && m.lru != nil {
		m.lru.MoveToFront(m.at[name])
	}
	return b, ok
}

// Drop forgets the file at name, if any.
func (m *MemTree) Drop(name string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.drop(name)
}

func (m *MemTree) set(name string, data []byte) {
	m.drop(name)
	m.Data[name] = data
	m.bytes += int64(len(data))
	if m.lru == nil {
		return
	}
	m.at[name] = m.lru.PushFront(name)
	for m.bytes > m.limit && m.lru.Len() > 1 {
		m.drop(m.lru.Back().Value.(string))
	}
}

func (m *MemTree) drop(name string) {
	b, ok := m.Data[name]
	if !ok {
		return
	}
	delete(m.Data, name)
	m.bytes -= int64(len(b))
	if m.lru != nil {
		m.lru.Remove(m.at[name])
		delete(m.at, name)
	}
}

// Files is the number of files held.
func (m *MemTree) Files() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.Data)
}

// Bytes is the number of bytes held.
func (m *MemTree) Bytes() int64 {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.bytes
}

// Names lists the paths held, sorted.
func (m *MemTree) Names() []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := make([]string, 0, len(m.Data))
	for n := range m.Data {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}
