package content

import (
	"bytes"
	"errors"
	"fmt"
	"hash/crc32"
	"io/fs"
	"reflect"

	"sitegen/pkg/sitefs"
)

// A page's Markdown body is the largest part of a site's source: a build of
// 50,000 pages would hold a quarter of a gigabyte of it from load to the last
// render. With Options.LazyBodies, Load keeps only the body's length and
// checksum, and Body reads it again when the page is rendered.

var crcTable = crc32.MakeTable(crc32.Castagnoli)

// bodyRef locates a body dropped after loading.
type bodyRef struct {
	len     int
	sum     uint32
	dropped bool
}

// normalize is what ParsePage does to a file before splitting it.
func normalize(src []byte) []byte {
	src = bytes.TrimPrefix(src, []byte("\xef\xbb\xbf"))
	if bytes.IndexByte(src, '\r') < 0 {
		return src // most files: no copy
	}
	return bytes.ReplaceAll(src, []byte("\r\n"), []byte("\n"))
}

// dropBody forgets the page's body, keeping what LoadBody needs to find it
// again and to notice a file edited in between.
func (p *Page) dropBody() {
	if p.lazy.dropped { // never held (a page file known from an earlier build)
		return
	}
	p.lazy = bodyRef{len: len(p.Body), sum: crc32.Checksum(p.Body, crcTable), dropped: true}
	p.Body = nil
}

// LoadBody returns the page's Markdown body: Body when it is held, else the
// body read again from p.File in fsys (the tree Load read it from).
func (p *Page) LoadBody(fsys fs.FS) ([]byte, error) {
	body, _, err := p.LoadBodyBuf(fsys, nil)
	return body, err
}

// LoadBodyBuf is LoadBody reading the file into buf when fsys can and buf
// has room (sitefs.FS.ReadFileBuf); read is the buffer the file was read
// into (nil when the body is held), which the caller may use again once it
// is done with the body.
func (p *Page) LoadBodyBuf(fsys fs.FS, buf []byte) (body, read []byte, err error) {
	if !p.lazy.dropped {
		return p.Body, nil, nil
	}
	src, err := sitefs.ReadFileBuf(fsys, buf, p.File, -1)
	if err != nil {
		return nil, nil, fmt.Errorf("cannot read the page again: %w", err)
	}
	read = src
	src = normalize(src)
	if len(src) < p.lazy.len {
		return nil, read, errChanged
	}
	body = src[len(src)-p.lazy.len:]
	if crc32.Checksum(body, crcTable) != p.lazy.sum {
		return nil, read, errChanged
	}
	return body, read, nil
}

var errChanged = errors.New("the file changed during the build; build again")

// SameFrontMatter reports whether two parses of a page file differ at most
// in the body (and so in the digest of the whole file, Sum).
func (p *Page) SameFrontMatter(q *Page) bool {
	x, y := *p, *q
	x.Body, y.Body, x.lazy, y.lazy = nil, nil, bodyRef{}, bodyRef{}
	x.Sum, y.Sum = [32]byte{}, [32]byte{}
	return reflect.DeepEqual(x, y)
}

// TakeBody gives p the body of q, a parse of the same file with the same
// front matter (SameFrontMatter), keeping p itself.
func (p *Page) TakeBody(q *Page) {
	p.Body, p.BodyLine, p.Sum, p.lazy = q.Body, q.BodyLine, q.Sum, q.lazy
}
