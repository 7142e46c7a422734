package islands

// The island engine's cost per render and per load (QuickJS,
// modernc.org/quickjs):
//
//	go test ./pkg/islands -run '^$' -bench 'SSR|Load' -benchtime 1000x -benchmem
//
// ENGINES.md has the numbers, and those of goja it was chosen against.

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

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

// BenchmarkLoad measures creating one engine and loading the SSR bundle.
func BenchmarkLoadQuickJS(b *testing.B) { benchLoad(b, newQuickJS) }

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
