package content

import "unsafe"

// packStrings moves the page's front matter strings (id, slug, title,
// description, keywords, date, summary, tags, aliases, and the layout when
// given) into one allocation. The YAML decoder makes each a string of its
// own; a large site keeps every page's for the whole build, and the
// collector visits each of those objects on every cycle. Packed, a page
// holds one block of bytes without pointers instead of about eight
// strings, and the values are the same.
func packStrings(p *Page) {
	fields := []*string{&p.ID, &p.Title, &p.Description, &p.Keywords, &p.Date, &p.Summary}
	if p.layoutGiven {
		fields = append(fields, &p.Layout)
	}
	if p.Slug != nil {
		fields = append(fields, p.Slug)
	}
	for i := range p.Tags {
		fields = append(fields, &p.Tags[i])
	}
	for i := range p.Aliases {
		fields = append(fields, &p.Aliases[i].Path)
	}
	n := 0
	for _, f := range fields {
		n += len(*f)
	}
	if n == 0 {
		return
	}
	// buf is allocated once at its final size: the strings made from it
	// below stay valid because nothing appends to it afterwards.
	buf := make([]byte, 0, n)
	for _, f := range fields {
		if len(*f) == 0 {
			continue
		}
		start := len(buf)
		buf = append(buf, *f...)
		*f = unsafe.String(&buf[start], len(*f))
	}
}
