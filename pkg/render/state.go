package render

import (
	"bytes"
	"fmt"
	"html/template"
	"sort"
)

// pageMarks is what rendering one page records as it goes: the islands it
// rendered, where the script slot is, and the edges of <main>. The
// template functions write it while the page is written; nothing is
// searched for in the finished HTML. The zero value is ready for a page.
type pageMarks struct {
	out                          *bytes.Buffer // the page's output, as the template writes it
	scripts, mainStart, mainEnd  int           // offsets in out
	hasScripts, hasStart, hasEnd bool
	islands                      []islandUse
}

type islandUse struct {
	name, directive string
	hydrated        bool
	// inMain: rendered after <main>'s start mark and before its end mark;
	// kind, media and chunk are how it hydrates.
	inMain             bool
	kind, media, chunk string
}

// MainIsland is an island that hydrates inside a page's <main>: what the
// page's island manifest lists.
type MainIsland struct {
	Name, Directive, Media, Chunk string
}

// inMain reports whether the output written now is inside <main>: the
// marks are set by base.html as it runs, in page order.
func (m *pageMarks) inMain() bool { return m.hasStart && !m.hasEnd }

// mainIslands returns the hydrated islands rendered inside <main>, in order.
func (m *pageMarks) mainIslands() []MainIsland {
	if !m.hasStart || !m.hasEnd {
		return nil // no <main>: no page data
	}
	var out []MainIsland
	for _, u := range m.islands {
		if u.inMain && u.hydrated {
			out = append(out, MainIsland{Name: u.name, Directive: u.kind, Media: u.media, Chunk: u.chunk})
		}
	}
	return out
}

// slot records the script slot at the current end of the output, which is
// where the calling action's (empty) result goes.
func (st *execState) slot() (template.HTML, error) {
	m := &st.marks
	switch {
	case m.out == nil:
		return "", nil
	case st.partials > 0:
		return "", fmt.Errorf("scripts: call it in base.html or a template it includes, not inside partial or a section")
	case m.hasScripts:
		return "", fmt.Errorf("scripts: called twice on one page")
	}
	m.scripts, m.hasScripts = m.out.Len(), true
	return "", nil
}

// mark records the current end of the output as one edge of <main>.
func (st *execState) mark(end bool) string {
	m := &st.marks
	if m.out == nil || st.partials > 0 {
		return ""
	}
	if end {
		m.mainEnd, m.hasEnd = m.out.Len(), true
	} else {
		m.mainStart, m.hasStart = m.out.Len(), true
	}
	return ""
}

// main returns where in out the page rendered the inside of <main>, and
// whether it has one.
func (m *pageMarks) main() (start, end int, ok bool) {
	if !m.hasStart || !m.hasEnd || m.out == nil || m.mainEnd < m.mainStart || m.mainEnd > m.out.Len() {
		return 0, 0, false
	}
	return m.mainStart, m.mainEnd, true
}

// hydrated returns the names of the islands that hydrate on the page, and
// of those that hydrate at once (load, idle), sorted.
func (m *pageMarks) hydrated() (all, eager []string) {
	seen := map[string]bool{}
	for _, u := range m.islands {
		if !u.hydrated {
			continue
		}
		if !seen[u.name] {
			seen[u.name] = true
			all = append(all, u.name)
		}
		if (u.directive == "load" || u.directive == "idle") && !seen["eager:"+u.name] {
			seen["eager:"+u.name] = true
			eager = append(eager, u.name)
		}
	}
	sort.Strings(all)
	sort.Strings(eager)
	return all, eager
}
