package build

import (
	"encoding/binary"

	"sitegen/pkg/diag"
	"sitegen/pkg/output"
)

// pageSums are the digests (output.Sum) and sizes of a rendered page's
// files: its HTML, its page data and its island manifest (none: rscLen 0).
// The page cache keeps them with the page, so that a warm build neither
// hashes a page taken from the cache nor makes its page data again when
// the spare holds those bytes already (placePage).
type pageSums struct {
	HTML, Data, RSC [16]byte
	DataLen, RSCLen int
}

func newPageSums(html, data, rsc []byte) *pageSums {
	s := &pageSums{HTML: output.Sum(html), Data: output.Sum(data), DataLen: len(data), RSCLen: len(rsc)}
	if len(rsc) > 0 {
		s.RSC = output.Sum(rsc)
	}
	return s
}

// append encodes s after b (pageEntry.encode).
func (s *pageSums) append(b []byte) []byte {
	b = append(append(append(b, s.HTML[:]...), s.Data[:]...), s.RSC[:]...)
	b = binary.AppendUvarint(b, uint64(s.DataLen))
	return binary.AppendUvarint(b, uint64(s.RSCLen))
}

// read decodes what append wrote at the start of b and returns the rest;
// bad when b does not start with sums.
func (s *pageSums) read(b []byte) (rest []byte, bad bool) {
	if len(b) < 48 {
		return b, true
	}
	s.HTML, s.Data, s.RSC = [16]byte(b[:16]), [16]byte(b[16:32]), [16]byte(b[32:48])
	b = b[48:]
	for _, n := range []*int{&s.DataLen, &s.RSCLen} {
		v, k := binary.Uvarint(b)
		if k <= 0 || v > 1<<40 {
			return b, true
		}
		*n, b = int(v), b[k:]
	}
	return b, false
}

// placePage writes a rendered page's files to out. A page whose sums are
// known is written without hashing its bytes again; a page taken from the
// cache (pageData set) keeps each file the spare already holds, and makes
// its page data only when a file it writes needs it.
func (s *Site) placePage(r *rendered, out *outTree) diag.List {
	type known struct {
		size int
		sum  [16]byte
	}
	var sums map[string]known
	kept := map[string]bool{}
	if r.sums != nil {
		files := s.entryFiles(r.entry)
		sums = make(map[string]known, len(files)+1)
		for _, f := range files {
			sums[f] = known{len(r.html), r.sums.HTML}
		}
		sums[files[1]] = known{r.sums.DataLen, r.sums.Data}
		if r.sums.RSCLen > 0 {
			sums[output.RSCPath(r.entry)] = known{r.sums.RSCLen, r.sums.RSC}
		}
		if r.pageData != nil && r.entry.ID != "home" { // a home page also writes its locale's slices: laid out whole
			all := true
			for name, k := range sums {
				if out.keep(name, k.size, k.sum) {
					kept[name] = true
				} else {
					all = false
				}
			}
			if all {
				return nil
			}
		}
	}
	if r.pageData != nil {
		var err error
		if r.data, r.rsc, err = r.pageData(); err != nil {
			return diag.List{diag.New(diag.Pos{File: r.entry.Page.File}, "page data of %s: %v", r.entry.URL, err)}
		}
	}
	return s.pageFiles(r, func(name string, b []byte) {
		switch k, ok := sums[name]; {
		case kept[name]:
		case ok && k.size == len(b):
			out.writeSum(name, b, k.sum)
		default:
			out.write(name, b)
		}
	})
}
