package sitetest

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"sitegen/internal/waittest"
	"sitegen/pkg/schema"
)

// fmDoc is one front matter, as JSON, for testdata/jsonschema.mjs.
type fmDoc struct {
	File string `json:"file"`
	Data any    `json:"data"`
}

type fmError struct {
	File    string `json:"file"`
	Path    string `json:"path"`
	Message string `json:"message"`
	Params  any    `json:"params"`
}

// validateJSON validates docs against the JSON Schema in schemaJSON with Ajv
// (through testdata/jsonschema.mjs), the way an editor's validator would.
func validateJSON(t *testing.T, schemaJSON []byte, docs []fmDoc) []fmError {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Fatal("node is not installed: it runs Ajv (make setup installs the npm packages)")
	}
	if _, err := os.Stat(filepath.Join("..", "node_modules", "ajv", "package.json")); err != nil {
		t.Fatal("ajv is not installed (html-validate brings it); run make setup")
	}
	sf := filepath.Join(t.TempDir(), "schema.json")
	if err := os.WriteFile(sf, schemaJSON, 0o644); err != nil {
		t.Fatal(err)
	}
	in, err := json.Marshal(docs)
	if err != nil {
		t.Fatal(err)
	}
	cmd := waittest.Command(t, node, filepath.Join("testdata", "jsonschema.mjs"), sf)
	cmd.Stdin = bytes.NewReader(in)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("ajv: %v\n%s", err, stderr.String())
	}
	var errs []fmError
	if err := json.Unmarshal(out, &errs); err != nil {
		t.Fatalf("ajv output: %v\n%s", err, out)
	}
	return errs
}

// frontMatters reads the front matter of every page under root/content as
// JSON-ready values.
func frontMatters(t *testing.T, root string) []fmDoc {
	t.Helper()
	var docs []fmDoc
	err := filepath.WalkDir(filepath.Join(root, "content"), func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".md") {
			return err
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rest, ok := strings.CutPrefix(string(src), "---\n")
		fm, _, ok2 := strings.Cut(rest, "\n---")
		if !ok || !ok2 {
			t.Fatalf("%s: no front matter", p)
		}
		var v map[string]any
		if err := yaml.Unmarshal([]byte(fm), &v); err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		docs = append(docs, fmDoc{File: p, Data: v})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return docs
}

// TestFrontMatterSchema: every page of the website passes the JSON Schema
// that `sitegen schema --front-matter` prints (so an editor shows no false
// errors), and the mistakes sitegen rejects are flagged by it too.
func TestFrontMatterSchema(t *testing.T) {
	s, err := schema.Load(os.DirFS(".."))
	if err != nil {
		t.Fatal(err)
	}
	js, err := s.FrontMatterJSONSchema()
	if err != nil {
		t.Fatal(err)
	}
	docs := frontMatters(t, "..")
	if len(docs) < 20 {
		t.Fatalf("only %d pages found", len(docs))
	}
	for _, e := range validateJSON(t, js, docs) {
		t.Errorf("%s: %s %s %v", e.File, e.Path, e.Message, e.Params)
	}

	// Each broken page must be flagged, at the place named.
	base := map[string]any{"id": "x", "title": "T", "description": "D"}
	with := func(k string, v any) map[string]any {
		m := map[string]any{}
		for k, v := range base {
			m[k] = v
		}
		m[k] = v
		return m
	}
	bad := []struct {
		name string
		data map[string]any
		path string
	}{
		{"unknown key", with("titel", "T"), ""},
		{"missing description", map[string]any{"id": "x", "title": "T"}, ""},
		{"bad id", with("id", "Kontakt Nas"), "/id"},
		{"bad date", with("date", "1 lipca"), "/date"},
		{"unknown page param", with("params", map[string]any{"eyebrw": "x"}), "/params"},
		{"page param enum", with("params", map[string]any{"tone": "loud"}), "/params/tone"},
		{"section without type", with("sections", []any{map[string]any{"title": "x"}}), "/sections/0"},
		{"section param of its type", with("sections", []any{map[string]any{"type": "cta", "params": map[string]any{"tone": "loud"}}}), "/sections/0/params/tone"},
	}
	var bdocs []fmDoc
	for _, b := range bad {
		bdocs = append(bdocs, fmDoc{File: b.name, Data: b.data})
	}
	// A section type the schema does not list keeps free-form params.
	bdocs = append(bdocs, fmDoc{File: "free section", Data: with("sections", []any{map[string]any{"type": "body", "params": map[string]any{"anything": 1}}})})
	got := map[string][]string{}
	for _, e := range validateJSON(t, js, bdocs) {
		got[e.File] = append(got[e.File], e.Path)
	}
	for _, b := range bad {
		if !contains(got[b.name], b.path) {
			t.Errorf("%s: errors at %q, want one at %q", b.name, got[b.name], b.path)
		}
	}
	if len(got["free section"]) > 0 {
		t.Errorf("free-form section params flagged at %v", got["free section"])
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
