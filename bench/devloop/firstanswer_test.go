package devloop

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// BenchmarkFirstAnswer is the time from starting `sitegen serve` on a fresh
// clone of this repository (its committed files, node_modules as npm ci
// would leave it, empty build and image caches) to the first 200 answer
// for /. The sitegen binary is built before the clock starts.
//
//	go test ./bench/devloop -run '^$' -bench FirstAnswer -benchtime 3x
func BenchmarkFirstAnswer(b *testing.B) {
	root, err := filepath.Abs("../..")
	if err != nil {
		b.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "node_modules")); err != nil {
		b.Skip("the website needs node_modules (make setup)")
	}
	tmp := b.TempDir()
	bin := filepath.Join(tmp, "sitegen")
	if out, err := exec.Command("go", "build", "-o", bin, "../../cmd/sitegen").CombinedOutput(); err != nil {
		b.Fatalf("go build: %v\n%s", err, out)
	}
	clone := filepath.Join(tmp, "clone")
	if out, err := exec.Command("git", "clone", "-q", root, clone).CombinedOutput(); err != nil {
		b.Fatalf("git clone: %v\n%s", err, out)
	}
	if err := os.Symlink(filepath.Join(root, "node_modules"), filepath.Join(clone, "node_modules")); err != nil {
		b.Fatal(err)
	}
	var total time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		total += firstAnswer(b, bin, clone)
	}
	b.ReportMetric(total.Seconds()/float64(b.N), "s/first-answer")
}

// firstAnswer starts bin serve in dir with empty caches and polls / until
// it answers 200; it returns the time from the start.
func firstAnswer(b *testing.B, bin, dir string) time.Duration {
	b.Helper()
	port := freePort(b)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "serve", "--port", fmt.Sprint(port), "--cache-dir", b.TempDir(), "--image-cache", b.TempDir())
	cmd.Dir = dir
	start := time.Now()
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	defer func() {
		cmd.Process.Signal(os.Interrupt)
		cmd.Wait()
	}()
	url := fmt.Sprintf("http://127.0.0.1:%d/", port)
	client := &http.Client{Timeout: time.Minute}
	for ctx.Err() == nil {
		if resp, err := client.Get(url); err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return time.Since(start)
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	b.Fatalf("sitegen serve did not answer %s within 10 minutes", url)
	return 0
}

// freePort is a port on 127.0.0.1 nothing listens on (at the moment).
func freePort(b *testing.B) int {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}
