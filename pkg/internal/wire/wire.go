// Package wire reads the binary records sitegen keeps in its cache and
// indexes: encoding/binary varints and byte strings prefixed by their
// length. A Reader's first failure sticks (every later read returns zero
// values), so a decoder reads its fields and checks once, with Bad or Done.
package wire

import "encoding/binary"

// A Reader reads fields from the front of a byte slice.
type Reader struct {
	b   []byte
	bad bool
}

// NewReader reads b.
func NewReader(b []byte) *Reader { return &Reader{b: b} }

// Uvarint reads an unsigned varint.
func (r *Reader) Uvarint() uint64 {
	if r.bad {
		return 0
	}
	v, k := binary.Uvarint(r.b)
	if k <= 0 {
		r.bad = true
		return 0
	}
	r.b = r.b[k:]
	return v
}

// Varint reads a signed varint.
func (r *Reader) Varint() int64 {
	if r.bad {
		return 0
	}
	v, k := binary.Varint(r.b)
	if k <= 0 {
		r.bad = true
		return 0
	}
	r.b = r.b[k:]
	return v
}

// Int reads an unsigned varint that must be at most max.
func (r *Reader) Int(max int) int {
	v := r.Uvarint()
	if v > uint64(max) {
		r.bad = true
		return 0
	}
	return int(v)
}

// Bytes reads the next n bytes (a slice of the input, its capacity cut
// to n).
func (r *Reader) Bytes(n int) []byte {
	if r.bad || n < 0 || n > len(r.b) {
		r.bad = true
		return nil
	}
	v := r.b[:n:n]
	r.b = r.b[n:]
	return v
}

// Prefixed reads a byte string written after its length (Uvarint).
func (r *Reader) Prefixed() []byte {
	return r.Bytes(r.Int(len(r.b)))
}

// Len is how many bytes are left.
func (r *Reader) Len() int { return len(r.b) }

// Bad reports whether a read failed.
func (r *Reader) Bad() bool { return r.bad }

// Done reports whether every read succeeded and nothing is left.
func (r *Reader) Done() bool { return !r.bad && len(r.b) == 0 }
