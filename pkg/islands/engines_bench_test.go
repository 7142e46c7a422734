package islands

// Engine comparison: QuickJS (modernc.org/quickjs, the one the package uses)
// vs goja (github.com/dop251/goja, only compiled into this test binary).
//
//	go test ./pkg/islands -run '^$' -bench 'SSR|Load' -benchtime 1000x -benchmem
//
// The numbers are in ENGINES.md.

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dop251/goja"
)

type gojaEngine struct {
	vm *goja.Runtime
	fn goja.Callable
}

func newGoja(bundle []byte) (engine, error) {
	vm := goja.New()
	if _, err := vm.RunScript("ssr.js", jsPrelude+string(bundle)); err != nil {
		return nil, err
	}
	fn, ok := goja.AssertFunction(vm.Get("SGIslands").ToObject(vm).Get("render"))
	if !ok {
		return nil, fmt.Errorf("no SGIslands.render")
	}
	return &gojaEngine{vm: vm, fn: fn}, nil
}

func (g *gojaEngine) render(name, props, children string) (*renderResult, error) {
	v, err := g.fn(goja.Undefined(), g.vm.ToValue(name), g.vm.ToValue(props), g.vm.ToValue(children))
	if err != nil {
		return nil, err
	}
	var r renderResult
	if err := json.Unmarshal([]byte(v.String()), &r); err != nil {
		return nil, err
	}
	return &r, nil
}

func (g *gojaEngine) interrupt() { g.vm.Interrupt("interrupted") }

func (g *gojaEngine) close() error { return nil }

type benchCase struct{ name, props, children string }

func benchCases(b *testing.B) (*Bundle, []benchCase) {
	bun := fixtureBundle(b)
	var cases []benchCase
	for _, n := range bun.Names() {
		p, err := os.ReadFile(filepath.Join(fixtureRoot, "props", n+".pl.json"))
		if err != nil {
			b.Fatal(err)
		}
		props, err := normalizeProps(p)
		if err != nil {
			b.Fatal(err)
		}
		ch, _ := os.ReadFile(filepath.Join(fixtureRoot, "props", n+".pl.children.html"))
		cases = append(cases, benchCase{n, string(props), strings.TrimSpace(string(ch))})
	}
	return bun, cases
}

func benchEngine(b *testing.B, newEng func([]byte) (engine, error)) {
	bun, cases := benchCases(b)
	eng, err := newEng(bun.ssr)
	if err != nil {
		b.Fatal(err)
	}
	defer eng.close()
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			// Same output as the production path.
			want, _, err := bun.Render(context.Background(), c.name, []byte(c.props), "none", c.children)
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				r, err := eng.render(c.name, c.props, c.children)
				if err != nil || r.Error != nil {
					b.Fatal(err, r)
				}
				if i == 0 && !strings.Contains(want, r.HTML) {
					b.Fatalf("engine output differs:\n%s\n%s", r.HTML, want)
				}
			}
		})
	}
}

func BenchmarkSSRQuickJS(b *testing.B) { benchEngine(b, newQuickJS) }
func BenchmarkSSRGoja(b *testing.B)    { benchEngine(b, newGoja) }

// BenchmarkLoad measures creating one engine and loading the SSR bundle.
func BenchmarkLoadQuickJS(b *testing.B) { benchLoad(b, newQuickJS) }
func BenchmarkLoadGoja(b *testing.B)    { benchLoad(b, newGoja) }

func benchLoad(b *testing.B, newEng func([]byte) (engine, error)) {
	bun := fixtureBundle(b)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		e, err := newEng(bun.ssr)
		if err != nil {
			b.Fatal(err)
		}
		e.close()
	}
}
