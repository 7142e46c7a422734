package build

import (
	"path"
	"sort"
	"strings"

	"sitegen/pkg/images"
)

// Metadata is a photo published as it is (from StaticDir) that carries
// private metadata: where it was taken, who took it.
type Metadata struct {
	File  string   // the source file, like assets/static/uploads/x.jpg
	Found []string // images.PrivateMetadata's findings
}

// Message is the warning for m.
func (m Metadata) Message() string {
	return "published as is with " + strings.Join(m.Found, " and ") + " (hint: " + images.StripHint + ")"
}

// StaticMetadata checks the JPEG, PNG and WebP files among statics (site
// paths) with read (which returns a file's bytes), sorted by file.
func StaticMetadata(statics map[string]bool, read func(sitePath string) []byte) []Metadata {
	var out []Metadata
	for p := range statics {
		switch strings.ToLower(path.Ext(p)) {
		case ".jpg", ".jpeg", ".png", ".webp":
		default:
			continue
		}
		if found := images.PrivateMetadata(read(p)); len(found) > 0 {
			out = append(out, Metadata{File: StaticDir + p, Found: found})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].File < out[j].File })
	return out
}
