package esbuildmsg

import (
	"testing"

	"github.com/evanw/esbuild/pkg/api"
)

func TestDiagnostics(t *testing.T) {
	msgs := []api.Message{
		{Text: "Expected \";\" but found \"x\"", Location: &api.Location{File: "/site/assets/islands/A.jsx", Line: 3, Column: 4, LineText: "let a x", Suggestion: ";"}},
		{Text: "Could not resolve \"nope\"", Location: &api.Location{File: "assets/css/main.css", Line: 1, Column: 8}, Notes: []api.Note{{Text: "mark it external"}}},
		{Text: "no location"},
	}
	got := Diagnostics("/site", msgs).Error()
	want := "no location\n" +
		`assets/css/main.css:1:9: Could not resolve "nope" (hint: mark it external)` + "\n" +
		`assets/islands/A.jsx:3:5: Expected ";" but found "x" (hint: did you mean ";"?)`
	if got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
	if Err("/site", nil) != nil {
		t.Error("no messages must be no error")
	}
}
