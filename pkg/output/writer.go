package output

import (
	"fmt"
	"path"
	"sort"
	"sync"
)

// Writer is where a build puts its output: a Tree (a folder on disk,
// replaced atomically) or a MemTree (tests, tools). A build calls WriteFile
// from many goroutines at once.
type Writer interface {
	WriteFile(rel string, data []byte) error
	Files() int
	Bytes() int64
}

// MemTree is an output tree in memory.
type MemTree struct {
	mu    sync.Mutex
	Data  map[string][]byte // slash path below the root -> bytes
	bytes int64
}

// NewMemTree returns an empty tree.
func NewMemTree() *MemTree { return &MemTree{Data: map[string][]byte{}} }

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
	m.Data[rel] = append([]byte(nil), data...)
	m.bytes += int64(len(data))
	return nil
}

// Files is the number of files written.
func (m *MemTree) Files() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.Data)
}

// Bytes is the number of bytes written.
func (m *MemTree) Bytes() int64 {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.bytes
}

// Names lists the written paths, sorted.
func (m *MemTree) Names() []string {
	out := make([]string, 0, len(m.Data))
	for n := range m.Data {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}
