package islands

import (
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/evanw/esbuild/pkg/api"

	"sitegen/pkg/diag"
	"sitegen/pkg/esbuildmsg"
)

//go:embed js/loader.js
var loaderJS string

// Dir is the folder of a site's islands.
const Dir = "assets/islands"

const islandsDir = Dir

var islandName = regexp.MustCompile(`^[A-Z][A-Za-z0-9]*$`)

// discover lists the islands: assets/islands/<Name>.jsx, Name in PascalCase.
func discover(root string) ([]string, error) {
	ents, err := os.ReadDir(filepath.Join(root, islandsDir))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var names []string
	var dl diag.List
	for _, e := range ents {
		n, ok := strings.CutSuffix(e.Name(), ".jsx")
		if e.IsDir() || !ok {
			continue
		}
		if !islandName.MatchString(n) {
			dl.Add(diag.New(diag.Pos{File: path.Join(islandsDir, e.Name())}, "island file name must be PascalCase (<Name>.jsx)"))
			continue
		}
		names = append(names, n)
	}
	if len(dl) > 0 {
		return nil, dl.Sort()
	}
	sort.Strings(names)
	return names, nil
}

// aliases maps React to Preact (library "preact").
func aliases(lib string) map[string]string {
	if lib == "react" {
		return nil
	}
	return map[string]string{
		"react":                 "preact/compat",
		"react-dom":             "preact/compat",
		"react-dom/client":      "preact/compat/client",
		"react-dom/server":      "preact-render-to-string",
		"react/jsx-runtime":     "preact/jsx-runtime",
		"react/jsx-dev-runtime": "preact/jsx-runtime",
	}
}

func ssrEntry(lib string, names []string) string {
	var b strings.Builder
	if lib == "react" {
		b.WriteString("import { createElement as h } from 'react';\nimport { renderToString } from 'react-dom/server';\n")
	} else {
		b.WriteString("import { h } from 'preact';\nimport { renderToString } from 'preact-render-to-string';\n")
	}
	for i, n := range names {
		fmt.Fprintf(&b, "import C%d from './%s.jsx';\n", i, n)
	}
	b.WriteString("const islands = {\n")
	for i, n := range names {
		fmt.Fprintf(&b, "  %s: C%d,\n", strconv.Quote(n), i)
	}
	b.WriteString(`};
export const names = Object.keys(islands);
export function render(name, props, children) {
  try {
    const C = islands[name];
    if (typeof C !== 'function') throw new Error('island ' + name + ' has no default export component');
    const p = JSON.parse(props);
    if (children) p.childrenHtml = children;
    return JSON.stringify({ html: renderToString(h(C, p)) });
  } catch (e) {
    const err = e instanceof Error ? e : new Error(String(e));
    return JSON.stringify({ error: { name: err.name, message: err.message, stack: err.stack || '' } });
  }
}
`)
	return b.String()
}

func loaderEntry(lib string) string {
	if lib == "react" {
		return "import { createElement } from 'react';\nimport { hydrateRoot } from 'react-dom/client';\nconst mount = (C, p, el) => hydrateRoot(el, createElement(C, p));\n" + loaderJS
	}
	return "import { h, hydrate } from 'preact';\nconst mount = (C, p, el) => hydrate(h(C, p), el);\n" + loaderJS
}

// virtual serves the generated entries sitegen:ssr and sitegen:loader.
func virtual(root string, files map[string]string) api.Plugin {
	return api.Plugin{Name: "sitegen-virtual", Setup: func(pb api.PluginBuild) {
		pb.OnResolve(api.OnResolveOptions{Filter: `^sitegen:`}, func(a api.OnResolveArgs) (api.OnResolveResult, error) {
			return api.OnResolveResult{Path: a.Path, Namespace: "sitegen"}, nil
		})
		pb.OnLoad(api.OnLoadOptions{Filter: `.*`, Namespace: "sitegen"}, func(a api.OnLoadArgs) (api.OnLoadResult, error) {
			src, ok := files[a.Path]
			if !ok {
				return api.OnLoadResult{}, fmt.Errorf("no virtual module %s", a.Path)
			}
			dir := filepath.Join(root, islandsDir)
			return api.OnLoadResult{Contents: &src, ResolveDir: dir, Loader: api.LoaderJS}, nil
		})
	}}
}

func common(opts Options, root string) api.BuildOptions {
	nodePaths := append([]string{filepath.Join(root, "node_modules")}, opts.NodePaths...)
	return api.BuildOptions{
		AbsWorkingDir:   root,
		Bundle:          true,
		Write:           false,
		LogLevel:        api.LogLevelSilent,
		JSX:             api.JSXAutomatic,
		JSXImportSource: jsxSource(opts.Library),
		Alias:           aliases(opts.Library),
		NodePaths:       nodePaths,
		Loader:          map[string]api.Loader{".js": api.LoaderJSX, ".jsx": api.LoaderJSX},
		Define:          map[string]string{"process.env.NODE_ENV": `"production"`},
		Charset:         api.CharsetUTF8,
		LegalComments:   api.LegalCommentsNone,
		// Paths stay as the site sees them (node_modules may be a symlink),
		// so the output does not depend on where the real folder lies.
		PreserveSymlinks: true,
	}
}

func jsxSource(lib string) string {
	if lib == "react" {
		return "react"
	}
	return "preact"
}

func absRoot(r string) (string, error) {
	if r == "" {
		r = "."
	}
	return filepath.Abs(r)
}

