package render

import (
	"fmt"
	"html/template"
	"sort"
	"strconv"
	"strings"

	"sitegen/pkg/content"
	"sitegen/pkg/diag"
	"sitegen/pkg/images"
	"sitegen/pkg/markdown"
)

// Pictures makes <picture> elements; *images.Processor is the real one.
type Pictures interface {
	Picture(sitePath string, o images.Options) (*images.Picture, error)
	Exists(sitePath string) bool
}

// PictureOptions are the settings of one picture, from a template's dict or
// a Markdown image's title.
type PictureOptions struct {
	images.Options
	Sizes      string
	Class      string
	Eager      bool // the page's LCP image: loading=eager, fetchpriority=high and a preload
	Decorative bool // alt="" on purpose
}

// pictureOptions reads a template's options dict: sizes, class, quality,
// ratio ("16:9" or 1.5), focus ("0.3,0.6"), widths (list), eager, decorative.
func pictureOptions(m map[string]any) (PictureOptions, error) {
	var o PictureOptions
	for k, v := range m {
		s := fmt.Sprint(v)
		var err error
		switch k {
		case "sizes":
			o.Sizes = s
		case "class":
			o.Class = s
		case "eager":
			o.Eager, err = strconv.ParseBool(s)
		case "decorative":
			o.Decorative, err = strconv.ParseBool(s)
		case "quality":
			o.Quality, err = strconv.Atoi(s)
		case "ratio":
			o.Ratio, err = parseRatio(s)
		case "focus":
			x, y, ok := strings.Cut(s, ",")
			if o.FocusX, err = strconv.ParseFloat(strings.TrimSpace(x), 64); err == nil && ok {
				o.FocusY, err = strconv.ParseFloat(strings.TrimSpace(y), 64)
			} else if !ok {
				err = fmt.Errorf("want x,y between 0 and 1")
			}
		case "widths":
			l, ok := v.([]any)
			if !ok {
				return o, fmt.Errorf("picture: widths must be a list (list 320 640)")
			}
			for _, w := range l {
				n, err := strconv.Atoi(fmt.Sprint(w))
				if err != nil || n <= 0 {
					return o, fmt.Errorf("picture: width %v is not a positive number", w)
				}
				o.Widths = append(o.Widths, n)
			}
		default:
			return o, fmt.Errorf("picture: unknown option %q (sizes, class, quality, ratio, focus, widths, eager, decorative)", k)
		}
		if err != nil {
			return o, fmt.Errorf("picture: option %s=%q: %v", k, s, err)
		}
	}
	return o, nil
}

func parseRatio(s string) (float64, error) {
	if a, b, ok := strings.Cut(s, ":"); ok {
		x, err1 := strconv.ParseFloat(a, 64)
		y, err2 := strconv.ParseFloat(b, 64)
		if err1 != nil || err2 != nil || x <= 0 || y <= 0 {
			return 0, fmt.Errorf("want a ratio like 16:9")
		}
		return x / y, nil
	}
	r, err := strconv.ParseFloat(s, 64)
	if err != nil || r <= 0 {
		return 0, fmt.Errorf("want a ratio like 16:9 or 1.5")
	}
	return r, nil
}

// picture is the template function: picture SRC ALT [OPTIONS].
// SRC is a site path or a content file (a front matter image, whose
// position then names a missing alt).
func (r *Renderer) picture(st *execState, v any, alt string, opts ...map[string]any) (template.HTML, error) {
	var p string
	var pos diag.Pos
	switch f := v.(type) {
	case content.File:
		p, pos = f.Path, f.Pos
	case *content.File:
		p, pos = f.Path, f.Pos
	case string:
		p = f
	default:
		return "", fmt.Errorf("picture: expected an image path, got %T", v)
	}
	var o PictureOptions
	if len(opts) > 0 {
		var err error
		if o, err = pictureOptions(opts[0]); err != nil {
			return "", err
		}
	}
	h, err := r.pictureHTML(st, p, alt, o)
	if err != nil && pos.File != "" {
		return "", fmt.Errorf("%s: %w", pos, err)
	}
	return h, err
}

// ErrNoAlt is a picture without alt text that is not marked decorative.
var ErrNoAlt = fmt.Errorf("has no alt text; describe it, or mark it decorative")

