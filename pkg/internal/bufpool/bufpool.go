// Package bufpool keeps byte buffers of one kind (a page's HTML, its page
// data) for reuse once their bytes are written: a build of 50,000 pages
// allocated a gigabyte of such buffers, and every byte allocated brings
// the next collection nearer.
package bufpool

import "sync"

// MaxKept is the largest buffer a Pool keeps: a larger one (a rare, long
// page) is left to the collector, so the pool holds no more than its
// users' usual buffers.
const MaxKept = 1 << 20

// Pool is a pool of byte buffers; the zero Pool is empty and ready.
type Pool struct{ p sync.Pool }

// Get returns an empty buffer with room for at least size bytes.
func (p *Pool) Get(size int) []byte {
	if b, ok := p.p.Get().(*[]byte); ok {
		if cap(*b) >= size {
			return (*b)[:0]
		}
	}
	return make([]byte, 0, size)
}

// Put gives b back for a later Get. The caller must not use b, or
// anything that shares its bytes, afterwards.
func (p *Pool) Put(b []byte) {
	if cap(b) == 0 || cap(b) > MaxKept {
		return
	}
	b = b[:0]
	p.p.Put(&b)
}
