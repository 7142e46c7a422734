package esbuildcache

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/evanw/esbuild/pkg/api"

	"sitegen/pkg/cache"
)

// TestBuildTrace: an unchanged build is taken from the cache without running
// esbuild and gives the same files; changing a file in node_modules (an
// input the metafile lists) or an option runs esbuild again; a nil Cache
// always runs it.
func TestBuildTrace(t *testing.T) {
	root := t.TempDir()
	write := func(rel, s string) {
		t.Helper()
		p := filepath.Join(root, rel)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("node_modules/greet/package.json", `{"name":"greet","main":"index.js"}`)
	write("node_modules/greet/index.js", `export const greet = (n) => "hello " + n;`)
	write("src/main.js", `import { greet } from "greet"; console.log(greet("world"));`)
	cacheDir := t.TempDir()
	build := func(minify bool) (string, int) {
		t.Helper()
		store, err := cache.Open(cacheDir)
		if err != nil {
			t.Fatal(err)
		}
		defer store.Close()
		c := New(store)
		res := c.Build(api.BuildOptions{EntryPoints: []string{"src/main.js"}, AbsWorkingDir: root, Bundle: true, Outfile: filepath.Join(root, "out.js"),
			MinifyWhitespace: minify, LogLevel: api.LogLevelSilent})
		if len(res.Errors) > 0 || len(res.OutputFiles) != 1 {
			t.Fatalf("build: %v, %d files", res.Errors, len(res.OutputFiles))
		}
		return string(res.OutputFiles[0].Contents), c.Runs()
	}
	first, runs := build(false)
	if runs != 1 || !bytes.Contains([]byte(first), []byte("hello ")) {
		t.Fatalf("first build: %d runs, %q", runs, first)
	}
	if again, runs := build(false); runs != 0 || again != first {
		t.Errorf("unchanged build: %d esbuild runs, same output %v", runs, again == first)
	}
	write("node_modules/greet/index.js", `export const greet = (n) => "good day " + n;`)
	if changed, runs := build(false); runs != 1 || !bytes.Contains([]byte(changed), []byte("good day ")) {
		t.Errorf("after a node_modules edit: %d runs, %q", runs, changed)
	}
	if _, runs := build(true); runs != 1 {
		t.Errorf("another option: %d runs, want 1", runs)
	}
	var none *Cache
	res := none.Build(api.BuildOptions{EntryPoints: []string{"src/main.js"}, AbsWorkingDir: root, Bundle: true, LogLevel: api.LogLevelSilent})
	if len(res.OutputFiles) != 1 || none.Runs() != 0 {
		t.Errorf("nil cache: %d files", len(res.OutputFiles))
	}
}
