package render

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// templatesFrom builds four templates t0..t3 from ops: each byte is one
// piece of a body (text, a {{ template }} call, a call under {{ if }},
// {{ with }} or {{ range }}, or a {{ block }}), so any call graph, cycles
// included, comes out, and nothing else can loop.
func templatesFrom(ops []byte) map[string]string {
	bodies := make([]strings.Builder, 4)
	for i, op := range ops {
		if i >= 32 {
			break
		}
		b := &bodies[i%4]
		target := fmt.Sprintf("t%d", op>>4%4)
		switch op % 6 {
		case 0:
			b.WriteString("<i>x</i>")
		case 1:
			fmt.Fprintf(b, `{{ template %q . }}`, target)
		case 2:
			fmt.Fprintf(b, `{{ if . }}{{ template %q . }}{{ end }}`, target)
		case 3:
			fmt.Fprintf(b, `{{ with . }}{{ template %q . }}{{ else }}e{{ end }}`, target)
		case 4:
			fmt.Fprintf(b, `{{ range list 1 }}{{ template %q $ }}{{ end }}`, target)
		case 5:
			fmt.Fprintf(b, `{{ block "b%d" . }}{{ template %q . }}{{ end }}`, i, target)
		}
	}
	files := map[string]string{"base.html": `<main>{{ template "t0" . }}</main>`}
	var defs strings.Builder
	for i := range bodies {
		fmt.Fprintf(&defs, `{{ define "t%d" }}%s{{ end }}`, i, bodies[i].String())
	}
	files["partials/defs.html"] = defs.String()
	return files
}

// FuzzTemplateRecursion: any set of templates calling one another, in any
// branch, ends at once: it renders, or it fails with the nesting limit's
// error (never Go's own depth limit of 100,000, which took minutes).
func FuzzTemplateRecursion(f *testing.F) {
	f.Add([]byte{1})                   // t0 calls itself
	f.Add([]byte{0x11, 0x21, 0x31, 1}) // t0 → t1 → t2 → t3 → t0
	f.Add([]byte{0x12, 0x03, 0x14})    // through if and with
	f.Add([]byte{0x05, 0x15, 0x25})    // through blocks
	f.Add([]byte{0, 0x10, 0x20, 0x30}) // no calls: renders
	f.Fuzz(func(t *testing.T, ops []byte) {
		st := &execState{}
		funcs := (&Renderer{}).funcs(st)
		base, shared, layouts, err := templateFiles(mapFS(templatesFrom(ops)))
		if err != nil {
			t.Fatal(err)
		}
		root, _, _, errs := parseSetShared(base, shared, layouts, funcs, false, true)
		if len(errs) > 0 {
			return // e.g. a block defined twice
		}
		st.set = &execSet{root: root, st: st}
		var b strings.Builder
		err = root.Execute(&b, true)
		var td tooDeepError
		if err != nil && !errors.As(err, &td) {
			t.Fatalf("%v\ntemplates: %v", err, templatesFrom(ops))
		}
		if err != nil && !strings.Contains(err.Error(), fmt.Sprintf("nested more than %d deep", MaxNesting)) {
			t.Fatalf("%v", err)
		}
	})
}
