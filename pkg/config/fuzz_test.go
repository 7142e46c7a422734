package config

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
)

// FuzzParse: no site.yaml makes Parse panic; a config accepted without
// errors has a valid base URL, locales and legacy paths.
func FuzzParse(f *testing.F) {
	filepath.WalkDir("../../testdata", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		if filepath.Base(p) == FileName {
			if b, err := os.ReadFile(p); err == nil {
				f.Add(b)
			}
		}
		if strings.HasSuffix(p, ".txtar") {
			if ar, err := txtar.ParseFile(p); err == nil {
				for _, af := range ar.Files {
					if af.Name == FileName {
						f.Add(af.Data)
					}
				}
			}
		}
		return nil
	})
	if b, err := os.ReadFile("../../" + FileName); err == nil {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		c, err := Parse(src)
		if err != nil {
			return
		}
		if _, err := CheckBaseURL(c.BaseURL); err != nil {
			t.Fatalf("accepted base URL: %v", err)
		}
		if len(c.Locales) == 0 {
			t.Fatalf("accepted a config without locales")
		}
		c.DefaultLocale()
	})
}
