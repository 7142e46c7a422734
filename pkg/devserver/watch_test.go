package devserver

import (
	"context"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"
)

// TestWatcherDropsTransientFiles: sed -i's save (a temporary file beside
// the page, written and renamed over it) is one change of the page; the
// temporary name, which existed neither before nor after, is not a path of
// the burst (so serve's log line does not show it). A file the burst
// deletes is still one.
func TestWatcherDropsTransientFiles(t *testing.T) {
	root := t.TempDir()
	write(t, root, "content/en/about.md", "old")
	write(t, root, "content/en/gone.md", "old")
	w, err := newWatcher(root, time.Hour, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	flush := make(chan []string)
	w.flush = flush
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	out := make(chan []string)
	go w.run(ctx, out)

	want := []string{"content/en/about.md", "content/en/gone.md"}
	select {
	case flush <- want:
	case <-time.After(bound):
		t.Fatal("the watcher does not take the flush")
	}
	write(t, root, "content/en/sedBTzwLS", "new")
	if err := os.Rename(filepath.Join(root, "content/en/sedBTzwLS"), filepath.Join(root, "content/en/about.md")); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(root, "content/en/gone.md")); err != nil {
		t.Fatal(err)
	}
	select {
	case got := <-out:
		if !reflect.DeepEqual(got, want) {
			t.Errorf("burst %v, want %v", got, want)
		}
	case <-time.After(bound):
		t.Fatal("no burst")
	}
}
