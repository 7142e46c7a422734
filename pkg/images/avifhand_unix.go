//go:build unix

package images

import (
	"io"
	"os"
	"os/exec"
	"syscall"
)

// avifSettingsFD is the encoder's settings channel: the read end of a pipe
// the parent passes as its first extra file (exec.Cmd.ExtraFiles).
const avifSettingsFD = 3

// settingsChannel is the settings pipe, or nil when the process has none
// (a descriptor 3 that is not open, or not a pipe, is left alone).
func settingsChannel() io.ReadCloser {
	var st syscall.Stat_t
	if err := syscall.Fstat(avifSettingsFD, &st); err != nil || st.Mode&syscall.S_IFMT != syscall.S_IFIFO {
		return nil
	}
	if f := os.NewFile(avifSettingsFD, "AVIF encoder settings"); f != nil {
		return f
	}
	return nil
}

func attachSettings(cmd *exec.Cmd, frame []byte) (func(*os.File) error, error) {
	r, w, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	cmd.ExtraFiles = append(cmd.ExtraFiles[:0:0], r) // descriptor 3
	return func(*os.File) error {
		r.Close()
		defer w.Close()
		if cmd.Process == nil { // not started
			return nil
		}
		_, err := w.Write(frame) // 16 bytes: a pipe holds them
		return err
	}, nil
}
