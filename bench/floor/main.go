// Command floor measures the write floor of a Markdown site: every page of
// content/<lang>/ converted by goldmark with the extensions sitegen uses
// (GFM, heading ids; no highlighting, like the ssgbench peers), in parallel
// on every core, each written to <out>/<lang>/<name>/index.html. No front
// matter is decoded, no template runs, nothing else is written: no
// generator that converts and writes these pages can be faster with the
// same libraries. bench/ssgbench/floor.sh compares a full sitegen build
// with it.
//
// With -contract, each page also gets what sitegen's output contract asks
// for beside it: its page data, /page-data/<lang>/<name>/page-data.json,
// here the page's HTML as one JSON string (a folder and a file more per
// page, about the size of sitegen's). That floor is what any generator
// keeping the contract pays at least.
//
// With -library (and -contract), each page is also made as the peers make
// it with the libraries sitegen's design names: its front matter decoded by
// yaml.v3 into a struct, and the page laid out by an html/template like the
// harness's (head, navigation, the article, the locale's cards from
// data/cards.yaml, parsed once): what a generator built on goldmark, yaml.v3
// and html/template pays at least, without a cache, links, or checks.
//
//	go run ./bench/floor -src /dev/shm/ssgbench/peers/sitegen/content -out /dev/shm/floor
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/renderer/html"
)

func main() {
	src := flag.String("src", "", "content folder (holds one folder per locale)")
	out := flag.String("out", "", "output folder (must not exist)")
	contract := flag.Bool("contract", false, "also write each page's page data (/page-data/<lang>/<name>/page-data.json)")
	library := flag.Bool("library", false, "also decode the front matter (yaml.v3) and lay the page out (html/template)")
	flag.Parse()
	if *src == "" || *out == "" {
		fmt.Fprintln(os.Stderr, "usage: floor -src CONTENT -out DIR")
		os.Exit(2)
	}
	if _, err := os.Stat(*out); err == nil {
		fmt.Fprintf(os.Stderr, "floor: %s exists; give a folder that does not\n", *out)
		os.Exit(2)
	}
	files, err := filepath.Glob(filepath.Join(*src, "*", "*.md"))
	if err != nil || len(files) == 0 {
		fmt.Fprintf(os.Stderr, "floor: no Markdown under %s/*/: %v\n", *src, err)
		os.Exit(1)
	}
	start := time.Now()
	var before syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &before)
	md := goldmark.New(
		goldmark.WithExtensions(extension.GFM),
		goldmark.WithParserOptions(parser.WithAutoHeadingID()),
		goldmark.WithRendererOptions(html.WithUnsafe()),
	)
	var lay *layout
	if *library {
		if lay, err = newLayout(*src); err != nil {
			fmt.Fprintln(os.Stderr, "floor:", err)
			os.Exit(1)
		}
	}
	next := make(chan string)
	errs := make(chan error, 1)
	var wg sync.WaitGroup
	for w := 0; w < 2*runtime.GOMAXPROCS(0); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var buf bytes.Buffer
			var data *bytes.Buffer // page data, with -contract
			if *contract {
				data = new(bytes.Buffer)
			}
			for f := range next {
				if err := convert(md, lay, f, *out, &buf, data); err != nil {
					select {
					case errs <- err:
					default:
					}
				}
			}
		}()
	}
	for _, f := range files {
		next <- f
	}
	close(next)
	wg.Wait()
	select {
	case err := <-errs:
		fmt.Fprintln(os.Stderr, "floor:", err)
		os.Exit(1)
	default:
	}
	var after syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &after)
	cpu := time.Duration(after.Utime.Nano()+after.Stime.Nano()-before.Utime.Nano()-before.Stime.Nano()) * time.Nanosecond
	fmt.Printf("floor: %d pages in %.2f s wall, %.2f s CPU\n", len(files), time.Since(start).Seconds(), cpu.Seconds())
}

// convert writes the page of one Markdown file (its front matter skipped,
// or decoded and the page laid out when lay is set) and, when data is not
// nil, its page data.
func convert(md goldmark.Markdown, lay *layout, file, out string, buf, data *bytes.Buffer) error {
	b, err := os.ReadFile(file)
	if err != nil {
		return err
	}
	var front []byte
	if rest, ok := bytes.CutPrefix(b, []byte("---\n")); ok {
		if i := bytes.Index(rest, []byte("\n---\n")); i >= 0 {
			front, b = rest[:i+1], rest[i+5:]
		}
	}
	buf.Reset()
	if err := md.Convert(b, buf); err != nil {
		return fmt.Errorf("%s: %w", file, err)
	}
	lang := filepath.Base(filepath.Dir(file))
	if lay != nil {
		if err := lay.page(buf, lang, front); err != nil {
			return fmt.Errorf("%s: %w", file, err)
		}
	}
	dir := filepath.Join(out, lang, strings.TrimSuffix(filepath.Base(file), ".md"))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "index.html"), buf.Bytes(), 0o644); err != nil {
		return err
	}
	if data == nil {
		return nil
	}
	data.Reset()
	enc := json.NewEncoder(data)
	if err := enc.Encode(struct {
		HTML string `json:"html"`
	}{buf.String()}); err != nil {
		return err
	}
	dir = filepath.Join(out, "page-data", lang, strings.TrimSuffix(filepath.Base(file), ".md"))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "page-data.json"), data.Bytes(), 0o644)
}
