// Command dist builds sitegen's release archives, reproducibly: the same
// commit gives the same bytes on any machine with the same Go toolchain.
//
//	go run ./tools/dist -out dist [-targets linux/amd64,...]
//
// Each binary is built with CGO_ENABLED=0, -trimpath and an empty build id,
// with the commit and its date stamped in; each archive (tar.gz, zip for
// Windows) holds the binary, README.md, docs/*.md and LICENSE when present, sorted,
// with the commit's time as every mtime and no owner. SHA256SUMS lists the
// archives.
package main

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

var allTargets = "linux/amd64,linux/arm64,darwin/amd64,darwin/arm64,windows/amd64,windows/arm64"

func main() {
	out := flag.String("out", "dist", "folder for the archives")
	targets := flag.String("targets", allTargets, "GOOS/GOARCH list")
	version := flag.String("version", "", "version in the archive names (default: sitegen's)")
	flag.Parse()
	if err := run(*out, strings.Split(*targets, ","), *version); err != nil {
		fmt.Fprintln(os.Stderr, "dist:", err)
		os.Exit(1)
	}
}

func git(args ...string) (string, error) {
	b, err := exec.Command("git", args...).Output()
	if err != nil {
		return "", fmt.Errorf("git %s: %w", strings.Join(args, " "), err)
	}
	return strings.TrimSpace(string(b)), nil
}

func run(out string, targets []string, version string) error {
	commit, err := git("rev-parse", "HEAD")
	if err != nil {
		return err
	}
	stamp, err := git("log", "-1", "--format=%cI", "HEAD")
	if err != nil {
		return err
	}
	when, err := time.Parse(time.RFC3339, stamp)
	if err != nil {
		return fmt.Errorf("commit date %q: %w", stamp, err)
	}
	when = when.UTC()
	if version == "" {
		b, err := exec.Command("go", "run", "./tools/dist/version").Output()
		if err != nil {
			return fmt.Errorf("read the version: %w", err)
		}
		version = strings.TrimSpace(string(b))
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	tmp, err := os.MkdirTemp("", "sitegen-dist-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	var sums []string
	for _, t := range targets {
		goos, goarch, ok := strings.Cut(t, "/")
		if !ok {
			return fmt.Errorf("target %q is not GOOS/GOARCH", t)
		}
		exe := "sitegen"
		if goos == "windows" {
			exe += ".exe"
		}
		bin := filepath.Join(tmp, goos+"-"+goarch, exe)
		cmd := exec.Command("go", "build", "-trimpath", "-buildvcs=false",
			"-ldflags", "-s -w -buildid= -X main.commit="+commit+" -X main.date="+when.Format(time.RFC3339),
			"-o", bin, "./cmd/sitegen")
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOOS="+goos, "GOARCH="+goarch, "GOFLAGS=-tags=nodynamic")
		cmd.Stderr = os.Stderr
		if err := cmd.Run(); err != nil {
			return fmt.Errorf("build %s: %w", t, err)
		}
		files, err := docFiles()
		if err != nil {
			return err
		}
		files[exe] = bin
		name := fmt.Sprintf("sitegen_%s_%s_%s", version, goos, goarch)
		var data []byte
		if goos == "windows" {
			name += ".zip"
			data, err = zipOf(files, when)
		} else {
			name += ".tar.gz"
			data, err = tarOf(files, when)
		}
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		if err := os.WriteFile(filepath.Join(out, name), data, 0o644); err != nil {
			return err
		}
		sums = append(sums, fmt.Sprintf("%x  %s\n", sha256.Sum256(data), name))
		fmt.Println(filepath.Join(out, name))
	}
	sort.Strings(sums)
	return os.WriteFile(filepath.Join(out, "SHA256SUMS"), []byte(strings.Join(sums, "")), 0o644)
}

// docFiles are the archive's documents (by name in the archive): README.md,
// LICENSE when present, and docs/*.md, which README and `sitegen init`
// point at.
func docFiles() (map[string]string, error) {
	files := map[string]string{}
	for _, f := range []string{"README.md", "LICENSE"} {
		if _, err := os.Stat(f); err == nil {
			files[f] = f
		}
	}
	docs, err := filepath.Glob(filepath.Join("docs", "*.md"))
	if err != nil {
		return nil, err
	}
	if len(docs) == 0 {
		return nil, fmt.Errorf("no docs/*.md: run dist from the repository's root")
	}
	for _, d := range docs {
		files[filepath.ToSlash(d)] = d
	}
	return files, nil
}

// sortedNames are the archive entries in a fixed order.
func sortedNames(files map[string]string) []string {
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

func mode(name string) fs.FileMode {
	if strings.HasPrefix(name, "sitegen") {
		return 0o755
	}
	return 0o644
}

func tarOf(files map[string]string, when time.Time) ([]byte, error) {
	var buf bytes.Buffer
	gz, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression) // no name, no mtime in the header
	tw := tar.NewWriter(gz)
	for _, n := range sortedNames(files) {
		b, err := os.ReadFile(files[n])
		if err != nil {
			return nil, err
		}
		hdr := &tar.Header{Name: n, Mode: int64(mode(n)), Size: int64(len(b)), ModTime: when, Format: tar.FormatPAX, Typeflag: tar.TypeReg}
		if err := tw.WriteHeader(hdr); err != nil {
			return nil, err
		}
		if _, err := tw.Write(b); err != nil {
			return nil, err
		}
	}
	if err := tw.Close(); err != nil {
		return nil, err
	}
	if err := gz.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func zipOf(files map[string]string, when time.Time) ([]byte, error) {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, n := range sortedNames(files) {
		b, err := os.ReadFile(files[n])
		if err != nil {
			return nil, err
		}
		h := &zip.FileHeader{Name: n, Method: zip.Deflate, Modified: when}
		h.SetMode(mode(n))
		w, err := zw.CreateHeader(h)
		if err != nil {
			return nil, err
		}
		if _, err := w.Write(b); err != nil {
			return nil, err
		}
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
