// Package config reads and validates site.yaml.
package config

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"maps"
	"net/url"
	"path"
	"regexp"
	"slices"
	"sort"
	"strings"
	"time"

	"gopkg.in/yaml.v3"

	"sitegen/pkg/diag"
	"sitegen/pkg/sitepath"
	"sitegen/pkg/yamlx"
)

// cspSourceRE accepts host sources with a scheme: https://host, with an
// optional leading *. wildcard and port; nothing that could end the header
// or add a directive.
var cspSourceRE = regexp.MustCompile(`^https?://(\*\.)?[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*(:\d+)?$`)

// prefixRE is a locale's prefix: one path segment of ASCII letters,
// digits, -, _ and inner dots, which needs no escaping in a URL or a
// host's rule file and is no . or .. (a prefix "/.." built the locale over
// the site's root, "/p l" into a folder with a space, issue 36).
var prefixRE = regexp.MustCompile(`^/[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*$`)

// FileName is the config file at the root of a site.
const FileName = "site.yaml"

// Locale is one language of the site.
type Locale struct {
	Code    string `yaml:"code" sg:"required"`
	Name    string `yaml:"name" sg:"required"`
	Prefix  string `yaml:"prefix" sg:"required"`
	Default bool   `yaml:"default"`
}

// Form is the configuration of one form; its key under forms: is its
// name (the data set forms.<name> holds its fields and texts).
type Form struct {
	Endpoint string `yaml:"endpoint" sg:"required"`
	// ID is the id of the <form> element on the site's pages, which the
	// build's markup check looks for (default <name>-form).
	ID string `yaml:"id"`
	// Thanks is the id of the page a visitor lands on after sending
	// (default thanks); every locale needs it.
	Thanks string `yaml:"thanks"`
	// Subject starts the notification e-mail's subject (default: the name).
	Subject string `yaml:"subject"`
	// Event is the event name of the webhook's JSON (default
	// <name>_submission).
	Event string `yaml:"event"`
	// Honeypot is the name of the text input people never see and bots
	// fill in (default url); a submission with it filled is kept as spam.
	Honeypot string `yaml:"honeypot"`
	// Pos is where site.yaml declares the form, ThanksPos its thanks:
	// (the declaration when it has none).
	Pos       diag.Pos `yaml:"-"`
	ThanksPos diag.Pos `yaml:"-"`
}

// Islands configures the island bundles.
type Islands struct {
	// Library is "preact" (default: react resolves to preact/compat) or "react".
	Library string `yaml:"library"`
	// RenderTimeout bounds one server render of one island (default 3s).
	RenderTimeout Duration `yaml:"renderTimeout"`
	// BuildBudget bounds the time all island renders of one build may take
	// together (default 2m).
	BuildBudget Duration `yaml:"buildBudget"`
}

// Duration is a positive time span written like 3s, 500ms or 2m.
type Duration struct {
	time.Duration
	Pos diag.Pos
}

// DecodeNode implements yamlx.NodeDecoder.
func (d *Duration) DecodeNode(file string, n *yaml.Node) error {
	d.Pos = yamlx.Pos(file, n)
	if n.Kind != yaml.ScalarNode {
		return fmt.Errorf("must be a duration like 3s")
	}
	v, err := time.ParseDuration(n.Value)
	if err != nil || v <= 0 {
		return fmt.Errorf("%q must be a positive duration like 3s or 500ms", n.Value)
	}
	d.Duration = v
	return nil
}

// Images bounds the source images pages show.
type Images struct {
	// MaxPixels is the most pixels (width × height, read from the file's
	// header before decoding) a source image may have; 0 means the
	// default of 50,000,000 (images.DefaultMaxPixels: decoding one takes
	// about 200 MB).
	MaxPixels int `yaml:"maxPixels"`
	// KeepInSite keeps the encoded variants in the site as well as in the
	// image cache, in .sitegen/images (images.SiteFolder): a folder to
	// commit, so that a fresh clone or a CI run encodes none of the
	// variants it holds (docs/build.md, "Images").
	KeepInSite bool `yaml:"keepInSite"`
	// AVIF chooses the AVIF encoder: AVIFPortable (the default: libavif
	// compiled to WebAssembly, the same bytes on every machine) or
	// AVIFNative (the machine's avifenc, several times faster, whose
	// bytes, and so variant keys, are that machine's libavif and aom
	// versions'; docs/build.md, "The AVIF encoder").
	AVIF string `yaml:"avif"`
	// AVIFPos is where AVIF is set, for the native encoder's errors.
	AVIFPos diag.Pos `yaml:"-"`
}

