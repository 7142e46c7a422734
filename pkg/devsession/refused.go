package devsession

import (
	"sitegen/pkg/diag"
)

// A load or update whose site a build refuses does not wait for every
// page to render: its pages render for their errors one at a time
// (CheckNext), as requests of the last good site's pages allow, and
// Problems has the errors a build reports, all of them once every page
// has rendered (build.Site.Errors).

// outcome records how a load or update ended (Session.refused, failed).
func (d *Session) outcome(res *Result, err error) (*Result, error) {
	switch {
	case err == nil:
		d.dropRefused()
		d.failed = nil
	case d.refusing:
		d.refusing = false
		d.failed = nil
	default:
		d.dropRefused()
		d.failed = nil
		d.failed.AddErr(diag.Pos{}, err)
	}
	return res, err
}

// refuse keeps st, a site a build refuses, in the place of the last one
// (Session.refused), and returns the errors found without rendering.
func (d *Session) refuse(st *state) error {
	d.dropRefused()
	d.refused, d.refusing = st, true
	return st.problems().Err()
}

// dropRefused forgets the refused site, with its island engines when no
// good site uses them.
func (d *Session) dropRefused() {
	r := d.refused
	d.refused = nil
	if r == nil || r.site.Islands == nil || d.good != nil && d.good.site.Islands == r.site.Islands {
		return
	}
	r.site.Islands.Close()
}

// current is the site whose errors Problems reports and whose pages
// CheckNext renders: the refused one, or else the good one.
func (d *Session) current() *state {
	if d.refused != nil {
		return d.refused
	}
	return d.good
}
