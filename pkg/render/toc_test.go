package render

import (
	"html/template"
	"reflect"
	"testing"
)

func TestTOC(t *testing.T) {
	content := template.HTML(`<h1 id="title">Title</h1><p>x</p><h2 id="warm">Warm <em>builds</em></h2><h3 id="hash">What is
hashed</h3><h4 id="deep">Deep</h4><h2>No id</h2><h2 id="%E3%83%96">ブログ &amp; more</h2>`)
	got, err := toc(content, 2, 3)
	if err != nil {
		t.Fatal(err)
	}
	want := []TOCEntry{{2, "warm", "Warm builds"}, {3, "hash", "What is hashed"}, {2, "%E3%83%96", "ブログ & more"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("toc = %+v, want %+v", got, want)
	}
	if _, err := toc(content, 3, 2); err == nil {
		t.Error("levels 3..2 accepted")
	}
}