// The AVIF encoders site.yaml's images.avif chooses from.
const (
	AVIFPortable = "portable"
	AVIFNative   = "native"
)

// Markdown configures Markdown rendering.
type Markdown struct {
	// Highlight turns syntax highlighting of fenced code on (default) or off.
	Highlight *bool `yaml:"highlight"`
	// BodySection is the section type that stands for the page's Markdown
	// body: a section of this type places the body where it stands, and
	// templates/sections/<type>.html, when the site has it, wraps a body
	// that no such section places (after the other sections). Empty (the
	// default): the body follows the sections as it is.
	BodySection string `yaml:"bodySection"`
}

// HighlightCode reports whether fenced code is highlighted.
func (m Markdown) HighlightCode() bool { return m.Highlight == nil || *m.Highlight }

// Icons configures the icon set the icon template function reads.
type Icons struct {
	// Dir is the folder of <name>.svg files, relative to the site root
	// (default assets/icons; an npm icon package works too, e.g.
	// node_modules/lucide-static/icons).
	Dir string `yaml:"dir"`
}

// Assets configures the bundles under assets/ besides the engine's
// (css/main.css, runtime/runtime.js, the islands).
type Assets struct {
	// Entries are more scripts or stylesheets, relative to assets/, each
	// bundled on its own (the template function asset names them), e.g. a
	// tiny script a template loads before the first paint.
	Entries []string `yaml:"entries"`
}

// ErrorPages names the pages served for errors. They stay out of the
// sitemap and are also written as <id>.html at the root and per locale.
type ErrorPages struct {
	NotFound    string `yaml:"notFound"`    // page id, default "404"
	ServerError string `yaml:"serverError"` // page id, default "500"
	// Layout is the layout of an error page whose front matter names none
	// (default: the usual default layout, page).
	Layout string `yaml:"layout"`
}

// IDs lists the error page ids.
func (e ErrorPages) IDs() []string { return []string{e.NotFound, e.ServerError} }

// Is reports whether id is an error page.
func (e ErrorPages) Is(id string) bool { return id == e.NotFound || id == e.ServerError }

// CSP lists the origins pages may use besides their own, per directive,
// for third-party scripts such as a tag manager. Form endpoints on other
// hosts are added to connect-src and form-action by themselves.
type CSP struct {
	ScriptSrc  []string `yaml:"scriptSrc"`
	ImgSrc     []string `yaml:"imgSrc"`
	ConnectSrc []string `yaml:"connectSrc"`
	FormAction []string `yaml:"formAction"`
}

// Origin returns scheme://host of an absolute http(s) URL, or "" for a
// path on the site itself.
func Origin(endpoint string) string {
	u, err := url.Parse(endpoint)
	if err != nil || u.Host == "" || (u.Scheme != "https" && u.Scheme != "http") {
		return ""
	}
	return u.Scheme + "://" + u.Host
}

// Budgets are the most bytes one page may load, counted gzip-compressed as a
// host serves them: its HTML, its stylesheets, its scripts. sitegen check
// reports pages over budget; zero means no budget.
type Budgets struct {
	HTML int `yaml:"html"`
	CSS  int `yaml:"css"`
	JS   int `yaml:"js"`
}

// Analytics are the third-party scripts loaded after the visitor accepts
// the consent banner; without scripts nothing loads, nothing is stored and
// the CSP allows no third party. The engine knows no vendor: the site names
// the scripts (any provider: a tag manager, an analytics tag, a
// privacy-friendly counter), the hosts they send hits to, and the settings
// its runtime reads (docs/runtime.md shows Google Tag Manager as an
// example).
type Analytics struct {
	// Scripts are absolute http(s) URLs, loaded in order after consent;
	// their origins are allowed as script-src, img-src and connect-src.
	Scripts []string `yaml:"scripts"`
	// DataOrigins receive the scripts' hits (img-src, connect-src), e.g.
	// https://*.example-analytics.com.
	DataOrigins []string `yaml:"dataOrigins"`
	// Params are settings the site's runtime reads (an id to configure, a
	// flag), handed over with the scripts.
	Params map[string]string `yaml:"params"`
}

