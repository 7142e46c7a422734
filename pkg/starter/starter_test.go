package starter

import (
	"errors"
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
		{"islands", Options{}, []string{".gitignore", "package.json", "assets/islands/Counter.jsx", ".vscode/settings.json"}, []string{"gitignore"}},
		{"no islands", Options{NoIslands: true}, []string{".gitignore", ".vscode/settings.json", "templates/layouts/home.html"}, []string{"package.json", "assets/islands/Counter.jsx"}},
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
