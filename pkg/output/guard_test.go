//go:build unix

package output

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// guardFixture lays out, in a temporary folder: home/ (the user's home, with
// a file), site/ (a site with content/, .git/, docs/ and a marked public/),
// a symbolic link to the site, an unrelated folder with files, an empty
// folder, a regular file and a named pipe.
func guardFixture(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	for _, d := range []string{"home", "site/content/pl", "site/.git", "site/docs", "site/public", "unrelated", "empty", "marked", "added/docs"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	files := map[string]string{
		"home/.bashrc":                "x",
		"site/site.yaml":              "title: x",
		"site/content/pl/index.md":    "x",
		"site/.git/HEAD":              "x",
		"site/docs/guide.md":          "x",
		"site/public/index.html":      "x",
		"site/public/" + ManifestName: `{"generator":"sitegen","version":"0","files":["index.html"]}`,
		"marked/" + ManifestName:      `{"generator":"sitegen","version":"0","files":[]}`,
		"added/" + ManifestName:       `{"generator":"sitegen","version":"0","files":["index.html"]}`,
		"added/index.html":            "x",
		"added/CNAME":                 "example.test",
		"added/docs/report.pdf":       "x",
		"unrelated/a.txt":             "x",
		"unrelated/b.txt":             "x",
		"unrelated/c.txt":             "x",
		"unrelated/d.txt":             "x",
		"unrelated/e.txt":             "x",
		"unrelated/f.txt":             "x",
		"file.txt":                    "x",
	}
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(root, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	os.MkdirAll(filepath.Join(root, "unrelated/sub"), 0o755)
	if err := os.Symlink(filepath.Join(root, "site"), filepath.Join(root, "sitelink")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(root, "marked"), filepath.Join(root, "outlink")); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(root, "fifo"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("HOME", filepath.Join(root, "home"))
	return root
}

// TestOutRefuses: each --out a build must not replace is refused with a
// message naming it and why, whatever the source; the allowed ones pass.
func TestOutRefuses(t *testing.T) {
	root := guardFixture(t)
	site := filepath.Join(root, "site")
	tests := []struct {
		name, source, out string
		want              string // "" = allowed
	}{
		{"fs-root", site, "/", "refusing to write the output to /: it is the root of the file system; choose a new folder such as public"},
		{"home", site, root + "/home", "refusing to write the output to " + root + "/home: it is your home folder; choose a new folder such as public"},
		{"home-with-slash", site, root + "/home/", "refusing to write the output to " + root + "/home/: it is your home folder; choose a new folder such as public"},
		{"holds-home", root + "/site", root, "refusing to write the output to " + root + ": it holds your home folder " + root + "/home; choose a new folder such as public"},
		{"source", site, site, "refusing to write the output to " + site + ": it is the site source; choose a new folder such as public"},
		{"source-dot", site, site + "/.", "refusing to write the output to " + site + "/.: it is the site source; choose a new folder such as public"},
		{"source-link", root + "/sitelink", site, "refusing to write the output to " + site + ": it is the site source; choose a new folder such as public"},
		{"out-through-link", site, root + "/sitelink", "refusing to write the output to " + root + "/sitelink: it is the site source; choose a new folder such as public"},
		{"site-yaml", site, site + "/site.yaml", "refusing to write the output to " + site + "/site.yaml: it is not a folder (a regular file); choose a new folder such as public"},
		{"git", site, site + "/.git", "refusing to write the output to " + site + "/.git: it is inside the hidden folder .git of the site; choose a new folder such as public"},
		{"docs", site, site + "/docs", "refusing to write the output to " + site + "/docs: it is a folder of the site that sitegen did not write: it holds guide.md; choose a new folder such as public, or remove it yourself first"},
		{"content", site, site + "/content", "refusing to write the output to " + site + "/content: it is inside the site's content/ folder; choose a folder outside content/, templates/ and assets/, such as public"},
		{"inside-content", site, site + "/content/pl/out", "refusing to write the output to " + site + "/content/pl/out: it is inside the site's content/ folder; choose a folder outside content/, templates/ and assets/, such as public"},
		{"unrelated", site, root + "/unrelated", "refusing to write the output to " + root + "/unrelated: it is not empty and sitegen did not write it (no .sitegen-manifest.json): it holds a.txt, b.txt, c.txt, d.txt, e.txt and 2 more; choose an empty or new folder; if an older sitegen wrote it, remove it once yourself"},
		{"regular-file", site, root + "/file.txt", "refusing to write the output to " + root + "/file.txt: it is not a folder (a regular file); choose a new folder such as public"},
		{"fifo", site, root + "/fifo", "refusing to write the output to " + root + "/fifo: it is not a folder (a named pipe (FIFO)); choose a new folder such as public"},
		{"marked-with-added-files", site, root + "/added", "refusing to write the output to " + root + "/added: it is a sitegen output, but holds files sitegen did not write: CNAME, docs/report.pdf; move them into assets/static/ (copied into every build) or remove them"},
		{"symlink", site, root + "/outlink", "refusing to write the output to " + root + "/outlink: it is a symbolic link to " + root + "/marked; pass the folder itself"},

		{"allowed/marked-public", site, site + "/public", ""},
		{"allowed/absent-public", site, site + "/public2", ""},
		{"allowed/absent-outside", site, root + "/dist", ""},
		{"allowed/absent-deep", site, root + "/a/b/c", ""},
		{"allowed/empty", site, root + "/empty", ""},
		{"allowed/marked", site, root + "/marked", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := Guard(tt.source, tt.out)
			if tt.want == "" {
				if err != nil {
					t.Fatalf("Guard(%s): %v", tt.out, err)
				}
				return
			}
			var re *RefusedError
			if !errors.As(err, &re) {
				t.Fatalf("Guard(%s) = %v, want a RefusedError", tt.out, err)
			}
			if err.Error() != tt.want {
				t.Errorf("Guard(%s):\n got: %s\nwant: %s", tt.out, err, tt.want)
			}
		})
	}
}

// TestOutRefusesRelative: relative paths are judged from the working
// folder, like the shell that typed them.
func TestOutRefusesRelative(t *testing.T) {
	root := guardFixture(t)
	t.Chdir(filepath.Join(root, "site"))
	for _, out := range []string{".", "..", "site.yaml", "content", ".git", "docs"} {
		if err := Guard(".", out); !errors.As(err, new(*RefusedError)) {
			t.Errorf("--out %s: %v, want a RefusedError", out, err)
		}
	}
	if err := Guard(".", "public"); err != nil {
		t.Errorf("--out public: %v", err)
	}
}

func TestManifestMustNameSitegen(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, ManifestName), []byte(`{"generator":"hugo"}`), 0o644)
	if Marked(dir) {
		t.Errorf("a manifest naming another generator is no mark")
	}
	os.WriteFile(filepath.Join(dir, ManifestName), []byte(`not json`), 0o644)
	if Marked(dir) {
		t.Errorf("a broken manifest is no mark")
	}
}
