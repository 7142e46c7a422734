package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// side is one of the two sites compared: a commit, or the working tree.
type side struct {
	name   string // "before" or "after"
	commit string // "" is the working tree
	label  string // what the table says it is
	dir    string // <tmp>/<name>
	src    string // the source tree, a copy
	out    string // the build's output
}

func git(ctx context.Context, repo string, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, "git", args...)
	cmd.Dir = repo
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("git %s: %v: %s", strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
	}
	return strings.TrimSpace(string(out)), nil
}

// defaultBefore is the parent of the first commit that touched pkg/images:
// the site as it was before the image pipeline landed.
func defaultBefore(ctx context.Context, repo string) (string, error) {
	log, err := git(ctx, repo, "log", "--format=%H", "--", "pkg/images")
	if err != nil {
		return "", err
	}
	lines := strings.Fields(log)
	if len(lines) == 0 {
		return "", fmt.Errorf("no commit touches pkg/images: give -before")
	}
	return git(ctx, repo, "rev-parse", lines[len(lines)-1]+"^")
}

// materialize copies the side's sources into s.src: a commit through git
// archive, the working tree file by file (tracked and untracked files that
// are not ignored). The repository's own files are only read.
func (s *side) materialize(ctx context.Context, repo string) error {
	if err := os.MkdirAll(s.src, 0o755); err != nil {
		return err
	}
	if s.commit != "" {
		archive := exec.CommandContext(ctx, "git", "archive", "--format=tar", s.commit)
		archive.Dir = repo
		untar := exec.CommandContext(ctx, "tar", "-x", "-C", s.src)
		pipe, err := archive.StdoutPipe()
		if err != nil {
			return err
		}
		untar.Stdin = pipe
		var e1, e2 bytes.Buffer
		archive.Stderr, untar.Stderr = &e1, &e2
		if err := untar.Start(); err != nil {
			return err
		}
		if err := archive.Run(); err != nil {
			return fmt.Errorf("git archive %s: %v: %s", s.commit, err, e1.String())
		}
		if err := untar.Wait(); err != nil {
			return fmt.Errorf("untar %s: %v: %s", s.commit, err, e2.String())
		}
	} else {
		list, err := git(ctx, repo, "ls-files", "-z", "--cached", "--others", "--exclude-standard")
		if err != nil {
			return err
		}
		for _, rel := range strings.Split(list, "\x00") {
			if rel == "" {
				continue
			}
			if err := copyFile(filepath.Join(repo, rel), filepath.Join(s.src, rel)); err != nil {
				return err
			}
		}
	}
	// The npm packages (islands, fonts) are the repository's: link them.
	nm, err := filepath.EvalSymlinks(filepath.Join(repo, "node_modules"))
	if err != nil {
		return fmt.Errorf("no node_modules in %s (run make setup): %v", repo, err)
	}
	return os.Symlink(nm, filepath.Join(s.src, "node_modules"))
}

func copyFile(from, to string) error {
	st, err := os.Lstat(from)
	if os.IsNotExist(err) {
		return nil // deleted in the working tree, not yet committed
	}
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
		return err
	}
	if st.Mode()&os.ModeSymlink != 0 {
		target, err := os.Readlink(from)
		if err != nil {
			return err
		}
		return os.Symlink(target, to)
	}
	if !st.Mode().IsRegular() {
		return nil
	}
	in, err := os.Open(from)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(to, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, st.Mode().Perm())
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// build compiles the side's sitegen and builds its site into s.out, the
// way `make build` does (default options), with the image cache outside
// both trees when the side's sitegen has one.
func (s *side) build(ctx context.Context, imageCache string, logw io.Writer) error {
	bin := filepath.Join(s.dir, "sitegen")
	goBuild := exec.CommandContext(ctx, "go", "build", "-tags=nodynamic", "-o", bin, "./cmd/sitegen")
	goBuild.Dir = s.src
	if out, err := goBuild.CombinedOutput(); err != nil {
		return fmt.Errorf("%s: go build: %v\n%s", s.name, err, out)
	}
	args := []string{"build", "--out", s.out}
	help, _ := exec.CommandContext(ctx, bin, "build", "--help").CombinedOutput()
	if bytes.Contains(help, []byte("--image-cache")) {
		args = append(args, "--image-cache", imageCache)
	}
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir = s.src
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("%s: sitegen %s: %v\n%s", s.name, strings.Join(args, " "), err, out.String())
	}
	for _, l := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		if strings.HasPrefix(l, "built ") || strings.HasPrefix(l, "images: ") {
			fmt.Fprintf(logw, "%s: %s\n", s.name, l)
		}
	}
	return nil
}
