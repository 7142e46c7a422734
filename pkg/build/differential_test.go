package build_test

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"sitegen/internal/treetest"
	"sitegen/pkg/build"
	"sitegen/pkg/devserver"
)

// The differential test of warm builds (issue 32): a seeded random sequence
// of mutations of a site's sources (edit, add, delete or rename any file:
// pages, data sets, templates, stylesheets, icons, static files, site.yaml,
// schema.yaml, a file of an npm package an island imports; a touch that
// changes nothing; an edit that keeps the size and the modification time),
// and after each one a warm build's output (with the cache and the spare)
// must equal a build without a cache, byte for byte, or both must fail;
// and a dev server started with the sequence, told of each change as its
// file watcher reports it, must answer with that build's files
// (differential_dev_test.go).
//
//	SITEGEN_DIFF_STEPS  mutations per site (default 4; make fuzz-warm runs more)
//	SITEGEN_DIFF_SEED   the seed (default 1)
//	SITEGEN_DIFF_SITES  a comma list of site names to run (default all)
func TestDifferential(t *testing.T) {
	steps := envInt("SITEGEN_DIFF_STEPS", 4)
	seed := envInt("SITEGEN_DIFF_SEED", 1)
	only := os.Getenv("SITEGEN_DIFF_SITES")
	sites, _ := filepath.Glob(filepath.Join("..", "..", "testdata", "sites", "*"))
	sites = append(sites, filepath.Join("..", "..")) // this website
	total, failing := 0, 0
	for _, src := range sites {
		name := filepath.Base(src)
		if src == filepath.Join("..", "..") {
			name = "website"
		}
		if only != "" && !slices.Contains(strings.Split(only, ","), name) {
			continue
		}
		n := steps
		if name == "website" && os.Getenv("SITEGEN_DIFF_STEPS") == "" {
			n = 2 // the slowest site: a short sequence in the default run
		}
		// With the clock an hour ahead, every file is older than two
		// seconds when a build reads it: its lstat stands for its bytes
		// (the path a site edited long before its build takes), and page
		// files come from knownPages without being read.
		for _, ahead := range []bool{false, true} {
			if ahead && name == "website" && os.Getenv("SITEGEN_DIFF_STEPS") == "" {
				continue
			}
			t.Run(fmt.Sprintf("%s/ahead=%t", name, ahead), func(t *testing.T) {
				d := newDiffSite(t, src, name)
				d.ahead = ahead
				rng := rand.New(rand.NewPCG(uint64(seed), uint64(len(name))))
				d.check(t, "initial", nil)
				for i := range n {
					what, paths, undo := d.mutate(t, rng)
					total++
					if !d.check(t, fmt.Sprintf("step %d (seed %d): %s", i+1, seed, what), paths) {
						// A site both builds refuse: the mutation is undone
						// (itself a mutation, checked), so the sequence goes
						// on with a site that builds.
						failing++
						undo()
						total++
						d.check(t, fmt.Sprintf("step %d (seed %d): undo %s", i+1, seed, what), paths)
					}
				}
			})
		}
	}
	t.Logf("%d mutations checked (%d of them left a site both builds refuse)", total, failing)
}

// TestIncrementalIcon is issue 32's reproduction: an icon of a folder
// site.yaml names outside assets/ changes, and the warm build must show it.
func TestIncrementalIcon(t *testing.T) {
	d := newDiffSite(t, filepath.Join("..", "..", "testdata", "sites", "minimal"), "minimal")
	d.write(t, "site.yaml", string(d.read(t, "site.yaml"))+"icons: {dir: icons}\n")
	d.write(t, "icons/star.svg", `<svg viewBox="0 0 10 10"><circle cx="5" cy="5" r="4"/></svg>`)
	d.write(t, "templates/base.html", strings.Replace(string(d.read(t, "templates/base.html")), "<body>", `<body>{{ icon "star" }}`, 1))
	d.check(t, "with an icon", nil)
	d.write(t, "icons/star.svg", `<svg viewBox="0 0 10 10"><rect width="8" height="8"/></svg>`)
	d.check(t, "the icon changed", []string{"icons/star.svg"})
	b, _ := os.ReadFile(filepath.Join(d.out, "en", "index.html"))
	if !bytes.Contains(b, []byte("<rect")) {
		t.Errorf("the warm build's page does not show the new icon")
	}
}

type diffSite struct {
	dir, out, cache, tmp string
	srv                  *devserver.Server // started at the first check
	hashes               []string          // the build hashes of the sequence's builds
	islands              bool              // the site imports the fake package from an island
	ahead                bool              // the warm builds' clock is an hour ahead
	n                    int
}