// buildSSR returns the SSR bundle (IIFE exposing the global SGIslands) and
// its source map.
func buildSSR(opts Options, names []string, target string) (js, smap []byte, err error) {
	root, err := absRoot(opts.Root)
	if err != nil {
		return nil, nil, err
	}
	bo := common(opts, root)
	bo.EntryPoints = []string{"sitegen:ssr"}
	bo.Plugins = []api.Plugin{virtual(root, map[string]string{"sitegen:ssr": ssrEntry(opts.Library, names)})}
	bo.Format = api.FormatIIFE
	bo.GlobalName = "SGIslands"
	bo.Platform = api.PlatformNeutral
	bo.MainFields = []string{"module", "main"}
	bo.Conditions = []string{"browser", "import", "default"}
	bo.Outfile = filepath.Join(root, "sitegen-ssr.js")
	bo.Sourcemap = api.SourceMapExternal
	bo.SourcesContent = api.SourcesContentExclude
	switch target {
	case "es2017":
		bo.Target = api.ES2017
	default:
		bo.Target = api.ES2020
	}
	res := opts.Cache.Build(bo, ssrEntry(opts.Library, names))
	if err := esbuildmsg.Err(bo.AbsWorkingDir, res.Errors); err != nil {
		return nil, nil, err
	}
	for _, f := range res.OutputFiles {
		switch {
		case strings.HasSuffix(f.Path, ".map"):
			smap = f.Contents
		case strings.HasSuffix(f.Path, ".js"):
			js = f.Contents
		}
	}
	if js == nil || smap == nil {
		return nil, nil, fmt.Errorf("islands: esbuild produced no SSR bundle")
	}
	return js, smap, nil
}

type metafile struct {
	Inputs  map[string]json.RawMessage `json:"inputs"`
	Outputs map[string]struct {
		EntryPoint string `json:"entryPoint"`
		Imports    []struct {
			Path string `json:"path"`
			Kind string `json:"kind"`
		} `json:"imports"`
	} `json:"outputs"`
}

const clientOut = "sitegen-islands-out"

func buildClient(opts Options, names []string, b *Bundle) error {
	root, err := absRoot(opts.Root)
	if err != nil {
		return err
	}
	bo := common(opts, root)
	eps := []api.EntryPoint{{InputPath: "sitegen:loader", OutputPath: "loader"}}
	for _, n := range names {
		eps = append(eps, api.EntryPoint{InputPath: filepath.Join(root, islandsDir, n+".jsx"), OutputPath: n})
	}
	bo.EntryPointsAdvanced = eps
	bo.Plugins = []api.Plugin{virtual(root, map[string]string{"sitegen:loader": loaderEntry(opts.Library)})}
	bo.Format = api.FormatESModule
	bo.Splitting = true
	bo.Platform = api.PlatformBrowser
	bo.Target = api.ES2020
	bo.Outdir = filepath.Join(root, clientOut)
	bo.EntryNames = "[name]-[hash]"
	bo.ChunkNames = "[name]-[hash]"
	bo.Metafile = true
	if opts.Minify {
		bo.MinifyWhitespace, bo.MinifyIdentifiers, bo.MinifySyntax = true, true, true
	}
	res := opts.Cache.Build(bo, loaderEntry(opts.Library))
	if err := esbuildmsg.Err(bo.AbsWorkingDir, res.Errors); err != nil {
		return err
	}
	var meta metafile
	if err := json.Unmarshal([]byte(res.Metafile), &meta); err != nil {
		return fmt.Errorf("islands: metafile: %w", err)
	}
	b.client = map[string][]byte{}
	b.inputs = nil
	for in := range meta.Inputs {
		b.inputs = append(b.inputs, in)
	}
	slices.Sort(b.inputs)
	for _, f := range res.OutputFiles {
		rel, err := filepath.Rel(bo.Outdir, f.Path)
		if err != nil {
			return err
		}
		b.client[filepath.ToSlash(rel)] = f.Contents
	}
	// Static import closure of every output.
	base := func(p string) string { return strings.TrimPrefix(p, clientOut+"/") }
	deps := map[string][]string{}
	byEntry := map[string]string{}
	for out, o := range meta.Outputs {
		for _, im := range o.Imports {
			if im.Kind == "import-statement" {
				deps[base(out)] = append(deps[base(out)], base(im.Path))
			}
		}
		if o.EntryPoint != "" {
			byEntry[o.EntryPoint] = base(out)
		}
	}
	closure := func(start string) []string {
		seen := map[string]bool{}
		var walk func(string)
		walk = func(f string) {
			if seen[f] {
				return
			}
			seen[f] = true
			for _, d := range deps[f] {
				walk(d)
			}
		}
		walk(start)
		return sortedKeys(seen)
	}
	b.entries = map[string]string{}
	b.chunks = map[string][]string{}
	for _, n := range names {
		out, ok := byEntry[path.Join(islandsDir, n+".jsx")]
		if !ok {
			return fmt.Errorf("islands: no client output for %s (metafile entries: %v)", n, sortedKeys(byEntry))
		}
		b.entries[n] = out
		b.chunks[n] = closure(out)
	}
	loader, ok := byEntry["sitegen:sitegen:loader"]
	if !ok {
		return fmt.Errorf("islands: no client output for the loader (%v)", sortedKeys(byEntry))
	}
	b.loader = loader
	for _, f := range closure(loader) {
		if f != loader {
			b.loaderDeps = append(b.loaderDeps, f)
		}
	}
	return nil
}
