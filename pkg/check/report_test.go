package check

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"sitegen/pkg/diag"
)

// TestReportShape: the text lines and the JSON of a report keep the shape
// tools read (file:line:col: severity: message; "findings" with file, line,
// col, severity, kind, message and page), and a note counts as neither an
// error nor a warning.
func TestReportShape(t *testing.T) {
	rep := &Report{Diagnostics: diag.List{
		{Pos: diag.Pos{File: "content/pl/a.md", Line: 3, Col: 7}, Kind: KindLink, Message: "link to /x/: no page, redirect or file there", Page: "/pl/a/"},
		{Pos: diag.Pos{File: "content/pl/i18n.yaml"}, Severity: diag.Warning, Kind: KindMissingStr, Message: "UI string \"k\" is missing in pl"},
		{Severity: diag.Note, Kind: KindBuild, Message: "pages were not rendered"},
	}, Errors: 1, Warnings: 1, Pages: 2}
	var text bytes.Buffer
	rep.WriteText(&text)
	wantText := `content/pl/a.md:3:7: error: link to /x/: no page, redirect or file there
content/pl/i18n.yaml: warning: UI string "k" is missing in pl
: note: pages were not rendered
checked 2 pages: 1 error(s), 1 warning(s)
`
	if text.String() != wantText {
		t.Errorf("text:\n%s\nwant:\n%s", text.String(), wantText)
	}
	var js bytes.Buffer
	if err := rep.WriteJSON(&js); err != nil {
		t.Fatal(err)
	}
	wantJSON := `{
  "findings": [
    {
      "file": "content/pl/a.md",
      "line": 3,
      "col": 7,
      "severity": "error",
      "kind": "broken-link",
      "message": "link to /x/: no page, redirect or file there",
      "page": "/pl/a/"
    },
    {
      "file": "content/pl/i18n.yaml",
      "severity": "warning",
      "kind": "missing-string",
      "message": "UI string \"k\" is missing in pl"
    },
    {
      "file": "",
      "severity": "note",
      "kind": "build",
      "message": "pages were not rendered"
    }
  ],
  "errors": 1,
  "warnings": 1,
  "pages": 2
}
`
	if js.String() != wantJSON {
		t.Errorf("JSON:\n%s\nwant:\n%s", js.String(), wantJSON)
	}
	js.Reset()
	if err := (&Report{}).WriteJSON(&js); err != nil || !bytes.Contains(js.Bytes(), []byte(`"findings": []`)) {
		t.Errorf("a clean report's JSON has no empty findings list: %v\n%s", err, js.String())
	}
}

// TestBuildNoteStaysNote: a site that does not build is reported with the
// build's diagnostics as they are: its errors are errors and its note (the
// pages it did not render because of a template error) is a note, not
// counted as an error.
func TestBuildNoteStaysNote(t *testing.T) {
	dir, _ := site(t, "broken-link.txtar")
	if err := os.WriteFile(filepath.Join(dir, "templates", "layouts", "page.html"), []byte(`{{ define "main" }}{{ .Nope`), 0o644); err != nil {
		t.Fatal(err)
	}
	rep := run(t, dir, nil)
	var errs, notes int
	for _, d := range rep.Diagnostics {
		if d.Kind != KindBuild {
			t.Errorf("diagnostic of kind %q in a site that does not build: %s", d.Kind, textLine(d))
		}
		switch d.Severity {
		case diag.Error:
			errs++
		case diag.Note:
			notes++
		}
	}
	if errs == 0 || notes == 0 || rep.Errors != errs || rep.Warnings != 0 {
		t.Errorf("errors %d (report %d), notes %d, warnings %d; want errors and a note, counted apart:\n%s", errs, rep.Errors, notes, rep.Warnings, diagsText(rep))
	}
}
