//go:build !unix

package images

import (
	"io"
	"os"
	"os/exec"
)

// settingsChannel: without extra file descriptors (Windows), the settings
// are the first frame on stdin.
func settingsChannel() io.ReadCloser { return io.NopCloser(os.Stdin) }

func attachSettings(cmd *exec.Cmd, frame []byte) (func(*os.File) error, error) {
	return func(stdin *os.File) error {
		if cmd.Process == nil {
			return nil
		}
		_, err := stdin.Write(frame)
		return err
	}, nil
}
