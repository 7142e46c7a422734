package build

import (
	"fmt"
	"io/fs"
	"maps"
	"strings"

	"sitegen/pkg/config"
	"sitegen/pkg/images"
)

// ImageDir holds source images (photographs at full size): they are never
// copied to the output; pages show them through the picture template
// function and Markdown images, which make resized variants.
const ImageDir = "assets/images"

// newImages returns the site's image processor, which looks up source paths
// in ImageDir and then StaticDir, and the site paths of ImageDir's files.
// The variants are kept in cache (default images.DefaultCacheDir), and in
// siteDir too when it is set (the site's images.SiteFolder, which site.yaml's
// images.keepInSite asks for). Neither is read through fsys: they hold
// what the sources and settings give, not inputs, so the record of a warm
// build (unchanged.go) has them in none of its dependencies, and a build
// writing into them changes nothing the next one checks.
func newImages(fsys fs.FS, cache, siteDir string, enc *images.Encoders, maxPixels int) (*images.Processor, map[string]bool, error) {
	if cache == "" {
		cache = images.DefaultCacheDir()
	}
	p := images.New(images.Config{FS: fsys, Dirs: []string{ImageDir, StaticDir}, CacheDir: cache, SiteDir: siteDir, Encoders: enc, MaxPixels: maxPixels})
	files := map[string]bool{}
	if _, err := fs.Stat(fsys, ImageDir); err != nil {
		return p, files, nil
	}
	err := fs.WalkDir(fsys, ImageDir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.Type().IsRegular() {
			files[strings.TrimPrefix(p, ImageDir)] = true
		}
		return nil
	})
	return p, files, err
}

// imageEncoders are given (a test's, Options.ImageEncoders) or, when nil,
// those site.yaml's images.avif chooses: with native, the machine's avifenc
// (images.NativeEncoders), whose errors name the setting's line; nil (the
// defaults) otherwise, and when the machine has no avifenc fit to encode,
// whose error is returned (the rest of the site is still checked).
func imageEncoders(cfg config.Images, given *images.Encoders) (*images.Encoders, error) {
	if given != nil || cfg.AVIF != config.AVIFNative {
		return given, nil
	}
	enc, err := images.NativeEncoders(fmt.Sprintf("%s: images.avif: native", cfg.AVIFPos))
	if err != nil {
		return nil, err
	}
	return &enc, nil
}

// withImages is statics plus the source images, the files front matter may
// name.
func withImages(statics, imgs map[string]bool) map[string]bool {
	if len(imgs) == 0 {
		return statics
	}
	out := maps.Clone(statics)
	maps.Copy(out, imgs)
	return out
}
