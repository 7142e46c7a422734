package forms

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"sitegen/internal/waittest"
)

// The crash and shutdown tests run the handler in a child process: the test
// binary re-executed with SITEGEN_FORMS_TEST_CHILD set.
func TestMain(m *testing.M) {
	if os.Getenv("SITEGEN_FORMS_TEST_CHILD") != "" {
		os.Exit(runChild())
	}
	os.Exit(m.Run())
}

func runChild() int {
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, os.Interrupt)
	defer stop()
	err := Serve(ctx, ServerConfig{
		Listen: "127.0.0.1:0", DB: os.Getenv("SITEGEN_FORMS_TEST_DB"), SchemaPath: os.Getenv("SITEGEN_FORMS_TEST_SCHEMA"),
		Log:   slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn})),
		Ready: func(addr string) { fmt.Printf("READY %s\n", addr) },
	})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

type child struct {
	cmd  *exec.Cmd
	addr string
	done chan struct{} // closed when the process has exited; err is then set
	err  error
}

func startChild(t *testing.T, db, schema string) *child {
	t.Helper()
	cmd := waittest.Command(t, os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "SITEGEN_FORMS_TEST_CHILD=1", "SITEGEN_FORMS_TEST_DB="+db, "SITEGEN_FORMS_TEST_SCHEMA="+schema)
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	c := &child{cmd: cmd, done: make(chan struct{})}
	sc := bufio.NewScanner(out)
	for sc.Scan() {
		if a, ok := strings.CutPrefix(sc.Text(), "READY "); ok {
			c.addr = a
			break
		}
	}
	if c.addr == "" {
		cmd.Process.Kill()
		t.Fatal("the handler process did not start")
	}
	go func() {
		c.err = cmd.Wait()
		close(c.done)
	}()
	t.Cleanup(func() {
		cmd.Process.Kill()
		waittest.Within(t, c.done, "the handler's exit")
	})
	return c
}

// load posts distinct submissions from workers until stop is closed or the
// server goes away; it returns the ids acknowledged with 201.
func load(t *testing.T, addr string, workers int, round int, stop <-chan struct{}, acked func(n int)) []string {
	var mu sync.Mutex
	var ids []string
	var wg sync.WaitGroup
	client := &http.Client{Timeout: 30 * time.Second}
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				in := validJSON()
				in["idempotencyKey"] = fmt.Sprintf("crash-%d-%d-%06d", round, w, i)
				in["email"] = fmt.Sprintf("p%d.%d.%d@example.com", round, w, i)
				b, _ := json.Marshal(in)
				req, _ := http.NewRequest("POST", "http://"+addr+"/api/demo", bytes.NewReader(b))
				req.Header.Set("Content-Type", "application/json")
				req.Header.Set("Accept", "application/json")
				res, err := client.Do(req)
				if err != nil {
					return // killed
				}
				var out struct{ ID string }
				json.NewDecoder(res.Body).Decode(&out)
				res.Body.Close()
				if res.StatusCode == http.StatusCreated && out.ID != "" {
					mu.Lock()
					ids = append(ids, out.ID)
					n := len(ids)
					mu.Unlock()
					if acked != nil {
						acked(n)
					}
				} else if res.StatusCode != http.StatusServiceUnavailable {
					t.Errorf("post: %d", res.StatusCode)
					return
				}
			}
		}()
	}
	waittest.Wait(t, &wg, "the posting workers")
	return ids
}

func writeSchema(t *testing.T) string {
	p := filepath.Join(t.TempDir(), "demo.schema.json")
	b, _ := testSchema(t).Marshal()
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func storedIDs(t *testing.T, db string) map[string]bool {
	st := openTest(t, db)
	recs, err := st.Records(context.Background(), Filter{})
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]bool{}
	for _, r := range recs {
		out[r.ID] = true
	}
	st.Close()
	return out
}

// TestCrashKeepsEveryAcknowledgedSubmission kills the handler with SIGKILL
// under concurrent load, restarts it on the same database and finds every
// submission it had answered 201 for.
func TestCrashKeepsEveryAcknowledgedSubmission(t *testing.T) {
	for _, kind := range []string{"sqlite", "postgres"} {
		t.Run(kind, func(t *testing.T) {
			db := "sqlite:" + filepath.Join(t.TempDir(), "forms.db")
			if kind == "postgres" {
				db = freshPostgres(t)
			}
			schema := writeSchema(t)
			var all []string
			for round := range 3 {
				c := startChild(t, db, schema)
				stop := make(chan struct{})
				var once sync.Once
				ids := load(t, c.addr, 16, round, stop, func(n int) {
					if n == 150+round*50 {
						once.Do(func() {
							c.cmd.Process.Signal(syscall.SIGKILL)
							close(stop)
						})
					}
				})
				waittest.Within(t, c.done, "the killed handler's exit")
				all = append(all, ids...)
				stored := storedIDs(t, db)
				missing := 0
				for _, id := range all {
					if !stored[id] {
						missing++
					}
				}
				t.Logf("round %d: SIGKILL after %d acknowledged; %d acknowledged in all, %d stored, %d missing", round, len(ids), len(all), len(stored), missing)
				if missing > 0 {
					t.Fatalf("%d acknowledged submissions lost", missing)
				}
			}
		})
	}
}

// TestGracefulShutdown sends SIGTERM under load: requests in flight are
// answered, every 201 is stored and the process exits cleanly.
func TestGracefulShutdown(t *testing.T) {
	db := "sqlite:" + filepath.Join(t.TempDir(), "forms.db")
	c := startChild(t, db, writeSchema(t))
	stop := make(chan struct{})
	var once sync.Once
	ids := load(t, c.addr, 16, 0, stop, func(n int) {
		if n == 100 {
			once.Do(func() { c.cmd.Process.Signal(syscall.SIGTERM) })
		}
	})
	close(stop)
	waittest.Within(t, c.done, "the handler's exit after SIGTERM")
	if c.err != nil {
		t.Fatalf("the handler exited with %v after SIGTERM", c.err)
	}
	stored := storedIDs(t, db)
	for _, id := range ids {
		if !stored[id] {
			t.Fatalf("acknowledged %s not stored", id)
		}
	}
	t.Logf("SIGTERM under load: %d acknowledged, all stored", len(ids))
}
