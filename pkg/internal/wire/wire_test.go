package wire

import (
	"encoding/binary"
	"testing"
)

func TestReader(t *testing.T) {
	var b []byte
	b = binary.AppendUvarint(b, 300)
	b = binary.AppendVarint(b, -5)
	b = binary.AppendUvarint(b, 3)
	b = append(b, "abc"...)
	b = append(b, 0xff, 0xfe)

	r := NewReader(b)
	if v := r.Uvarint(); v != 300 {
		t.Fatalf("Uvarint = %d", v)
	}
	if v := r.Varint(); v != -5 {
		t.Fatalf("Varint = %d", v)
	}
	p := r.Prefixed()
	if string(p) != "abc" || cap(p) != 3 {
		t.Fatalf("Prefixed = %q (cap %d)", p, cap(p))
	}
	if r.Done() || r.Len() != 2 {
		t.Fatalf("Done with %d bytes left", r.Len())
	}
	if v := r.Bytes(2); len(v) != 2 || !r.Done() {
		t.Fatalf("Bytes(2) = %v, done %t", v, r.Done())
	}

	cases := []struct {
		name string
		in   []byte
		read func(*Reader)
	}{
		{"varint cut short", []byte{0x80}, func(r *Reader) { r.Uvarint() }},
		{"signed varint cut short", []byte{0x80}, func(r *Reader) { r.Varint() }},
		{"length past the end", append(binary.AppendUvarint(nil, 4), "abc"...), func(r *Reader) { r.Prefixed() }},
		{"bytes past the end", []byte("ab"), func(r *Reader) { r.Bytes(3) }},
		{"negative length", []byte("ab"), func(r *Reader) { r.Bytes(-1) }},
		{"int over its bound", binary.AppendUvarint(nil, 11), func(r *Reader) { r.Int(10) }},
	}
	for _, c := range cases {
		r := NewReader(c.in)
		c.read(r)
		if !r.Bad() || r.Done() {
			t.Errorf("%s: not bad", c.name)
		}
		// The failure sticks: a read that would succeed on what is left
		// returns nothing.
		if v := r.Bytes(0); v != nil || r.Uvarint() != 0 {
			t.Errorf("%s: a read after the failure returned something", c.name)
		}
	}
}
