package build

import (
	"strings"

	"sitegen/pkg/diag"
	"sitegen/pkg/output"
	"sitegen/pkg/route"
)

// entryFiles lists the files a page entry writes: its page, its page data
// and, for the error pages, the 404.html and 500.html hosts look for.
func (s *Site) entryFiles(e *route.Entry) []string {
	files := []string{strings.TrimPrefix(e.URL, "/") + "index.html", output.PageDataPath(e)}
	if e.Error {
		name := "500.html"
		if e.NotFound {
			name = "404.html"
		}
		l, _ := s.Config.Locale(e.Lang)
		files = append(files, strings.TrimPrefix(l.Prefix, "/")+"/"+name)
		if e.Lang == s.Config.DefaultLocale().Code {
			files = append(files, name)
		}
	}
	return files
}

// pageFiles lays out the files of one rendered entry: the files entryFiles
// names, its island manifest when <main> has islands, and, from a locale's
// home page, the locale's header and footer slices. It is how build and
// the dev server place a page.
func (s *Site) pageFiles(r *rendered, emit func(name string, b []byte)) diag.List {
	files := s.entryFiles(r.entry)
	emit(files[0], r.html)
	emit(files[1], r.data)
	for _, f := range files[2:] {
		emit(f, r.html)
	}
	if r.rsc != nil {
		emit(output.RSCPath(r.entry), r.rsc)
	}
	if r.entry.Home && !r.entry.Root {
		return writeSlices(r.entry.Lang, r.html, emit)
	}
	return nil
}

// writeSlices writes a locale's shared header and footer, cut from its home page.
func writeSlices(lang string, page []byte, writeFile func(string, []byte)) diag.List {
	var errs diag.List
	parts, ok := output.Slices(page)
	if !ok {
		// Templates without a <main>: no slices; the runtime then loads a
		// page of another locale in full.
		return errs
	}
	for name, slice := range output.SlicesMap(lang) {
		b, err := output.JSON(output.Slice{Name: slice, HTML: parts[name]})
		if err != nil {
			errs.Addf(diag.Pos{File: output.SliceDataPath(slice)}, "%v", err)
			continue
		}
		writeFile(output.SliceDataPath(slice), b)
	}
	return errs
}
