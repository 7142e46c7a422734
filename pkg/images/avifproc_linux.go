package images

import (
	"os/exec"
	"syscall"
)

// dieWithParent has the kernel kill the encoder process when the build's
// process ends, however it ends (the signal comes when the thread that
// started it ends, and Go ends none of its threads but those a goroutine
// locked and left locked; the build locks none).
func dieWithParent(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