// newDiffSite copies a site into a temporary folder, with a node_modules
// of links to this repository's packages and one real package (fakepkg)
// that the site's first island imports, if it has islands.
func newDiffSite(t *testing.T, src, name string) *diffSite {
	t.Helper()
	tmp := t.TempDir()
	d := &diffSite{dir: filepath.Join(tmp, "site"), out: filepath.Join(tmp, "public"), cache: filepath.Join(tmp, "cache"), tmp: tmp}
	roots := []string{"."}
	if name == "website" {
		roots = []string{"site.yaml", "schema.yaml", "content", "templates", "assets", "package.json", "package-lock.json"}
	}
	for _, r := range roots {
		copySite(t, filepath.Join(src, r), filepath.Join(d.dir, r))
	}
	nm := filepath.Join(d.dir, "node_modules")
	must(t, os.MkdirAll(filepath.Join(nm, "fakepkg"), 0o755))
	repoNM, _ := filepath.Abs(filepath.Join("..", "..", "node_modules"))
	ents, _ := os.ReadDir(repoNM)
	for _, e := range ents {
		if !strings.HasPrefix(e.Name(), ".") {
			must(t, os.Symlink(filepath.Join(repoNM, e.Name()), filepath.Join(nm, e.Name())))
		}
	}
	d.write(t, "node_modules/fakepkg/package.json", `{"name": "fakepkg", "version": "1.0.0", "main": "index.js"}`)
	d.write(t, "node_modules/fakepkg/index.js", "globalThis.fakepkg = \"one\";\n")
	jsx, _ := filepath.Glob(filepath.Join(d.dir, "assets", "islands", "*.jsx"))
	if len(jsx) > 0 {
		slices.Sort(jsx)
		b, _ := os.ReadFile(jsx[0])
		must(t, os.WriteFile(jsx[0], append([]byte("import \"fakepkg\";\n"), b...), 0o644))
		d.islands = true
	}
	return d
}

func copySite(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if e.IsDir() && (e.Name() == "node_modules" || (rel != "." && strings.HasPrefix(e.Name(), "."))) {
			return filepath.SkipDir
		}
		if e.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		if !e.Type().IsRegular() {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dst, rel)), 0o755); err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), b, 0o644)
	})
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
}

func (d *diffSite) read(t *testing.T, rel string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(d.dir, rel))
	must(t, err)
	return b
}

func (d *diffSite) write(t *testing.T, rel, body string) {
	t.Helper()
	p := filepath.Join(d.dir, rel)
	must(t, os.MkdirAll(filepath.Dir(p), 0o755))
	must(t, os.WriteFile(p, []byte(body), 0o644))
}

// files are the site's source files a mutation may pick: every file but
// the links into node_modules (fakepkg's files are the site's own).
func (d *diffSite) files(t *testing.T) []string {
	var out []string
	filepath.WalkDir(d.dir, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if e.Type()&fs.ModeSymlink != 0 {
			return nil
		}
		if e.Type().IsRegular() {
			rel, _ := filepath.Rel(d.dir, p)
			out = append(out, filepath.ToSlash(rel))
		}
		return nil
	})
	slices.Sort(out)
	return out
}

// mutate changes the site at random and says how, and which paths a file
// watcher sees change (slash paths below the site; none for a touch, which
// changes a file's times only); undo puts it back.
func (d *diffSite) mutate(t *testing.T, rng *rand.Rand) (what string, paths []string, undo func()) {
	t.Helper()
	files := d.files(t)
	if pkg := "node_modules/fakepkg/index.js"; d.islands && slices.Contains(files, pkg) && rng.IntN(8) == 0 {
		files = []string{pkg} // the island's package, now and then
	}
	f := files[rng.IntN(len(files))]
	p := filepath.Join(d.dir, filepath.FromSlash(f))
	old, err := os.ReadFile(p)
	must(t, err)
	undo = func() { must(t, os.WriteFile(p, old, 0o644)) }
	d.n++
	switch op := rng.IntN(7); op {
	case 0, 1: // an edit that adds a line of the file's kind
		must(t, os.WriteFile(p, append(slices.Clone(old), []byte(extraLine(f, d.n))...), 0o644))
		return "append to " + f, []string{f}, undo
	case 2: // an edit that keeps the size and the modification time
		st, err := os.Stat(p)
		must(t, err)
		b := slices.Clone(old)
		var letters []int
		for i, c := range b {
			if c >= 'a' && c <= 'z' {
				letters = append(letters, i)
			}
		}
		if len(letters) == 0 {
			return "nothing to swap in " + f, nil, undo
		}
		i := letters[rng.IntN(len(letters))]
		b[i] = 'a' + (b[i]-'a'+1+byte(rng.IntN(25)))%26
		must(t, os.WriteFile(p, b, 0o644))
		must(t, os.Chtimes(p, st.ModTime(), st.ModTime()))
		return fmt.Sprintf("swap a letter at %d of %s, size and mtime kept", i, f), []string{f}, undo
	case 3: // a touch that changes nothing
		now := time.Now()
		must(t, os.Chtimes(p, now, now))
		return "touch " + f, nil, undo
	case 4: // a copy of a file beside it
		n := filepath.Join(d.dir, filepath.FromSlash(newName(f, d.n)))
		must(t, os.WriteFile(n, old, 0o644))
		return "add " + newName(f, d.n) + " (a copy of " + f + ")", []string{newName(f, d.n)}, func() { must(t, os.Remove(n)) }
	case 5:
		n := filepath.Join(d.dir, filepath.FromSlash(newName(f, d.n)))
		must(t, os.Rename(p, n))
		return "rename " + f, []string{f, newName(f, d.n)}, func() { must(t, os.Rename(n, p)) }
	default:
		must(t, os.Remove(p))
		return "delete " + f, []string{f}, undo
	}
}

