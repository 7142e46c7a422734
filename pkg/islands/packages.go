package islands

import (
	"os"
	"path/filepath"
	"strings"

	"sitegen/pkg/diag"
)

// npmPackages are the npm packages the islands of a library need.
func npmPackages(library string) []string {
	switch library {
	case "react":
		return []string{"react", "react-dom"}
	case "preact", "":
		return []string{"preact", "preact-render-to-string"}
	}
	return nil // an unknown library is reported where the bundle is made
}

// needPackages tells a site with islands which npm packages it lacks (a
// fresh site before npm install), instead of esbuild's "Could not resolve
// ... mark it as external". A package is found where esbuild finds it: in a
// node_modules folder of the site or of any folder above it (Node's lookup),
// or in one of the extra node paths.
func needPackages(opts Options) error {
	root, err := absRoot(opts.Root)
	if err != nil {
		return err
	}
	var dirs []string
	for d := root; ; d = filepath.Dir(d) {
		dirs = append(dirs, filepath.Join(d, "node_modules"))
		if filepath.Dir(d) == d {
			break
		}
	}
	dirs = append(dirs, opts.NodePaths...)
	var missing []string
	for _, p := range npmPackages(opts.Library) {
		found := false
		for _, d := range dirs {
			if _, err := os.Stat(filepath.Join(d, p, "package.json")); err == nil {
				found = true
				break
			}
		}
		if !found {
			missing = append(missing, p)
		}
	}
	if len(missing) == 0 {
		return nil
	}
	return diag.New(diag.Pos{File: islandsDir}, "the islands need the npm package(s) %s, which are not in node_modules", strings.Join(missing, ", ")).
		WithHint("run npm install (package.json lists them; sitegen init writes one), or: npm install %s", strings.Join(missing, " "))
}
