package assets

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSiteEntries: the engine bundles only its own entries; a site's own
// entry (site.yaml assets.entries) gets its URL, and one that is missing is
// an error naming site.yaml.
func TestSiteEntries(t *testing.T) {
	root := t.TempDir()
	for name, body := range map[string]string{
		"assets/css/main.css":     "body{color:red}",
		"assets/js/banner-now.js": "document.title = 'x';",
	} {
		p := filepath.Join(root, filepath.FromSlash(name))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	res, err := Bundle(root, true)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := res.URLs["js/banner-now.js"]; ok || res.URLs["css/main.css"] == "" {
		t.Errorf("without site entries: %v", res.URLs)
	}
	res, err = Bundle(root, true, "js/banner-now.js")
	if err != nil {
		t.Fatal(err)
	}
	if u := res.URLs["js/banner-now.js"]; !strings.HasPrefix(u, Public+"banner-now-") || res.URLs["css/main.css"] == "" {
		t.Errorf("with a site entry: %v", res.URLs)
	}
	if _, err := Bundle(root, true, "js/missing.js"); err == nil || !strings.Contains(err.Error(), "site.yaml") || !strings.Contains(err.Error(), "js/missing.js") {
		t.Errorf("a missing site entry: %v", err)
	}
}