// extraLine is a line that changes a file of f's kind without breaking it.
func extraLine(f string, n int) string {
	switch filepath.Ext(f) {
	case ".md":
		return fmt.Sprintf("\nA line added by mutation %d.\n", n)
	case ".yaml", ".yml":
		return fmt.Sprintf("\n# mutation %d\n", n)
	case ".html":
		return fmt.Sprintf("{{/* mutation %d */}}<!-- %d -->\n", n, n)
	case ".css":
		return fmt.Sprintf("\n.mutation-%d { color: red }\n", n)
	case ".js", ".jsx", ".ts", ".tsx":
		return fmt.Sprintf("\nglobalThis.mutation%d = %d;\n", n, n)
	case ".svg":
		return fmt.Sprintf("<!-- mutation %d -->\n", n)
	case ".json":
		return " \n"
	}
	return fmt.Sprintf("\nmutation %d\n", n)
}

// newName is a new name beside f, of the same kind.
func newName(f string, n int) string {
	ext := filepath.Ext(f)
	return strings.TrimSuffix(f, ext) + "-m" + strconv.Itoa(n) + ext
}

// check builds the site warm (cache, spare) and cold (no cache, a new
// folder) and compares: both fail, or both give the same files; the dev
// server, told of the paths that changed, must answer with the cold
// build's files (checkDev). It reports whether they built.
func (d *diffSite) check(t *testing.T, what string, paths []string) bool {
	t.Helper()
	if d.srv == nil {
		d.startDev(t)
	}
	ctx := context.Background()
	warm := build.Options{Source: d.dir, Out: d.out, CacheDir: d.cache, Date: "2026-01-01"}
	if d.ahead {
		build.ClockAhead(&warm, time.Hour)
	}
	_, werr := build.Run(ctx, warm)
	cold := filepath.Join(d.tmp, fmt.Sprintf("cold-%d", d.n))
	rep, cerr := build.Run(ctx, build.Options{Source: d.dir, Out: cold, Date: "2026-01-01"})
	defer os.RemoveAll(cold)
	d.checkDev(t, what, paths, cold, rep, cerr)
	switch {
	case (werr == nil) != (cerr == nil):
		t.Fatalf("%s: the warm build's error %v, the cold build's %v", what, werr, cerr)
	case werr != nil:
		return false // both refuse the site as it is
	}
	warmFiles, coldFiles := treetest.Read(t, d.out), treetest.Read(t, cold)
	for _, n := range slices.Sorted(mapsKeys(coldFiles)) {
		if w, ok := warmFiles[n]; !ok {
			t.Errorf("%s: the warm build lacks %s", what, n)
		} else if !bytes.Equal(w, coldFiles[n]) {
			t.Errorf("%s: %s differs from a build without the cache", what, n)
		}
	}
	for n := range warmFiles {
		if _, ok := coldFiles[n]; !ok {
			t.Errorf("%s: the warm build has %s, which a build without the cache does not", what, n)
		}
	}
	if t.Failed() {
		t.FailNow()
	}
	return true
}

func mapsKeys(m map[string][]byte) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

func envInt(name string, def int) int {
	if v, err := strconv.Atoi(os.Getenv(name)); err == nil {
		return v
	}
	return def
}

// must is build.Must (the package's tests and these share it).
var must = build.Must
