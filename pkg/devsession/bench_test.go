package devsession

import (
	"context"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"sitegen/internal/treetest"
	"sitegen/pkg/build"
	"sitegen/pkg/build/gensite"
	"sitegen/pkg/route"
)

// BenchmarkDevPageEdit times Session.Update after a one-page body edit of the
// real site (the full write-to-reload loop is measured in bench/devloop).
func BenchmarkDevPageEdit(b *testing.B) {
	dir := b.TempDir()
	root := treetest.Root(b)
	for _, d := range []string{"site.yaml", "schema.yaml", "content", "templates", "assets", "package.json", "package-lock.json"} {
		treetest.Copy(b, filepath.Join(root, d), filepath.Join(dir, d))
	}
	os.Symlink(filepath.Join(root, "node_modules"), filepath.Join(dir, "node_modules"))
	benchPageEdit(b, dir, "content/pl/blog.md")
}

// BenchmarkDevPageEdit10k times Session.Update after a one-page body edit of a
// generated site of 10,000 pages.
func BenchmarkDevPageEdit10k(b *testing.B) {
	dir := b.TempDir()
	genSite(b, dir)
	benchPageEdit(b, dir, "content/pl/p/001234.md")
}

// benchPageEdit times Session.Update after a body edit of file (a page an
// open tab shows) of the site at dir.
func benchPageEdit(b *testing.B, dir, file string) {
	ctx := context.Background()
	d, _, err := New(ctx, devOpts(dir))
	if err != nil {
		b.Fatal(err)
	}
	defer d.Close()
	page := filepath.Join(dir, file)
	askFor(b, d, file)
	orig, _ := os.ReadFile(page)
	b.ResetTimer()
	cpu := cpuTime()
	for i := 0; i < b.N; i++ {
		os.WriteFile(page, append(orig, []byte("\nEdit "+string(rune('a'+i%26))+".\n")...), 0o644)
		res, err := d.Update(ctx, []string{file})
		if err != nil {
			b.Fatal(err)
		}
		if len(res.Rendered) != 1 {
			b.Fatalf("rendered %v", res.Rendered)
		}
	}
	b.ReportMetric(float64((cpuTime()-cpu).Microseconds())/1000/float64(b.N), "cpu-ms/op")
}

// askFor renders the page of a content file, as an open tab asks for it.
func askFor(tb testing.TB, d *Session, file string) {
	for _, e := range d.good.entries {
		if e.Page.File == file && !e.Fallback {
			if _, err := d.File(context.Background(), firstName(d.good.site, e)); err != nil {
				tb.Fatal(err)
			}
			return
		}
	}
	tb.Fatalf("no page of %s", file)
}

// firstName is the output path of a page's HTML.
func firstName(s *build.Site, e *route.Entry) string {
	names, _ := s.PageNames(e)
	return names[0]
}

// genSite writes a generated site of 10,000 pages into dir.
func genSite(tb testing.TB, dir string) {
	if err := gensite.Write(dir, 5000); err != nil {
		tb.Fatal(err)
	}
}

// BenchmarkDevTemplateEdit10k times Session.Update after an edit of the
// layout every page of a generated 10,000-page site uses.
func BenchmarkDevTemplateEdit10k(b *testing.B) {
	dir := b.TempDir()
	genSite(b, dir)
	ctx := context.Background()
	d, _, err := New(ctx, devOpts(dir))
	if err != nil {
		b.Fatal(err)
	}
	defer d.Close()
	layout := filepath.Join(dir, "templates/layouts/page.html")
	orig, _ := os.ReadFile(layout)
	b.ResetTimer()
	cpu := cpuTime()
	for i := 0; i < b.N; i++ {
		os.WriteFile(layout, append(orig, []byte("<!-- "+string(rune('a'+i%26))+" -->{{/* x */}}<i></i>")...), 0o644)
		if i%2 == 1 {
			os.WriteFile(layout, orig, 0o644)
		}
		if _, err := d.Update(ctx, []string{"templates/layouts/page.html"}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64((cpuTime()-cpu).Microseconds())/1000/float64(b.N), "cpu-ms/op")
}

// cpuTime is the CPU time (user and system) the process has used: less
// sensitive to a busy machine than the wall time of an op.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
