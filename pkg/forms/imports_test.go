package forms_test

import (
	"strings"
	"testing"

	"sitegen/internal/waittest"
)

// TestHandlerImportsNoContentPipeline: the handler reads only the exported
// schema, so the small separate program carries none of the generator.
func TestHandlerImportsNoContentPipeline(t *testing.T) {
	out, err := waittest.Command(t, "go", "list", "-deps", "sitegen/pkg/forms").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	for _, dep := range strings.Fields(string(out)) {
		pkg, ok := strings.CutPrefix(dep, "sitegen/pkg/")
		if !ok {
			continue
		}
		switch pkg {
		case "config", "content", "i18n", "markdown", "route", "render", "build", "formschema":
			t.Errorf("pkg/forms imports %s (through its dependencies): the handler must read only the schema file", dep)
		}
	}
}