func (r *Renderer) pictureHTML(st *execState, p, alt string, o PictureOptions) (template.HTML, error) {
	if strings.TrimSpace(alt) == "" && !o.Decorative {
		return "", fmt.Errorf("image %s %w", p, ErrNoAlt)
	}
	if o.Decorative {
		alt = ""
	}
	if r.opts.Images == nil {
		return "", fmt.Errorf("picture %s: this build has no image processor", p)
	}
	if st != nil {
		st.deps.add(DepImage(p)) // an edit of the photo renders this page again
	}
	pic, err := r.opts.Images.Picture(p, o.Options)
	if err != nil {
		return "", err
	}
	if st != nil {
		st.pictures = append(st.pictures, PictureUse{Path: p, Options: o.Options})
	}
	if pic.SVG { // passes through from the static files, at its own size
		if pic.Width, pic.Height, err = r.imageSize(p); err != nil {
			return "", fmt.Errorf("%v (an SVG picture is served as is, so it must be a static file)", err)
		}
	}
	return template.HTML(PictureMarkup(pic, alt, o, st)), nil
}

// PictureMarkup writes pic as HTML; st (may be nil) collects the preload of
// an eager picture.
func PictureMarkup(pic *images.Picture, alt string, o PictureOptions, st *execState) string {
	esc := template.HTMLEscapeString
	var b strings.Builder
	attrs := func() {
		fmt.Fprintf(&b, ` alt="%s" width="%d" height="%d"`, esc(alt), pic.Width, pic.Height)
		if o.Class != "" {
			fmt.Fprintf(&b, ` class="%s"`, esc(o.Class))
		}
		if o.Eager {
			b.WriteString(` loading="eager" fetchpriority="high"`)
		} else {
			b.WriteString(` loading="lazy"`)
		}
		b.WriteString(` decoding="async">`)
	}
	if pic.SVG {
		fmt.Fprintf(&b, `<img src="%s"`, esc(pic.URL))
		attrs()
		return b.String()
	}
	sizes := o.Sizes
	if sizes == "" {
		sizes = images.DefaultSizes
	}
	b.WriteString("<picture>")
	for _, s := range pic.Sources {
		fmt.Fprintf(&b, `<source type="%s" srcset="%s" sizes="%s">`, s.Type, esc(s.Srcset()), esc(sizes))
	}
	fb := pic.Fallback
	fmt.Fprintf(&b, `<img src="%s" srcset="%s" sizes="%s"`, esc(fb.Default().URL), esc(fb.Srcset()), esc(sizes))
	attrs()
	b.WriteString("</picture>")
	if o.Eager && st != nil && len(pic.Sources) > 0 {
		// Preload the best format: browsers that support it are the ones a
		// preload helps; others fall back to the <img> as usual.
		s := pic.Sources[0]
		st.preloads = append(st.preloads, fmt.Sprintf(`<link rel="preload" as="image" type="%s" imagesrcset="%s" imagesizes="%s" fetchpriority="high">`,
			s.Type, esc(s.Srcset()), esc(sizes)))
	}
	return b.String()
}

// preloadLinks returns the preload links of eager pictures, once each.
func preloadLinks(links []string) string {
	if len(links) == 0 {
		return ""
	}
	seen := map[string]bool{}
	var b strings.Builder
	for _, l := range links {
		if !seen[l] {
			seen[l] = true
			b.WriteString(l)
		}
	}
	return b.String()
}

// insertion is text to put into a page at an offset.
type insertion struct {
	at   int
	text string
}

// insert returns page with the insertions made (in order of offset; at one
// offset in the order given), in one copy; page itself when there are none.
func insert(page []byte, ins []insertion) []byte {
	if len(ins) == 0 {
		return page
	}
	sort.SliceStable(ins, func(i, j int) bool { return ins[i].at < ins[j].at })
	n := len(page)
	for _, x := range ins {
		n += len(x.text)
	}
	out := make([]byte, 0, n)
	prev := 0
	for _, x := range ins {
		out = append(out, page[prev:x.at]...)
		out = append(out, x.text...)
		prev = x.at
	}
	return append(out, page[prev:]...)
}

// markdownImages is the Markdown image hook of one render: an image whose
// path names a source image becomes a <picture>. Its title holds options as
// words: eager, decorative, quality=60, ratio=16:9, focus=0.3,0.6.
func (r *Renderer) markdownImages(st *execState) markdown.ImageHook {
	if r.opts.Images == nil {
		return nil
	}
	return func(dest, alt, title string) (string, bool, error) {
		if !strings.HasPrefix(dest, "/") || !r.opts.Images.Exists(dest) {
			return "", false, nil
		}
		m := map[string]any{}
		for _, w := range strings.Fields(title) {
			k, v, ok := strings.Cut(w, "=")
			if !ok {
				v = "true"
			}
			if k == "sizes" || k == "class" || k == "widths" {
				return "", true, fmt.Errorf("image %s: option %q is for templates; a Markdown image takes eager, decorative, quality, ratio and focus", dest, k)
			}
			m[k] = v
		}
		o, err := pictureOptions(m)
		if err != nil {
			return "", true, fmt.Errorf("image %s: %v", dest, err)
		}
		h, err := r.pictureHTML(st, dest, alt, o)
		return string(h), true, err
	}
}
