package build

import (
	"bufio"
	"bytes"
	"io/fs"
	"path"
	"sort"
	"strings"

	"sitegen/pkg/diag"
	"sitegen/pkg/render"
)

// formTemplatePos finds the template line that writes the <form> with the
// element id: a line holding "<form" and id="<id>" as written, or else
// the one template line of the page's templates (deps, when recorded) that
// writes a <form> whose id is a template expression. ok is false when no
// one line can be named.
func (s *Site) formTemplatePos(id string, deps render.Deps) (diag.Pos, bool) {
	var files []string
	if len(deps) > 0 {
		for k := range deps {
			if f, ok := strings.CutPrefix(k, "tpl:"); ok {
				files = append(files, f)
			}
		}
	} else {
		fs.WalkDir(s.fsys, "templates", func(p string, d fs.DirEntry, err error) error { //nolint:errcheck // a missing folder names nothing
			if err == nil && !d.IsDir() && path.Ext(p) == ".html" {
				files = append(files, p)
			}
			return nil
		})
	}
	sort.Strings(files)
	var templated []diag.Pos
	for _, f := range files {
		name := f
		if !strings.HasPrefix(name, "templates/") {
			name = path.Join("templates", f)
		}
		b, err := fs.ReadFile(s.fsys, name)
		if err != nil {
			continue
		}
		sc := bufio.NewScanner(bytes.NewReader(b))
		sc.Buffer(nil, 1<<20)
		for line := 1; sc.Scan(); line++ {
			t := sc.Text()
			col := strings.Index(t, "<form")
			if col < 0 {
				continue
			}
			pos := diag.Pos{File: name, Line: line, Col: col + 1}
			if strings.Contains(t[col:], `id="`+id+`"`) {
				return pos, true
			}
			if strings.Contains(t[col:], `id="{{`) {
				templated = append(templated, pos)
			}
		}
	}
	if len(templated) == 1 {
		return templated[0], true
	}
	return diag.Pos{}, false
}
