package output

import "testing"

func TestMemCacheLimit(t *testing.T) {
	m := NewMemCache(10)
	if !m.Put("a", []byte("1234")) || !m.Put("b", []byte("5678")) {
		t.Fatal("a new file must count as changed")
	}
	m.Get("a") // a is now used after b
	if m.Put("a", []byte("1234")) {
		t.Error("the same bytes again reported as changed")
	}
	m.Put("c", []byte("9012")) // 12 bytes: b, used least recently, goes
	if _, ok := m.Get("b"); ok {
		t.Error("b kept past the limit")
	}
	for _, n := range []string{"a", "c"} {
		if _, ok := m.Get(n); !ok {
			t.Errorf("%s forgotten", n)
		}
	}
	if m.Bytes() != 8 || m.Files() != 2 {
		t.Errorf("holds %d bytes in %d files, want 8 in 2", m.Bytes(), m.Files())
	}
	m.Put("big", make([]byte, 50)) // larger than the limit: kept alone
	if _, ok := m.Get("big"); !ok || m.Files() != 1 {
		t.Errorf("the last file put must stay (files %d)", m.Files())
	}
	m.Drop("big")
	if m.Bytes() != 0 || m.Files() != 0 {
		t.Errorf("after Drop: %d bytes in %d files", m.Bytes(), m.Files())
	}
}
