package render

import (
	"strings"
	"testing"
	"testing/fstest"
)

func TestCheckJSON(t *testing.T) {
	tests := []struct {
		name  string
		props any
		want  string
	}{
		{"plain", map[string]any{"a": []any{1, "x", map[string]any{"b": true}}}, ""},
		{"func deep inside", map[string]any{"form": map[string]any{"fields": []any{1, func() {}}}}, "prop props.form.fields[1] is a func"},
		{"channel", map[string]any{"c": make(chan int)}, "prop props.c is a chan"},
		{"int keys", map[string]any{"m": map[int]string{1: "x"}}, "prop props.m is a map with int keys"},
		{"struct field", struct{ F func() }{}, "prop props.F is a func"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := checkJSON(tt.props, "props")
			if tt.want == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %v, want %q", err, tt.want)
			}
		})
	}
}

// TestCheckJSONDeterministic: of several bad props the same one is named
// every time, whatever the map order.
func TestCheckJSONDeterministic(t *testing.T) {
	props := map[string]any{}
	for _, k := range []string{"q", "b", "x", "a", "m", "z", "c", "k"} {
		props[k] = func() {}
	}
	for i := 0; i < 50; i++ {
		if err := checkJSON(props, "props"); err == nil || !strings.Contains(err.Error(), "prop props.a is a func") {
			t.Fatalf("run %d: %v, want props.a named", i, err)
		}
	}
}

func TestSVGSize(t *testing.T) {
	tests := []struct {
		svg  string
		w, h int
	}{
		{`<svg xmlns="http://www.w3.org/2000/svg" width="120" height="40"></svg>`, 120, 40},
		{`<?xml version="1.0"?><svg viewBox="0 0 64 32"></svg>`, 64, 32},
		{`<svg width="10px" height="20px" viewBox="0 0 1 1"></svg>`, 10, 20},
	}
	for _, tt := range tests {
		w, h, err := svgSize([]byte(tt.svg))
		if err != nil || w != tt.w || h != tt.h {
			t.Errorf("%s: %d×%d %v, want %d×%d", tt.svg, w, h, err, tt.w, tt.h)
		}
	}
	if _, _, err := svgSize([]byte(`<svg></svg>`)); err == nil {
		t.Error("an SVG without size must be an error")
	}
}

// TestIconAnySet: an icon from any set loses its own class to ours and
// becomes decorative; the folder is the site's icons.dir.
func TestIconAnySet(t *testing.T) {
	r := &Renderer{opts: Options{IconDir: "my/icons", FS: fstest.MapFS{
		"my/icons/leaf.svg": {Data: []byte("<!-- licence -->\n<svg xmlns=\"http://www.w3.org/2000/svg\"\n  class=\"set set-leaf\" viewBox=\"0 0 24 24\"><g class=\"inner\"/></svg>\n")},
		"my/icons/bad.svg":  {Data: []byte("<p>not an icon</p>")},
	}}}
	got, err := r.icon("leaf", "x")
	if err != nil {
		t.Fatal(err)
	}
	want := `<svg aria-hidden="true" focusable="false" class="icon icon-leaf x" xmlns="http://www.w3.org/2000/svg"
  viewBox="0 0 24 24"><g class="inner"/></svg>`
	if string(got) != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
	if _, err := r.icon("nope"); err == nil || !strings.Contains(err.Error(), "no my/icons/nope.svg") {
		t.Errorf("unknown icon: %v", err)
	}
	if _, err := r.icon("bad"); err == nil || !strings.Contains(err.Error(), "has no <svg> element") {
		t.Errorf("not an svg: %v", err)
	}
}
