package yamlx

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// TestNodesRoundTrip: a tree DecodeNodes reads back equals the tree parsed,
// field for field (aliases pointing at the node of their anchor), for
// every front matter and data file of the repository's sites and for YAML
// written to use every feature.
func TestNodesRoundTrip(t *testing.T) {
	docs := map[string]string{
		"anchors":  "base: &b {a: 1, b: [x, 'y', \"z\"]}\nother: *b\nlist:\n  - *b\n  - &c plain\n  - *c\n",
		"styles":   "lit: |\n  two\n  lines\nfold: >-\n  folded\n  text\ntagged: !!str 12\nnull: ~\nbool: yes\n",
		"comments": "# head\nkey: value # line\n# foot\n\nnext: [1, 2] # flow\n",
		"empty":    "",
	}
	files, _ := filepath.Glob("../../content/*/*.md")
	more, _ := filepath.Glob("../../testdata/sites/*/content/*/*.md")
	data, _ := filepath.Glob("../../content/*/data/*.yaml")
	for _, f := range append(append(files, more...), data...) {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		s := string(b)
		if strings.HasSuffix(f, ".md") {
			parts := strings.SplitN(s, "\n---\n", 2)
			s = strings.TrimPrefix(parts[0], "---\n") + "\n"
		}
		docs[f] = s
	}
	if len(docs) < 20 {
		t.Fatalf("only %d documents found", len(docs))
	}
	for name, src := range docs {
		var doc yaml.Node
		if err := yaml.Unmarshal([]byte(src), &doc); err != nil {
			continue // not YAML: nothing to keep
		}
		got, err := DecodeNodes(EncodeNodes(&doc))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !reflect.DeepEqual(got, &doc) {
			t.Errorf("%s: the decoded tree differs from the parsed one", name)
		}
	}
}

// TestNodesDamaged: bytes that are not a whole encoded tree are an error,
// never a panic or a tree.
func TestNodesDamaged(t *testing.T) {
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte("a: &x [1, 2]\nb: *x\n"), &doc); err != nil {
		t.Fatal(err)
	}
	b := EncodeNodes(&doc)
	for i := range len(b) {
		if _, err := DecodeNodes(b[:i]); err == nil {
			t.Errorf("%d of %d bytes decoded", i, len(b))
		}
	}
	if _, err := DecodeNodes(append(b, 0)); err == nil {
		t.Error("a trailing byte decoded")
	}
}

func FuzzDecodeNodes(f *testing.F) {
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte("a: &x [1, 2]\nb: *x\n"), &doc); err == nil {
		f.Add(EncodeNodes(&doc))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		DecodeNodes(b)
	})
}
