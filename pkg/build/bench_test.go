package build

import (
	"bufio"
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"sitegen/pkg/build/gensite"
)

// genSite writes a generated site of n pages per locale (see gensite).
func genSite(tb testing.TB, dir string, n int) {
	tb.Helper()
	if err := gensite.Write(dir, n); err != nil {
		tb.Fatal(err)
	}
}

func peakRSSKB() int {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "VmHWM:"); ok {
			kb, _ := strconv.Atoi(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")))
			return kb
		}
	}
	return 0
}

// BenchmarkBuild10k builds 10,000 pages (5,000 per locale). Reports pages/s
// and the process's peak resident memory.
//
//	go test ./pkg/build -run '^$' -bench Build10k -benchtime 3x
func BenchmarkBuild10k(b *testing.B) {
	dir := b.TempDir()
	const perLocale = 5000
	genSite(b, filepath.Join(dir, "site"), perLocale)
	b.ResetTimer()
	var elapsed time.Duration
	for i := 0; i < b.N; i++ {
		start := time.Now()
		rep, err := Run(context.Background(), Options{Source: filepath.Join(dir, "site"), Out: filepath.Join(dir, "public"), Date: "2026-01-01"})
		if err != nil {
			b.Fatal(err)
		}
		elapsed += time.Since(start)
		if got := rep.Pages["pl"] + rep.Pages["en"]; got != 2*perLocale+2 {
			b.Fatalf("built %d pages", got)
		}
	}
	b.ReportMetric(float64(b.N*(2*perLocale+2))/elapsed.Seconds(), "pages/s")
	b.ReportMetric(float64(peakRSSKB())/1024, "peakRSS-MB")
}
