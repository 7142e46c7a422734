package tmplwalk

import (
	"slices"
	"testing"
	"text/template"
	"text/template/parse"
)

func TestWalkFindsCallsInEveryBranch(t *testing.T) {
	tpl := template.Must(template.New("t").Parse(`{{ template "a" }}{{ if .X }}{{ template "b" }}{{ else }}{{ template "c" }}{{ end }}{{ with .Y }}{{ template "d" }}{{ else }}{{ template "e" }}{{ end }}{{ range .Z }}{{ template "f" }}{{ else }}{{ template "g" }}{{ end }}{{ define "a" }}{{ end }}{{ define "b" }}{{ end }}{{ define "c" }}{{ end }}{{ define "d" }}{{ end }}{{ define "e" }}{{ end }}{{ define "f" }}{{ end }}{{ define "g" }}{{ end }}`))
	var got []string
	Walk(tpl.Tree.Root, func(n parse.Node) {
		if tn, ok := n.(*parse.TemplateNode); ok {
			got = append(got, tn.Name)
		}
	})
	if want := []string{"a", "b", "c", "d", "e", "f", "g"}; !slices.Equal(got, want) {
		t.Errorf("calls %v, want %v", got, want)
	}
	Walk((*parse.ListNode)(nil), func(parse.Node) { t.Error("visited a nil list") })
}
