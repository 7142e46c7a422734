//go:build unix

package hosttest

import (
	"os/exec"
	"syscall"
)

// procAttr puts the server in a process group of its own, so stopping it
// stops its children too (wrangler runs workerd).
func procAttr() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setpgid: true} }

func killGroup(cmd *exec.Cmd) { syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
