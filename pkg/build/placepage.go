package build

import (
	"encoding/binary"

	"sitegen/pkg/diag"
	"sitegen/pkg/internal/wire"
	"sitegen/pkg/output"
	"sitegen/pkg/route"
)

// pageSums are the digests (output.Sum) and sizes of a rendered page's
// files: its HTML, its page data and its island manifest (none: RSCLen 0).
// The page cache keeps them with the page, so that a warm build neither
// hashes a page taken from the cache nor makes its page data again when
// the spare holds those bytes already (placePage).
type pageSums struct {
	HTML, Data, RSC          [16]byte
	HTMLLen, DataLen, RSCLen int
}

func newPageSums(html, data, rsc []byte) *pageSums {
	s := &pageSums{HTML: output.Sum(html), Data: output.Sum(data), HTMLLen: len(html), DataLen: len(data), RSCLen: len(rsc)}
	if len(rsc) > 0 {
		s.RSC = output.Sum(rsc)
	}
	return s
}

// append encodes s after b (pageEntry.encode).
func (s *pageSums) append(b []byte) []byte {
	b = append(append(append(b, s.HTML[:]...), s.Data[:]...), s.RSC[:]...)
	b = binary.AppendUvarint(b, uint64(s.HTMLLen))
	b = binary.AppendUvarint(b, uint64(s.DataLen))
	return binary.AppendUvarint(b, uint64(s.RSCLen))
}

// read decodes what append wrote from r.
func (s *pageSums) read(r *wire.Reader) {
	for _, sum := range []*[16]byte{&s.HTML, &s.Data, &s.RSC} {
		copy(sum[:], r.Bytes(16))
	}
	for _, n := range []*int{&s.HTMLLen, &s.DataLen, &s.RSCLen} {
		*n = r.Int(1 << 40)
	}
}

// pageFileSums lists the files of a page whose sums are known (all but a
// home page's slices) with their sizes and sums.
func (s *Site) pageFileSums(e *route.Entry, sums *pageSums) map[string]fileSum {
	files := s.entryFiles(e)
	out := make(map[string]fileSum, len(files)+1)
	for _, f := range files {
		out[f] = fileSum{sums.HTMLLen, sums.HTML}
	}
	out[files[1]] = fileSum{sums.DataLen, sums.Data}
	if sums.RSCLen > 0 {
		out[output.RSCPath(e)] = fileSum{sums.RSCLen, sums.RSC}
	}
	return out
}

type fileSum struct {
	size int
	sum  [16]byte
}

// keepPage keeps every file of a page from the cache where the spare out
// is staged in holds those bytes already, and reports whether it did; it
// keeps none when one is missing (placePage then writes the page). A home
// page, which also writes its locale's slices, is always laid out whole.
func (s *Site) keepPage(out *outTree, e *route.Entry, sums *pageSums) bool {
	if e.Home {
		return false
	}
	files := s.pageFileSums(e, sums)
	for name, f := range files {
		if !out.holds(name, f.size, f.sum) {
			return false
		}
	}
	for name, f := range files {
		if !out.keep(name, f.size, f.sum) {
			return false // the build was stopped meanwhile: nothing more is written
		}
	}
	return true
}

// placePage writes a rendered page's files to out. A page whose sums are
// known is written without hashing its bytes again; a page taken from the
// cache (pageData set) keeps each file the spare already holds, and makes
// its page data only when a file it writes needs it. A page kept whole by
// the cache (kept) has nothing left to write.
func (s *Site) placePage(r *rendered, out *outTree) diag.List {
	if r.kept {
		return nil
	}
	var sums map[string]fileSum
	kept := map[string]bool{}
	if r.sums != nil {
		sums = s.pageFileSums(r.entry, r.sums)
		if r.pageData != nil && !r.entry.Home {
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
