package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestInterruptExits130: Ctrl+C (a real SIGINT sent to a real sitegen
// process, the test binary run as sitegen by testscript.Main) during a
// build whose island renders for ever ends the command with exit 130, a
// line saying the previous output is unchanged, the previous output as it
// was and no temporary tree left. bench/interrupt measures how fast.
func TestInterruptExits130(t *testing.T) {
	nm, err := filepath.Abs("../../node_modules")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(nm, "preact")); err != nil {
		t.Skip("node_modules not installed (run make setup)")
	}
	dir := t.TempDir()
	src, out := filepath.Join(dir, "site"), filepath.Join(dir, "public")
	files := map[string]string{
		"site.yaml":                   "baseURL: https://example.test\ntitle: I\nlocales:\n  - {code: pl, name: Polski, prefix: /pl, default: true}\n",
		"content/pl/index.md":         "---\nid: home\ntitle: Start\ndescription: Start.\n---\n",
		"templates/base.html":         `<!doctype html><html><head>{{ scripts }}</head><body><main>{{ block "main" . }}{{ end }}</main></body></html>`,
		"templates/layouts/page.html": `{{ define "main" }}{{ island "Spin" (dict) "load" }}{{ end }}`,
		"assets/islands/Spin.jsx":     "export default function Spin() { return <p>ok</p>; }\n",
	}
	for name, body := range files {
		p := filepath.Join(src, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(nm, filepath.Join(src, "node_modules")); err != nil {
		t.Fatal(err)
	}
	args := []string{"build", "--source", src, "--out", out, "--date", "2026-01-01"}
	var stdout, stderr bytes.Buffer
	if code := run(context.Background(), args, &stdout, &stderr); code != 0 {
		t.Fatalf("first build: exit %d\n%s", code, stderr.String())
	}
	before, _ := os.ReadFile(filepath.Join(out, "pl/index.html"))
	os.WriteFile(filepath.Join(src, "assets/islands/Spin.jsx"), []byte("export default function Spin() { for (;;) {} }\n"), 0o644)

	bin, err := exec.LookPath("sitegen") // testscript.Main puts the test binary on PATH as sitegen
	if err != nil {
		t.Fatalf("no sitegen command: %v", err)
	}
	cmd := exec.Command(bin, args...)
	stderr.Reset()
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	deadline := time.After(2 * time.Minute) // a bound for a build that never starts, not a timing check
	for started := false; !started; time.Sleep(5 * time.Millisecond) {
		select {
		case err := <-exited:
			t.Fatalf("the build ended (%v) before it was interrupted: %s", err, stderr.String())
		case <-deadline:
			cmd.Process.Kill()
			t.Fatal("the build did not start its output tree")
		default:
		}
		ents, _ := os.ReadDir(dir)
		for _, e := range ents {
			started = started || strings.HasPrefix(e.Name(), ".sitegen-tmp-public-")
		}
	}
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-exited:
		var exit *exec.ExitError
		if !errors.As(err, &exit) || exit.ExitCode() != exitStopped {
			t.Errorf("exit %v, want %d", err, exitStopped)
		}
	case <-time.After(2 * time.Minute):
		cmd.Process.Kill()
		t.Fatal("sitegen did not stop on SIGINT")
	}
	if got := stderr.String(); got != "sitegen: interrupted; the previous output is unchanged\n" {
		t.Errorf("stderr = %q", got)
	}
	if after, _ := os.ReadFile(filepath.Join(out, "pl/index.html")); !bytes.Equal(after, before) || len(before) == 0 {
		t.Errorf("the previous output changed")
	}
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), ".sitegen-tmp-") {
			t.Errorf("the temporary tree %s is left after the exit", e.Name())
		}
	}
}
