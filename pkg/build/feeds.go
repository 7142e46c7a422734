package build

import (
	"time"

	"sitegen/pkg/diag"
	"sitegen/pkg/render"

	"sitegen/pkg/output"
	"sitegen/pkg/route"
)

// feedFiles writes the RSS and Atom feeds of each list site.yaml names, in
// every locale the list page is in, and of every term of a taxonomy it
// names (output.NewFeed).
func (s *Site) feedFiles(emit func(name string, b []byte)) error {
	if len(s.Config.Feeds) == 0 {
		return nil
	}
	day := time.Now().UTC().Truncate(24 * time.Hour)
	if s.Renderer != nil {
		if d, err := time.Parse("2006-01-02", s.Renderer.BuildDate()); err == nil {
			day = d
		}
	}
	for _, fc := range s.Config.Feeds {
		for _, l := range s.Config.Locales {
			var lists []*route.Entry
			if fc.Terms != "" { // a feed per term of the taxonomy
				for _, t := range s.Plan.Terms(l.Code, fc.Terms) {
					if e, ok := s.Plan.Lookup(l.Code, route.TermID(fc.Terms, t.Slug)); ok {
						lists = append(lists, e)
					}
				}
			} else if list, ok := s.Plan.Lookup(l.Code, fc.List); ok { // else reported by the route plan
				lists = append(lists, list)
			}
			for _, list := range lists {
				if err := writeFeed(s.Plan, list, s.Config.BaseURL, s.Config.Title, fc.Items, day, emit); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

func writeFeed(plan *route.Plan, list *route.Entry, baseURL, title string, items int, day time.Time, emit func(string, []byte)) error {
	f := output.NewFeed(plan, list, baseURL, title, items, day)
	rss, err := f.RSS2()
	if err != nil {
		return err
	}
	atom, err := f.Atom1()
	if err != nil {
		return err
	}
	rp, ap := output.FeedPaths(list)
	emit(rp, rss)
	emit(ap, atom)
	return nil
}

// templateFiles writes the files of templates/files/ (render.FilesDir), each
// rendered once per locale to <prefix>/<name>.
func (s *Site) templateFiles(emit func(name string, b []byte)) error {
	if s.Renderer == nil {
		return nil
	}
	names := s.Renderer.FileTemplates()
	var errs diag.List
	for _, name := range names {
		for _, l := range s.Config.Locales {
			b, err := s.Renderer.RenderFile(l.Code, name)
			if err != nil {
				errs.AddErr(diag.Pos{File: render.FilesDir + "/" + name}, err)
				break // the same error in every locale
			}
			emit(s.Renderer.FilePath(l.Code, name), b)
		}
	}
	return errs.Err()
}
