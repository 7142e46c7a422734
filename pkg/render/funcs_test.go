package render

import (
	"strings"
	"testing"
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
