package content

import (
	"maps"
	"reflect"
	"strings"
	"testing"

	"sitegen/pkg/schema"
)

// yamlKeys maps the front matter keys a struct decodes to whether each is
// required (struct tag sg:"required").
func yamlKeys(t reflect.Type) map[string]bool {
	keys := map[string]bool{}
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("yaml"), ",")
		if name == "" || name == "-" {
			continue
		}
		keys[name] = f.Tag.Get("sg") == "required"
	}
	return keys
}

// TestFrontMatterSchemaKeys: the JSON Schema of front matter
// (sitegen schema --front-matter) describes exactly the keys Page and
// Section decode, with the same required ones, so a key added to the
// engine cannot be missing from what editors check.
func TestFrontMatterSchemaKeys(t *testing.T) {
	page, section := schema.FrontMatterKeys()
	for _, c := range []struct {
		name string
		typ  reflect.Type
		keys map[string]bool
	}{
		{"page", reflect.TypeOf(Page{}), page},
		{"section", reflect.TypeOf(Section{}), section},
	} {
		if want := yamlKeys(c.typ); !maps.Equal(c.keys, want) {
			t.Errorf("%s keys (key: required) in the JSON Schema %v, the engine decodes %v", c.name, c.keys, want)
		}
	}
}
