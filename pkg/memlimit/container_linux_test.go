package memlimit

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestContainerCeiling runs a process that makes 1 GiB of garbage, holding
// 16 MiB, under the build's settings (a 128 MiB window) inside a cgroup
// (v1 or v2) of 96 MiB: the process must read the cgroup's limit and keep
// its heap under it. With the window alone the heap would reach 152 MiB and
// the kernel would kill it. Where no memory cgroup can be written (not
// root) it is skipped, except under CI=true, where it fails: CI runs it.
func TestContainerCeiling(t *testing.T) {
	if os.Getenv("MEMLIMIT_CHILD") != "" {
		t.Skip("the child's side runs in TestContainerCeilingChild")
	}
	sub, limit, err := memoryCgroup("sitegen-memlimit-test-" + strconv.Itoa(os.Getpid()))
	if sub != "" {
		defer os.Remove(sub)
	}
	if err == nil {
		err = os.WriteFile(filepath.Join(sub, limit), []byte(strconv.Itoa(96<<20)), 0o644)
	}
	if err != nil {
		cannot(t, "cannot make a memory cgroup of 96 MiB: %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^TestContainerCeilingChild$", "-test.v")
	cmd.Env = append(os.Environ(), "MEMLIMIT_CHILD=1", "GOGC=", "GOMEMLIMIT=")
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// The child waits for its stdin to close: it is in the cgroup by then.
	if err := os.WriteFile(filepath.Join(sub, "cgroup.procs"), []byte(strconv.Itoa(cmd.Process.Pid)), 0o644); err != nil {
		cmd.Process.Kill()
		cmd.Wait()
		cannot(t, "cannot move a process into a memory cgroup: %v", err)
	}
	in.Close()
	err = cmd.Wait()
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit) && !exit.Exited():
		t.Errorf("the process was killed (%v) in a 96 MiB container; its output:\n%s", err, out.String())
	case err != nil:
		t.Errorf("the process failed: %v; its output:\n%s", err, out.String())
	case !strings.Contains(out.String(), "container limit 96 MiB"):
		t.Errorf("the process did not read the cgroup's limit; its output:\n%s", out.String())
	}
}

// TestContainerCeilingChild is TestContainerCeiling's process.
func TestContainerCeilingChild(t *testing.T) {
	if os.Getenv("MEMLIMIT_CHILD") == "" {
		t.Skip("run by TestContainerCeiling")
	}
	var b [1]byte
	os.Stdin.Read(b[:]) // EOF once the parent has moved this process
	ceiling := ContainerLimit()
	t.Logf("container limit %d MiB", ceiling>>20)
	defer Start(context.Background(), Settings{Window: 128 << 20, GCPercent: -1, Ceiling: ceiling})()
	live := make([][]byte, 16)
	for i := range live {
		live[i] = make([]byte, 1<<20)
		for j := range live[i] {
			live[i][j] = byte(j)
		}
	}
	for i := 0; i < 1024; i++ {
		g := make([]byte, 1<<20)
		for j := 0; j < len(g); j += 4096 { // touch every page: resident, as a build's are
			g[j] = byte(i)
		}
		live[i%16][0] = g[0]
	}
}

// cannot skips the test where it cannot run, and fails it under CI=true.
func cannot(t *testing.T, format string, args ...any) {
	t.Helper()
	if os.Getenv("CI") == "true" {
		t.Fatalf(format+" (CI=true: this test must run)", args...)
	}
	t.Skipf(format, args...)
}

// memoryCgroup makes a memory cgroup named name below this process's: with
// the cgroup v1 memory controller when the system has one, else in the
// cgroup v2 hierarchy (enabling its memory controller for the children of
// this process's cgroup). It returns the cgroup's folder (to remove) and
// the name of its limit file.
func memoryCgroup(name string) (dir, limit string, err error) {
	b, err := os.ReadFile("/proc/self/cgroup")
	if err != nil {
		return "", "", err
	}
	var unified string
	for _, line := range strings.Split(string(b), "\n") {
		parts := strings.SplitN(line, ":", 3)
		switch {
		case len(parts) != 3:
		case parts[1] == "memory": // v1
			parent := filepath.Join("/sys/fs/cgroup/memory", parts[2])
			if _, err := os.Stat(filepath.Join(parent, "memory.limit_in_bytes")); err == nil {
				dir = filepath.Join(parent, name)
				return dir, "memory.limit_in_bytes", os.Mkdir(dir, 0o755)
			}
		case parts[0] == "0" && parts[1] == "":
			unified = parts[2]
		}
	}
	for _, mount := range []string{"/sys/fs/cgroup", "/sys/fs/cgroup/unified"} {
		parent := filepath.Join(mount, unified)
		if _, err := os.Stat(filepath.Join(parent, "cgroup.subtree_control")); err != nil {
			continue
		}
		// Children get the memory controller only when their parent hands
		// it down.
		if err := os.WriteFile(filepath.Join(parent, "cgroup.subtree_control"), []byte("+memory"), 0o644); err != nil {
			return "", "", fmt.Errorf("cgroup v2 at %s: enable the memory controller: %w", parent, err)
		}
		dir = filepath.Join(parent, name)
		if err := os.Mkdir(dir, 0o755); err != nil {
			return "", "", err
		}
		return dir, "memory.max", nil
	}
	return "", "", errors.New("no cgroup v1 memory controller and no cgroup v2 hierarchy")
}
