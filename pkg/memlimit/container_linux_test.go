package memlimit

import (
	"context"
	"errors"
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
// (v1) of 96 MiB: the process must read the cgroup's limit and keep its
// heap under it. With the window alone the heap would reach 144 MiB and
// the kernel would kill it. Skipped where no cgroup v1 memory controller
// can be written (not root, cgroup v2 only).
func TestContainerCeiling(t *testing.T) {
	if os.Getenv("MEMLIMIT_CHILD") != "" {
		t.Skip("the child's side runs in TestContainerCeilingChild")
	}
	dir := memoryCgroupV1(t)
	sub := filepath.Join(dir, "sitegen-memlimit-test-"+strconv.Itoa(os.Getpid()))
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Skipf("cannot make a memory cgroup: %v", err)
	}
	defer os.Remove(sub)
	if err := os.WriteFile(filepath.Join(sub, "memory.limit_in_bytes"), []byte(strconv.Itoa(96<<20)), 0o644); err != nil {
		t.Skipf("cannot limit a memory cgroup: %v", err)
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
		t.Skipf("cannot move a process into a memory cgroup: %v", err)
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

// memoryCgroupV1 returns the folder of this process's cgroup v1 memory
// controller, or skips the test.
func memoryCgroupV1(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile("/proc/self/cgroup")
	if err != nil {
		t.Skipf("no cgroups: %v", err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		parts := strings.SplitN(line, ":", 3)
		if len(parts) == 3 && parts[1] == "memory" {
			dir := filepath.Join("/sys/fs/cgroup/memory", parts[2])
			if _, err := os.Stat(filepath.Join(dir, "memory.limit_in_bytes")); err == nil {
				return dir
			}
		}
	}
	t.Skip("no cgroup v1 memory controller")
	return ""
}
