package content

import (
	"bytes"
	"context"
	"testing"
	"testing/fstest"
)

// TestLazyBodies: with LazyBodies a page holds no body after Load, LoadBody
// gives back exactly the body an eager Load keeps (BOM and CRLF included),
// and a file edited between load and render is an error, not a mix.
func TestLazyBodies(t *testing.T) {
	files := map[string]string{
		"content/pl/a.md": "---\nid: a\ntitle: A\ndescription: A.\n---\n# A\n\nText *a*.\n",
		"content/pl/b.md": "\xef\xbb\xbf---\r\nid: b\r\ntitle: B\r\ndescription: B.\r\n---\r\nLine one\r\nLine two\r\n",
		"content/pl/c.md": "---\nid: c\ntitle: C\ndescription: C.\n---",
	}
	fsys := fstest.MapFS{}
	for name, s := range files {
		fsys[name] = &fstest.MapFile{Data: []byte(s)}
	}
	load := func(lazy bool) map[string]*Page {
		src, err := Load(context.Background(), fsys, Options{Langs: []string{"pl"}, LazyBodies: lazy})
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]*Page{}
		for _, p := range src.Locales["pl"].Pages {
			out[p.ID] = p
		}
		return out
	}
	eager, lazy := load(false), load(true)
	for id, e := range eager {
		l := lazy[id]
		if l.Body != nil {
			t.Errorf("%s: lazy page holds its body", id)
		}
		got, err := l.LoadBody(fsys)
		if err != nil {
			t.Fatalf("%s: %v", id, err)
		}
		if !bytes.Equal(got, e.Body) {
			t.Errorf("%s: LoadBody = %q, eager Body = %q", id, got, e.Body)
		}
		if l.BodyLine != e.BodyLine {
			t.Errorf("%s: BodyLine %d, eager %d", id, l.BodyLine, e.BodyLine)
		}
	}
	fsys["content/pl/a.md"].Data = []byte("---\nid: a\ntitle: A\ndescription: A.\n---\n# B\n\nText *b*.\n")
	if _, err := lazy["a"].LoadBody(fsys); err == nil {
		t.Error("an edited file gave no error")
	}
	delete(fsys, "content/pl/b.md")
	if _, err := lazy["b"].LoadBody(fsys); err == nil {
		t.Error("a removed file gave no error")
	}
}
