package yamlx

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// fuzzRecord has a field of every kind the strict decoder handles.
type fuzzRecord struct {
	Name    string            `yaml:"name" sg:"required"`
	Count   int               `yaml:"count"`
	Ratio   float64           `yaml:"ratio"`
	On      bool              `yaml:"on"`
	Tags    []string          `yaml:"tags"`
	Params  map[string]any    `yaml:"params"`
	Labels  map[string]string `yaml:"labels"`
	Ptr     *string           `yaml:"ptr"`
	Items   []fuzzRecord      `yaml:"items"`
	Nested  *fuzzRecord       `yaml:"nested"`
	Anyway  any               `yaml:"any"`
	Numbers [2]int            `yaml:"numbers"`
}

// addYAMLSeeds adds every YAML file under the repository's testdata/ and
// content/ as a seed.
func addYAMLSeeds(f *testing.F) {
	for _, root := range []string{"../../testdata", "../../content"} {
		filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() && (strings.HasSuffix(p, ".yaml") || strings.HasSuffix(p, ".yml")) {
				if b, err := os.ReadFile(p); err == nil {
					f.Add(b)
				}
			}
			return nil
		})
	}
	f.Add([]byte("name: x\nitems:\n  - &a {name: y}\n  - *a\nnested: {name: z, nested: {name: w}}\n"))
	f.Add([]byte("a: &a [*a]\n"))
}

// FuzzDecode: no YAML input makes the strict decoder panic or hang, and
// every diagnostic it returns has a position in the file.
func FuzzDecode(f *testing.F) {
	addYAMLSeeds(f)
	f.Fuzz(func(t *testing.T, src []byte) {
		var doc yaml.Node
		if err := yaml.Unmarshal(src, &doc); err != nil {
			if d := SyntaxError("f.yaml", src, err, 0); d == nil || !strings.HasPrefix(d.Error(), "f.yaml") {
				t.Fatalf("syntax error without the file: %v", d)
			}
			return
		}
		var r fuzzRecord
		for _, d := range Decode("f.yaml", &doc, &r) {
			if d.Pos.File != "f.yaml" {
				t.Fatalf("diagnostic without the file: %v", d)
			}
		}
		var m map[string]any
		Decode("f.yaml", &doc, &m)
		var l []fuzzRecord
		Decode("f.yaml", &doc, &l)
	})
}
