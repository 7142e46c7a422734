package content

import (
	"reflect"
	"testing"
	"unsafe"
)

func TestPackStrings(t *testing.T) {
	src := "---\nid: p1\ntitle: \"Tytuł strony\"\ndescription: Opis.\nkeywords: a, b\ndate: 2024-05-01\nsummary: Krótko.\nlayout: article\nslug: blog/wpis\ntags: [jeden, dwa]\naliases: [/stary/, /inny/]\n---\nTreść.\n"
	p, errs := ParsePage("content/pl/wpis.md", "pl", "wpis.md", []byte(src))
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	want := []string{"p1", "Tytuł strony", "Opis.", "a, b", "2024-05-01", "Krótko.", "article", "blog/wpis", "jeden", "dwa", "/stary/", "/inny/"}
	got := []string{p.ID, p.Title, p.Description, p.Keywords, p.Date, p.Summary, p.Layout, *p.Slug, p.Tags[0], p.Tags[1], p.Aliases[0].Path, p.Aliases[1].Path}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("values %q, want %q", got, want)
	}
	// One block: each string starts where the one before it ended.
	for i := 1; i < len(got); i++ {
		if unsafe.StringData(got[i]) != (*byte)(unsafe.Add(unsafe.Pointer(unsafe.StringData(got[i-1])), len(got[i-1]))) {
			t.Errorf("%q is not packed right after %q", got[i], got[i-1])
		}
	}

	// A page without optional fields, and one without a given layout (the
	// default stays the constant, not a copy).
	p, errs = ParsePage("content/pl/o-nas.md", "pl", "o-nas.md", []byte("---\nid: about\ntitle: O nas\ndescription: Kim jesteśmy.\n---\n"))
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	if p.ID != "about" || p.Title != "O nas" || p.Description != "Kim jesteśmy." || *p.Slug != "o-nas" || p.Layout != "page" || p.Date != "" {
		t.Errorf("page %+v", p)
	}
	var empty Page
	packStrings(&empty) // nothing to pack
	if empty.ID != "" || empty.Slug != nil {
		t.Errorf("empty page changed: %+v", empty)
	}
}
