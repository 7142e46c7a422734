package devserver

import (
	"testing"
	"testing/fstest"
)

func TestMemFS(t *testing.T) {
	m := newMemFS(map[string][]byte{
		"index.html":             []byte("root"),
		"pl/index.html":          []byte("pl"),
		"pl/o-nas/index.html":    []byte("o nas"),
		"_assets/main-ABC.css":   []byte("body{}"),
		"page-data/pl/page.json": []byte("{}"),
	})
	if err := fstest.TestFS(m, "index.html", "pl/index.html", "pl/o-nas/index.html", "_assets/main-ABC.css", "page-data/pl/page.json"); err != nil {
		t.Fatal(err)
	}
}

func TestMemFSUpdate(t *testing.T) {
	m := newMemFS(map[string][]byte{"a/index.html": []byte("a"), "b.txt": []byte("b")})
	same := m.update(map[string][]byte{"a/index.html": []byte("A"), "b.txt": []byte("b")}, []string{"a/index.html"})
	if err := fstest.TestFS(same, "a/index.html", "b.txt"); err != nil {
		t.Fatal(err)
	}
	grown := m.update(map[string][]byte{"a/index.html": []byte("a"), "c/d/index.html": []byte("d")}, []string{"b.txt", "c/d/index.html"})
	if err := fstest.TestFS(grown, "a/index.html", "c/d/index.html"); err != nil {
		t.Fatal(err)
	}
	if _, err := grown.Stat("b.txt"); err == nil {
		t.Fatal("a removed file is still there")
	}
}
