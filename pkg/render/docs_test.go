package render

import (
	"os"
	"sort"
	"strings"
	"testing"

	"sitegen/pkg/internal/tmpldoc"
)

// TestTemplateFuncsDocumented: docs/templates.md has an entry with an example
// for every template function the engine registers, and none for a function
// it does not (the functions named sitegen... are the engine's own markers,
// inserted into parsed templates, not for authors). The examples themselves
// are rendered by TestTemplateDocExamples in pkg/build.
func TestTemplateFuncsDocumented(t *testing.T) {
	md, err := os.ReadFile("../../docs/templates.md")
	if err != nil {
		t.Fatal(err)
	}
	entries, err := tmpldoc.Parse(md)
	if err != nil {
		t.Fatalf("docs/templates.md: %v", err)
	}
	documented := map[string]bool{}
	for _, e := range entries {
		if documented[e.Name] {
			t.Errorf("docs/templates.md:%d: %s is documented twice", e.Line, e.Name)
		}
		documented[e.Name] = true
		if len(e.Examples) == 0 {
			t.Errorf("docs/templates.md:%d: %s has no example", e.Line, e.Name)
		}
	}
	r := &Renderer{}
	var registered []string
	for name := range r.funcs(&execState{}) {
		if !strings.HasPrefix(name, "sitegen") {
			registered = append(registered, name)
		}
	}
	sort.Strings(registered)
	for _, name := range registered {
		if !documented[name] {
			t.Errorf("template function %s is registered (pkg/render/funcs.go) but not documented in docs/templates.md", name)
		}
		delete(documented, name)
	}
	for _, e := range entries {
		if documented[e.Name] {
			t.Errorf("docs/templates.md:%d: documents %s, which the engine does not register", e.Line, e.Name)
		}
	}
}
