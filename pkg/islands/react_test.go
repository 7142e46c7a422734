package islands

import (
	"context"
	"errors"
	"strings"
	"testing"

	"sitegen/pkg/diag"
)

// TestReactLibrary: Library "react" builds both sides with React: SSR by
// react-dom/server in the engine (with the prelude's polyfills), hydration by
// react-dom/client.
func TestReactLibrary(t *testing.T) {
	if testing.Short() {
		t.Skip("React build is slow-ish")
	}
	b, err := Build(context.Background(), fixtureOptions(t, Options{Library: "react", Minify: true, Workers: 1}))
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	ctx := context.Background()
	for _, name := range b.Names() {
		html, _, err := b.Render(ctx, name, readFixture(t, name+".pl.json"), "load", "")
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !strings.Contains(html, `<sg-island data-island="`+name+`"`) {
			t.Errorf("%s: %s", name, html)
		}
	}
	counter, _, _ := b.Render(ctx, "Counter", readFixture(t, "Counter.en.json"), "load", "")
	if !strings.Contains(counter, `<output aria-live="polite">0<!-- --> <!-- -->items</output>`) {
		t.Errorf("React Counter: %s", counter)
	}
	if strings.Contains(string(b.ssr), "preact") {
		t.Error("React SSR bundle contains Preact")
	}
	var loader []byte
	for f, data := range b.ClientFiles() {
		if strings.Contains(f, "/loader-") {
			loader = data
		}
		if strings.Contains(string(data), "__PREACT") {
			t.Errorf("React client file %s contains Preact", f)
		}
	}
	if loader == nil {
		t.Fatal("no loader")
	}
	shared := b.ModulePreloads([]string{"Counter"})
	found := false
	for _, u := range shared {
		if strings.Contains(string(b.ClientFiles()[strings.TrimPrefix(u, "/")]), "hydrateRoot") {
			found = true
		}
	}
	if !found && !strings.Contains(string(loader), "hydrateRoot") {
		t.Error("React client does not use hydrateRoot")
	}
}

func TestReactThrowing(t *testing.T) {
	if testing.Short() {
		t.Skip()
	}
	b, err := Build(context.Background(), Options{Root: "testdata/throwing", Library: "react", NodePaths: nodeModules(t), Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	_, _, err = b.Render(context.Background(), "Boom", []byte(`{"explode":"react"}`), "load", "")
	var d diag.Diagnostic
	if !errors.As(err, &d) || d.Pos.File != "assets/islands/Boom.jsx" || d.Pos.Line != 4 || !strings.Contains(err.Error(), "kaboom: react") {
		t.Fatalf("err = %v (pos %v)", err, d.Pos)
	}
}

func TestUnknownLibrary(t *testing.T) {
	if _, err := Build(context.Background(), Options{Root: fixtureRoot, Library: "vue"}); err == nil || !strings.Contains(err.Error(), `unknown library "vue"`) {
		t.Fatalf("err = %v", err)
	}
}