// Meta is the content of the page's <meta name="sitegen-analytics"> that the
// runtime reads: a JSON object {"scripts": [...], "params": {...}}; "" without
// scripts.
func (a Analytics) Meta() string {
	if !a.Enabled() {
		return ""
	}
	params := a.Params
	if params == nil {
		params = map[string]string{}
	}
	b, err := json.Marshal(struct {
		Scripts []string          `json:"scripts"`
		Params  map[string]string `json:"params"`
	}{a.Scripts, params})
	if err != nil {
		panic(err) // strings only
	}
	return string(b)
}

// Enabled reports whether any third-party script is configured.
func (a Analytics) Enabled() bool { return len(a.Scripts) > 0 }

// ScriptOrigins are the distinct origins of the scripts, in order.
func (a Analytics) ScriptOrigins() []string {
	var out []string
	for _, src := range a.Scripts {
		if o := Origin(src); o != "" && !slices.Contains(out, o) {
			out = append(out, o)
		}
	}
	return out
}

// ServiceWorker configures /sw.js.
type ServiceWorker struct {
	// Retire ships a worker that unregisters itself and deletes its caches
	// instead of the caching worker: the way out of a bad deploy.
	Retire bool `yaml:"retire"`
	// Offline is the id of the page the caching worker shows, in the
	// visitor's locale, when a page is neither cached nor reachable; empty
	// (the default) means the site has none and the worker answers with
	// the network's error.
	Offline    string   `yaml:"offlinePage"`
	OfflinePos diag.Pos `yaml:"-"`
}

