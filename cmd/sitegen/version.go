package main

import (
	"fmt"
	"io"
	"runtime/debug"

	"github.com/spf13/cobra"

	"sitegen/pkg/build"
)

// Set at link time by a release build without a git checkout
// (go build -ldflags "-X main.commit=... -X main.date=..."); otherwise the
// commit and date come from the build info Go records from git.
var (
	commit string
	date   string
)

// versionInfo is what `sitegen version` prints.
type versionInfo struct {
	Version, Commit, Date string
	Modified              bool // built from a checkout with uncommitted changes
}

func (v versionInfo) String() string {
	c := v.Commit
	if c == "" {
		c = "unknown"
	}
	if v.Modified {
		c += " (modified)"
	}
	d := v.Date
	if d == "" {
		d = "unknown"
	}
	return fmt.Sprintf("sitegen %s\ncommit: %s\ndate: %s\n", v.Version, c, d)
}

// readVersion combines the version with the commit and the commit's date,
// from the link-time values when set, else from the VCS stamp of info.
func readVersion(info *debug.BuildInfo, ok bool, linkCommit, linkDate string) versionInfo {
	v := versionInfo{Version: build.Version, Commit: linkCommit, Date: linkDate}
	if !ok || info == nil {
		return v
	}
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			if v.Commit == "" {
				v.Commit = s.Value
			}
		case "vcs.time":
			if v.Date == "" {
				v.Date = s.Value
			}
		case "vcs.modified":
			v.Modified = s.Value == "true" && linkCommit == ""
		}
	}
	return v
}

func newVersion(stdout io.Writer) *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print sitegen's version, the commit it was built from and that commit's date",
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) > 0 {
				return usageError{errUnexpected(args[0])}
			}
			info, ok := debug.ReadBuildInfo()
			_, err := fmt.Fprint(stdout, readVersion(info, ok, commit, date))
			return err
		},
	}
}
