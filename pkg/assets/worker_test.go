package assets

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestWorker(t *testing.T) {
	root := filepath.Join("..", "..")
	sw, err := Worker(root, WorkerOptions{Minify: true, Build: "hash123", Pages: map[string]string{"/pl": "/pl/offline/", "/en": "/en/offline/"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"/pl/offline/"`, `"/en/offline/"`, `"hash123"`, "sg-pages", "sg-assets", "respondWith"} {
		if !strings.Contains(string(sw), want) {
			t.Errorf("the worker lacks %s", want)
		}
	}
	retire, err := Worker(root, WorkerOptions{Minify: true, Retire: true})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(retire), "unregister") || strings.Contains(string(retire), "respondWith") {
		t.Errorf("the retiring worker must unregister and handle no fetch: %s", retire)
	}
	// A site without worker sources has no worker; asking to retire one
	// without its source is an error naming the file.
	empty := t.TempDir()
	if err := os.MkdirAll(filepath.Join(empty, Dir), 0o755); err != nil {
		t.Fatal(err)
	}
	if b, err := Worker(empty, WorkerOptions{}); b != nil || err != nil {
		t.Errorf("no source: %q, %v; want nothing", b, err)
	}
	if _, err := Worker(empty, WorkerOptions{Retire: true}); err == nil || !strings.Contains(err.Error(), RetireSource) {
		t.Errorf("retire without its source: %v", err)
	}
}