// paramKeyRE is a key of analytics.params.
var paramKeyRE = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_-]{0,39}$`)

// Config is site.yaml.
type Config struct {
	BaseURL string `yaml:"baseURL" sg:"required"`
	// Host is the software that serves the output (output.Hosts, which
	// the build checks the name against at HostPos); the build writes the
	// rule files it reads. Empty is the default host.
	Host        string            `yaml:"host"`
	HostPos     diag.Pos          `yaml:"-"`
	Title       string            `yaml:"title" sg:"required"`
	Locales     []Locale          `yaml:"locales" sg:"required"`
	LegacyPaths map[string]string `yaml:"legacyPaths"`
	Forms       map[string]Form   `yaml:"forms"`
	// Feeds are the lists published as RSS and Atom feeds.
	Feeds []Feed `yaml:"feeds"`
	// Taxonomies group pages by the terms their front matter lists.
	Taxonomies []Taxonomy `yaml:"taxonomies"`
	Islands    Islands    `yaml:"islands"`
	Images     Images     `yaml:"images"`
	Markdown   Markdown   `yaml:"markdown"`
	Icons      Icons      `yaml:"icons"`
	Assets     Assets     `yaml:"assets"`
	// Announcement names the data set (<file>.<key>) of the site-wide
	// announcement that showAnnouncement judges by its start and end
	// dates; empty means the site has none.
	Announcement string     `yaml:"announcement"`
	ErrorPages   ErrorPages `yaml:"errorPages"`
	CSP          CSP        `yaml:"csp"`
	Budgets      Budgets    `yaml:"budgets"`
	// Analytics are the consent-gated tags; ServiceWorker configures /sw.js.
	Analytics     Analytics     `yaml:"analytics"`
	ServiceWorker ServiceWorker `yaml:"serviceWorker"`

	// Positions of the legacy path entries and of announcement, for
	// diagnostics.
	LegacyPos       map[string]diag.Pos `yaml:"-"`
	AnnouncementPos diag.Pos            `yaml:"-"`
}

// DefaultLocale returns the locale marked default, the first when none is
// marked, and the zero Locale for a config that declares none (one Parse
// refuses, but whose other checks still run and name a locale in hints).
func (c *Config) DefaultLocale() Locale {
	for _, l := range c.Locales {
		if l.Default {
			return l
		}
	}
	if len(c.Locales) == 0 {
		return Locale{}
	}
	return c.Locales[0]
}

// localeCodesHint lists the declared locale codes for a hint: " en, pl",
// or " none are declared yet".
func (c *Config) localeCodesHint() string {
	if len(c.Locales) == 0 {
		return " none are declared yet"
	}
	codes := make([]string, len(c.Locales))
	for i, l := range c.Locales {
		codes[i] = l.Code
	}
	return " " + strings.Join(codes, ", ")
}

// Locale returns the locale with the code.
func (c *Config) Locale(code string) (Locale, bool) {
	for _, l := range c.Locales {
		if l.Code == code {
			return l, true
		}
	}
	return Locale{}, false
}

// Load reads site.yaml from fsys and validates it.
func Load(fsys fs.FS) (*Config, error) {
	src, err := fs.ReadFile(fsys, FileName)
	if err != nil {
		return nil, diag.New(diag.Pos{File: FileName}, "cannot read site config: %v", err).
			WithHint("every site has a site.yaml at its root")
	}
	return Parse(src)
}

// Parse decodes and validates the bytes of site.yaml.
func Parse(src []byte) (*Config, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(src, &doc); err != nil {
		return nil, yamlx.SyntaxError(FileName, src, err, 0)
	}
	var c Config
	var errs diag.List
	if len(doc.Content) == 0 {
		errs.Addf(diag.Pos{File: FileName, Line: 1, Col: 1}, "site config is empty")
		return nil, errs.Err()
	}
	root := doc.Content[0]
	errs.Merge(yamlx.Decode(FileName, root, &c))
	c.LegacyPos = map[string]diag.Pos{}
	c.AnnouncementPos = yamlx.Pos(FileName, yamlx.Field(root, "announcement"))
	c.ServiceWorker.OfflinePos = yamlx.Pos(FileName, yamlx.Field(yamlx.Field(root, "serviceWorker"), "offlinePage"))
	if lp := yamlx.Field(root, "legacyPaths"); lp != nil && lp.Kind == yaml.MappingNode {
		for i := 0; i+1 < len(lp.Content); i += 2 {
			k := lp.Content[i]
			c.LegacyPos[k.Value] = diag.Pos{File: FileName, Line: k.Line, Col: k.Column}
		}
	}
	errs.Merge(c.validate(root))
	// With errors, what decoded is still returned: later stages check the
	// rest of the site against it.
	return &c, errs.Err()
}

func (c *Config) validate(root *yaml.Node) diag.List {
	var errs diag.List
	at := func(field string) diag.Pos { return yamlx.Pos(FileName, yamlx.Field(root, field)) }
	c.HostPos = at("host")
	if c.BaseURL == "" {
		// reported as a missing required field
	} else if b, err := CheckBaseURL(c.BaseURL); err != nil {
		errs.Add(diag.New(at("baseURL"), "baseURL %v", err).WithHint("for example https://www.example.com"))
	} else {
		c.BaseURL = b
	}
	errs.Merge(c.validateLocales(root))
	switch c.Islands.Library {
	case "":
		c.Islands.Library = "preact"
	case "preact", "react":
	default:
		errs.Addf(yamlx.Pos(FileName, yamlx.Field(yamlx.Field(root, "islands"), "library")),
			"islands.library must be preact or react, not %q", c.Islands.Library)
	}
	if c.Images.MaxPixels < 0 {
		errs.Addf(yamlx.Pos(FileName, yamlx.Field(yamlx.Field(root, "images"), "maxPixels")),
			"images.maxPixels must be a positive number of pixels, like 50000000, not %d", c.Images.MaxPixels)
	}
	c.Images.AVIFPos = yamlx.Pos(FileName, yamlx.Field(yamlx.Field(root, "images"), "avif"))
	switch c.Images.AVIF {
	case "":
		c.Images.AVIF = AVIFPortable
	case AVIFPortable, AVIFNative:
	default:
		errs.Add(diag.New(c.Images.AVIFPos, "images.avif must be %s or %s, not %q", AVIFPortable, AVIFNative, c.Images.AVIF).
			WithHint("native encodes with the machine's avifenc: see docs/build.md"))
	}
	if c.Icons.Dir == "" {
		c.Icons.Dir = "assets/icons"
	} else if d := path.Clean(c.Icons.Dir); d != c.Icons.Dir || path.IsAbs(d) || strings.HasPrefix(d, "../") || d == ".." {
		errs.Addf(yamlx.Pos(FileName, yamlx.Field(yamlx.Field(root, "icons"), "dir")),
			"icons.dir %q must be a clean path inside the site, like node_modules/lucide-static/icons", c.Icons.Dir)
	}
	for i, e := range c.Assets.Entries {
		if d := path.Clean(e); d != e || path.IsAbs(d) || strings.HasPrefix(d, "../") || (path.Ext(d) != ".js" && path.Ext(d) != ".css") {
			errs.Addf(yamlx.Pos(FileName, yamlx.Index(yamlx.Field(yamlx.Field(root, "assets"), "entries"), i)),
				"assets.entries: %q must be a clean path of a .js or .css file under assets/, like runtime/topbar-now.js", e)
		}
	}
	if c.Announcement != "" && !strings.Contains(c.Announcement, ".") {
		errs.Add(diag.New(at("announcement"), "announcement %q must name a data set as <file>.<key>", c.Announcement).
			WithHint("like site.announcement, the set announcement in content/<locale>/data/site.yaml"))
	}
	cspNode := yamlx.Field(root, "csp")
	for _, d := range []struct {
		key  string
		srcs []string
	}{{"scriptSrc", c.CSP.ScriptSrc}, {"imgSrc", c.CSP.ImgSrc}, {"connectSrc", c.CSP.ConnectSrc}, {"formAction", c.CSP.FormAction}} {
		for i, src := range d.srcs {
			if !cspSourceRE.MatchString(src) {
				errs.Add(diag.New(yamlx.Pos(FileName, yamlx.Index(yamlx.Field(cspNode, d.key), i)), "csp.%s: %q is not an origin", d.key, src).
					WithHint("like https://scripts.example.com or https://*.example.com"))
			}
		}
	}
	if c.ErrorPages.NotFound == "" {
		c.ErrorPages.NotFound = "404"
	}
	if c.ErrorPages.ServerError == "" {
		c.ErrorPages.ServerError = "500"
	}
	if c.ErrorPages.NotFound == c.ErrorPages.ServerError {
		errs.Addf(at("errorPages"), "errorPages: notFound and serverError must be different pages")
	}
	if c.Budgets.HTML < 0 || c.Budgets.CSS < 0 || c.Budgets.JS < 0 {
		errs.Add(diag.New(at("budgets"), "budgets are byte counts and cannot be negative"))
	}
	errs.Merge(c.Analytics.validate(yamlx.Field(root, "analytics")))
	errs.Merge(c.validateForms(root))
	errs.Merge(c.validateTaxonomies(root))
	errs.Merge(c.validateFeeds(root))
	keys := make([]string, 0, len(c.LegacyPaths))
	for k := range c.LegacyPaths {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if err := sitepath.Check(k); err != nil || path.Clean(k) != k {
			errs.Add(diag.New(c.LegacyPos[k], "legacy path %q must be a clean absolute path", k).WithHint("like /contact"))
		}
	}
	return errs
}

// validateLocales checks the locales (codes, prefixes, one default) and
// drops the later copies of a locale declared twice.
func (c *Config) validateLocales(root *yaml.Node) diag.List {
	var errs diag.List
	at := func(field string) diag.Pos { return yamlx.Pos(FileName, yamlx.Field(root, field)) }
	defaults := 0
	codes := map[string]bool{}
	prefixes := map[string]bool{}
	for i := range c.Locales {
		l := &c.Locales[i]
		item := yamlx.Index(yamlx.Field(root, "locales"), i)
		pos := yamlx.Pos(FileName, item)
		prefixPos := pos // the prefix's own line, when it has one
		if n := yamlx.Field(item, "prefix"); n != nil {
			prefixPos = yamlx.Pos(FileName, n)
		}
		if l.Default {
			defaults++
		}
		if codes[l.Code] {
			errs.Addf(pos, "locale %q is declared twice", l.Code)
		}
		codes[l.Code] = true
		if !prefixRE.MatchString(l.Prefix) {
			errs.Add(diag.New(prefixPos, "locale %q: prefix %q must be one path segment like /%s", l.Code, l.Prefix, l.Code).
				WithHint("a slash, then letters, digits, - or _ (and . inside), like /pl or /pt-br"))
		}
		if g := sitepath.Reserved(l.Prefix, nil); g != "" {
			errs.Addf(prefixPos, "locale %q: prefix %q is the generated %s", l.Code, l.Prefix, g)
		}
		if prefixes[l.Prefix] {
			errs.Addf(prefixPos, "locale %q: prefix %q is used by another locale", l.Code, l.Prefix)
		}
		prefixes[l.Prefix] = true
	}
	// A locale declared twice is reported once; the later copies are
	// dropped, so the build does not read that locale's content twice and
	// report every page of it as a duplicate.
	seenCode := map[string]bool{}
	kept := c.Locales[:0]
	for _, l := range c.Locales {
		if !seenCode[l.Code] {
			seenCode[l.Code] = true
			kept = append(kept, l)
		}
	}
	c.Locales = kept
	if len(c.Locales) == 0 && yamlx.Field(root, "locales") != nil {
		errs.Add(diag.New(at("locales"), "the site needs at least one locale"))
	}
	if len(c.Locales) > 0 && defaults != 1 {
		errs.Add(diag.New(at("locales"), "exactly one locale must be marked default: true, found %d", defaults))
	}
	return errs
}

// CheckBaseURL validates a base URL (site.yaml's baseURL or the --base-url
// flag): an absolute http or https URL with a host and no user info, query
// or fragment. It returns the URL without a trailing slash.
func CheckBaseURL(s string) (string, error) {
	u, err := url.Parse(s)
	switch {
	case err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" || u.Opaque != "":
		return "", fmt.Errorf("%q is not an absolute http(s) URL", s)
	case u.User != nil:
		return "", fmt.Errorf("%q must not hold a user name or password", s)
	case u.RawQuery != "" || u.ForceQuery:
		return "", fmt.Errorf("%q must not have a query (?...)", s)
	case u.Fragment != "" || strings.Contains(s, "#"):
		return "", fmt.Errorf("%q must not have a fragment (#...)", s)
	case strings.ContainsFunc(s, func(r rune) bool { return r <= ' ' || r == 0x7f || r == '\\' || r == '"' || r == '<' || r == '>' }):
		return "", fmt.Errorf("%q holds a space, quote, backslash or control character", s)
	}
	return strings.TrimSuffix(s, "/"), nil
}

// String is used in logs.
func (l Locale) String() string { return fmt.Sprintf("%s (%s)", l.Code, l.Prefix) }

// validate checks the analytics block at node.
func (a Analytics) validate(node *yaml.Node) diag.List {
	var errs diag.List
	for i, src := range a.Scripts {
		u, err := url.Parse(src)
		if err != nil || !cspSourceRE.MatchString(Origin(src)) || strings.Contains(u.Host, "*") || u.User != nil || u.Fragment != "" ||
			strings.ContainsFunc(src, func(r rune) bool { return r <= ' ' || r == 0x7f || r == '"' || r == '<' || r == '>' || r == '\\' }) {
			errs.Add(diag.New(yamlx.Pos(FileName, yamlx.Index(yamlx.Field(node, "scripts"), i)), "analytics.scripts: %q is not an absolute http(s) URL of a script", src).
				WithHint("like https://scripts.example.com/tag.js?id=ABC123"))
		}
	}
	for i, o := range a.DataOrigins {
		if !cspSourceRE.MatchString(o) {
			errs.Add(diag.New(yamlx.Pos(FileName, yamlx.Index(yamlx.Field(node, "dataOrigins"), i)), "analytics.dataOrigins: %q is not an origin", o).
				WithHint("like https://*.hits.example.com"))
		}
	}
	if len(a.Scripts) == 0 && (len(a.DataOrigins) > 0 || len(a.Params) > 0) {
		errs.Add(diag.New(yamlx.Pos(FileName, node), "analytics: dataOrigins and params need scripts to load").
			WithHint("list the scripts under analytics.scripts, or drop the block"))
	}
	for _, k := range slices.Sorted(maps.Keys(a.Params)) {
		if !paramKeyRE.MatchString(k) {
			errs.Addf(yamlx.Pos(FileName, yamlx.Field(yamlx.Field(node, "params"), k)), "analytics.params: key %q must be letters, digits, - or _, starting with a letter", k)
		}
	}
	return errs
}
