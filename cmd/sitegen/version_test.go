package main

import (
	"os"
	"path/filepath"
	"regexp"
	"runtime/debug"
	"strings"
	"testing"

	"sitegen/internal/waittest"
	"sitegen/pkg/build"
)

func TestReadVersion(t *testing.T) {
	stamped := &debug.BuildInfo{Settings: []debug.BuildSetting{
		{Key: "vcs", Value: "git"},
		{Key: "vcs.revision", Value: "488bab1c0ffee"},
		{Key: "vcs.time", Value: "2026-11-26T18:00:00Z"},
		{Key: "vcs.modified", Value: "false"},
	}}
	dirty := &debug.BuildInfo{Settings: []debug.BuildSetting{
		{Key: "vcs.revision", Value: "488bab1c0ffee"},
		{Key: "vcs.time", Value: "2026-11-26T18:00:00Z"},
		{Key: "vcs.modified", Value: "true"},
	}}
	v := "sitegen " + build.Version + "\n"
	for _, tt := range []struct {
		name               string
		info               *debug.BuildInfo
		ok                 bool
		linkCommit, linkAt string
		want               string
	}{
		{"from git", stamped, true, "", "", v + "commit: 488bab1c0ffee\ndate: 2026-11-26T18:00:00Z\n"},
		{"uncommitted changes", dirty, true, "", "", v + "commit: 488bab1c0ffee (modified)\ndate: 2026-11-26T18:00:00Z\n"},
		{"link-time values win", dirty, true, "abc123", "2026-01-02T03:04:05Z", v + "commit: abc123\ndate: 2026-01-02T03:04:05Z\n"},
		{"no build info", nil, false, "", "", v + "commit: unknown\ndate: unknown\n"},
		{"no vcs stamp", &debug.BuildInfo{}, true, "", "", v + "commit: unknown\ndate: unknown\n"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := readVersion(tt.info, tt.ok, tt.linkCommit, tt.linkAt).String(); got != tt.want {
				t.Errorf("got\n%s\nwant\n%s", got, tt.want)
			}
		})
	}
}

// TestVersionOfBuiltBinary builds sitegen as a release does (the commit and
// its date given at link time) and, in a git clone, as a user does (plain go
// build: Go stamps the commit; it does not in a git worktree, whose .git is
// a file), and runs sitegen version: it names the checkout's commit.
func TestVersionOfBuiltBinary(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	git := func(args ...string) string {
		out, err := waittest.Command(t, "git", args...).Output()
		if err != nil {
			t.Skipf("not a git checkout: git %s: %v", strings.Join(args, " "), err)
		}
		return strings.TrimSpace(string(out))
	}
	head, at := git("rev-parse", "HEAD"), git("log", "-1", "--format=%cd", "--date=format-local:%Y-%m-%dT%H:%M:%SZ")
	top := git("rev-parse", "--show-toplevel")
	builds := map[string][]string{"release": {"-ldflags", "-X main.commit=" + head + " -X main.date=" + at}}
	if fi, err := os.Stat(filepath.Join(top, ".git")); err == nil && fi.IsDir() {
		builds["go build"] = nil
	}
	for name, flags := range builds {
		t.Run(name, func(t *testing.T) {
			bin := filepath.Join(t.TempDir(), "sitegen")
			b := waittest.Command(t, "go", append(append([]string{"build", "-o", bin}, flags...), ".")...)
			b.Env = append(os.Environ(), "GOFLAGS=-tags=nodynamic -buildvcs=true", "TZ=UTC")
			if out, err := b.CombinedOutput(); err != nil {
				t.Fatalf("go build: %v\n%s", err, out)
			}
			out, err := waittest.Command(t, bin, "version").Output()
			if err != nil {
				t.Fatal(err)
			}
			want := regexp.MustCompile(`^sitegen ` + regexp.QuoteMeta(build.Version) + `\ncommit: ` + head + `( \(modified\))?\ndate: \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ\n$`)
			if !want.Match(out) {
				t.Errorf("sitegen version printed\n%s\nwant %s", out, want)
			}
		})
	}
}
