package bufpool

import "testing"

// TestPool: a buffer put back is handed out again, empty, when it has room
// for what is asked; one too small or too large to keep is not.
func TestPool(t *testing.T) {
	var p Pool
	b := p.Get(100)
	if len(b) != 0 || cap(b) < 100 {
		t.Fatalf("Get(100) = len %d cap %d", len(b), cap(b))
	}
	b = append(b, "page"...)
	p.Put(b)
	// sync.Pool may drop what it holds at any time (a collection): only
	// what it hands out is checked, never that it keeps anything.
	if c := p.Get(50); len(c) != 0 || cap(c) < 50 {
		t.Errorf("Get(50) after a Put = len %d cap %d", len(c), cap(c))
	}
	p.Put(make([]byte, 0, 10))
	if c := p.Get(100); cap(c) < 100 {
		t.Errorf("Get(100) with a 10-byte buffer kept = cap %d", cap(c))
	}
	huge := make([]byte, 0, MaxKept+1)
	p.Put(huge)
	if c := p.Get(1); cap(c) == cap(huge) {
		t.Errorf("a buffer over MaxKept was kept")
	}
}
