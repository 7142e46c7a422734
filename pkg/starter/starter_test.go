package starter

import (
	"encoding/json"
	"errors"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestWrite(t *testing.T) {
	for _, tt := range []struct {
		name      string
		opts      Options
		has, lack []string
	}{
		{"islands", Options{}, []string{".gitignore", "package.json", "package-lock.json", "assets/islands/Counter.jsx", ".vscode/settings.json", "assets/static/favicon.svg"}, []string{"gitignore"}},
		{"no islands", Options{NoIslands: true}, []string{".gitignore", ".vscode/settings.json", "templates/layouts/home.html", "assets/static/favicon.svg"}, []string{"package.json", "package-lock.json", "assets/islands/Counter.jsx"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "new", "site")
			files, err := Write(dir, tt.opts)
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range tt.has {
				if !slices.Contains(files, f) {
					t.Errorf("%s not in %v", f, files)
				}
				if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
					t.Error(err)
				}
			}
			for _, f := range tt.lack {
				if slices.Contains(files, f) {
					t.Errorf("%s written", f)
				}
			}
			home, err := os.ReadFile(filepath.Join(dir, "templates/layouts/home.html"))
			if err != nil {
				t.Fatal(err)
			}
			if got := slices.Contains(files, "package.json"); got != containsIsland(home) {
				t.Errorf("home layout has an island: %v, package.json written: %v", containsIsland(home), got)
			}
			// A second time the folder is not empty: refused, unchanged.
			if _, err := Write(dir, tt.opts); !errors.Is(err, ErrNotEmpty) {
				t.Errorf("second write: %v, want ErrNotEmpty", err)
			}
		})
	}
}

func containsIsland(b []byte) bool { return strings.Contains(string(b), "{{ island ") }

// TestWriteRefusesAFile: a path that is a file is not a folder to write into.
func TestWriteRefusesAFile(t *testing.T) {
	f := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(f, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Write(f, Options{}); err == nil {
		t.Error("wrote into a file")
	}
}

// TestLockFileMatches: the starter's package-lock.json pins exactly the
// packages of its package.json, at their versions, so `npm ci` installs
// them and the two cannot drift apart (regenerate the lock file with
// `npm install --package-lock-only` in a copy of site/).
func TestLockFileMatches(t *testing.T) {
	var pkg struct {
		Name         string            `json:"name"`
		Dependencies map[string]string `json:"dependencies"`
	}
	var lock struct {
		Name     string `json:"name"`
		Packages map[string]struct {
			Version      string            `json:"version"`
			Integrity    string            `json:"integrity"`
			Dependencies map[string]string `json:"dependencies"`
		} `json:"packages"`
	}
	for name, v := range map[string]any{"site/package.json": &pkg, "site/package-lock.json": &lock} {
		b, err := files.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(b, v); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
	}
	if lock.Name != pkg.Name || !maps.Equal(lock.Packages[""].Dependencies, pkg.Dependencies) {
		t.Errorf("package-lock.json is for %s %v, package.json is %s %v", lock.Name, lock.Packages[""].Dependencies, pkg.Name, pkg.Dependencies)
	}
	for name, version := range pkg.Dependencies {
		p := lock.Packages["node_modules/"+name]
		if p.Version != version || p.Integrity == "" {
			t.Errorf("package-lock.json pins %s at %q (integrity %q), package.json asks for %s", name, p.Version, p.Integrity, version)
		}
	}
}
