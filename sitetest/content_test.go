package sitetest

// Checks of the website's content (issue 14): dated copy follows the build's
// --date, the company is called sample content once instead of being
// labelled "fictional" everywhere, identifiers carry valid check digits, no
// person plays two roles, calls to action that name a page link to it, and the
// footer's downloads are real files of the type they claim.

import (
	"archive/zip"
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"

	"golang.org/x/net/html"
	"gopkg.in/yaml.v3"

	"sitegen/pkg/build"
)

// ---------------------------------------------------------------- helpers

// doc parses one output page.
func doc(t *testing.T, out, p string) *html.Node {
	t.Helper()
	f := filepath.Join(out, filepath.FromSlash(strings.TrimPrefix(p, "/")))
	if strings.HasSuffix(p, "/") {
		f = filepath.Join(f, "index.html")
	}
	b, err := os.ReadFile(f)
	if err != nil {
		t.Fatalf("page %s: %v", p, err)
	}
	n, err := html.Parse(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("page %s: %v", p, err)
	}
	return n
}

func attr(n *html.Node, key string) (string, bool) {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val, true
		}
	}
	return "", false
}

func hasClass(n *html.Node, class string) bool {
	c, _ := attr(n, "class")
	for _, f := range strings.Fields(c) {
		if f == class || strings.HasPrefix(f, class+"--") {
			return true
		}
	}
	return false
}

// find returns the elements below n for which match is true, in document order.
func find(n *html.Node, match func(*html.Node) bool) []*html.Node {
	var out []*html.Node
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode && match(n) {
			out = append(out, n)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(n)
	return out
}

func byID(n *html.Node, id string) *html.Node {
	l := find(n, func(e *html.Node) bool { v, _ := attr(e, "id"); return v == id })
	if len(l) == 0 {
		return nil
	}
	return l[0]
}

var spaceRE = regexp.MustCompile(`\s+`)

// text is the visible text of n with white space collapsed (NBSP kept as a space).
func text(n *html.Node) string {
	var b strings.Builder
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode && (n.Data == "script" || n.Data == "style" || n.Data == "template") {
			return
		}
		if n.Type == html.TextNode {
			b.WriteString(n.Data)
			b.WriteByte(' ')
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(n)
	return strings.TrimSpace(spaceRE.ReplaceAllString(strings.ReplaceAll(b.String(), "\u00a0", " "), " "))
}

func mainText(t *testing.T, out, p string) string {
	t.Helper()
	m := find(doc(t, out, p), func(n *html.Node) bool { return n.Data == "main" })
	if len(m) == 0 {
		t.Fatalf("%s has no <main>", p)
	}
	return text(m[0])
}

// htmlPages lists the site paths of the content pages of the output (not
// redirect pages, which have no <main>).
func htmlPages(t *testing.T, out string) []string {
	t.Helper()
	var list []string
	err := filepath.WalkDir(out, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".html") {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if !bytes.Contains(b, []byte("<main")) {
			return nil
		}
		rel, _ := filepath.Rel(out, p)
		list = append(list, "/"+filepath.ToSlash(rel))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(list)
	return list
}

var (
	datedMu    sync.Mutex
	datedSites = map[string]string{}
)

// siteOn builds the website as on the given --date (once per date and test
// binary); the shared site(t) is built on 2026-08-15.
func siteOn(t *testing.T, date string) string {
	t.Helper()
	if date == "2026-08-15" {
		return site(t)
	}
	datedMu.Lock()
	defer datedMu.Unlock()
	if out, ok := datedSites[date]; ok {
		return out
	}
	dir := t.TempDir()
	out := filepath.Join(dir, "public")
	if _, err := build.Run(context.Background(), build.Options{Source: "..", Out: out, Date: date, Minify: true}); err != nil {
		t.Fatalf("building the website as on %s: %v", date, err)
	}
	datedSites[date] = out
	return out
}

// ---------------------------------------------------------------- 1. dated copy

// TestDatedCopyFollowsBuildDate: the series G notice, the capital figures,
// the investor calendar and the events page read correctly whatever the
// build's --date, during the issue and long after it.
func TestDatedCopyFollowsBuildDate(t *testing.T) {
	type want struct {
		page     string
		has, not []string
	}
	stale := []string{"przed rejestracją", "trwa emisja", "(planowany termin)", "Terminy planowane"}
	staleEN := []string{"before registration", "is in progress", "(planned date)", "Planned dates."}
	// Promises of what is already past on the build date: content that dates
	// is current or says it is history.
	unfinished := []string{"po jego ogłoszeniu", "podamy tu", "nie opublikowaliśmy jeszcze", "nie opublikowaliśmy"}
	unfinishedEN := []string{"once announced", "will be announced", "will be listed here", "not yet published"}
	cases := []struct {
		date  string
		wants []want
	}{
		{"2025-07-20", []want{
			{"/pl/dla-inwestorow/informacje-ogolne/", []string{"Trwają zapisy na akcje serii G"}, []string{"zakończona bez rejestracji", "Zapisy zakończone"}},
			{"/en/for-investors/investors/", []string{"Subscriptions for series G shares are open", "the term ends on the day of the Annual General Meeting"}, []string{"ended without registration", "for the joint 2026–2031 term"}},
			{"/pl/dla-inwestorow/informacje-ogolne/", []string{"kadencja upływa z dniem"}, []string{"na wspólną kadencję 2026–2031"}},
		}},
		{"2025-08-10", []want{
			{"/pl/dla-inwestorow/informacje-ogolne/", []string{"Przydział akcji ogłoszony"}, []string{"Trwają zapisy", "zakończona bez rejestracji"}},
		}},
		{"2026-08-15", []want{
			{"/pl/dla-inwestorow/informacje-ogolne/", []string{"Emisja akcji serii G zakończona bez rejestracji", "Trwa oferta akcji"}, append([]string{"Trwają zapisy"}, stale...)},
			{"/en/for-investors/investors/", []string{"Series G issue ended without registration", "Share offer open until 21 September 2026"}, staleEN},
			{"/pl/dla-inwestorow/akcje/", []string{"229 979,10 zł"}, stale},
			{"/en/for-investors/stock/", []string{"PLN 229,979.10"}, staleEN},
			// After the term of 2021–2026 the board of the new term, not a
			// promise to announce it (the marketing lead's "reads unfinished").
			{"/en/for-investors/investors/", []string{"appointed the Supervisory Board for the joint 2026–2031 term"}, append([]string{"the term ends on the day"}, unfinishedEN...)},
			{"/pl/dla-inwestorow/informacje-ogolne/", []string{"powołało Radę Nadzorczą na wspólną kadencję 2026–2031"}, append([]string{"kadencja upływa z dniem"}, unfinished...)},
			{"/pl/dla-inwestorow/kalendarz/", []string{"powołało Radę Nadzorczą na kadencję 2026–2031"}, append(append([]string{"publikujemy co najmniej 26 dni"}, stale...), unfinished...)},
			{"/en/for-investors/calendar/", []string{"appointed the Supervisory Board for the 2026–2031 term"}, append(append([]string{"published at least 26 days"}, staleEN...), unfinishedEN...)},
			{"/pl/dla-inwestorow/raporty/", []string{"EBI 1/2026"}, nil},
			{"/en/for-investors/raports/", []string{"EBI 1/2026"}, nil},
		}},
		{"2031-01-01", []want{
			{"/pl/dla-inwestorow/informacje-ogolne/", []string{"Emisja akcji serii G zakończona bez rejestracji", "Oferta akcji zakończona"}, append([]string{"Trwają zapisy", "Trwa oferta"}, stale...)},
			{"/en/for-investors/investors/", []string{"Series G issue ended without registration", "Share offer closed"}, staleEN},
			{"/pl/dla-inwestorow/kalendarz/", nil, append([]string{"Planowany termin"}, stale...)},
			{"/en/for-investors/calendar/", nil, append([]string{"Planned"}, staleEN...)},
			{"/pl/wydarzenia/", []string{"Brak zaplanowanych wydarzeń."}, nil},
		}},
	}
	for _, c := range cases {
		t.Run(c.date, func(t *testing.T) {
			out := siteOn(t, c.date)
			for _, w := range c.wants {
				txt := mainText(t, out, w.page)
				for _, s := range w.has {
					if !strings.Contains(txt, s) {
						t.Errorf("%s as on %s: no %q", w.page, c.date, s)
					}
				}
				for _, s := range w.not {
					if strings.Contains(txt, s) {
						t.Errorf("%s as on %s: stale %q", w.page, c.date, s)
					}
				}
			}
			// Every status word of a dated list agrees with its date.
			for _, p := range []string{"/pl/dla-inwestorow/kalendarz/", "/en/for-investors/calendar/", "/pl/dla-inwestorow/informacje-ogolne/", "/en/for-investors/investors/"} {
				lang := strings.Split(p, "/")[1]
				words := map[string]string{"pl": "Miniony termin|Dzisiaj|Planowany termin", "en": "Past|Today|Planned"}[lang]
				w := strings.Split(words, "|")
				n := 0
				for _, li := range find(doc(t, out, p), func(n *html.Node) bool { return hasClass(n, "timeline__item") }) {
					tm := find(li, func(n *html.Node) bool { return n.Data == "time" })
					st := find(li, func(n *html.Node) bool { return hasClass(n, "timeline__status") })
					if len(tm) == 0 || len(st) == 0 {
						t.Errorf("%s: a timeline item without its date or status word", p)
						continue
					}
					d, _ := attr(tm[0], "datetime")
					want := w[2]
					if d < c.date {
						want = w[0]
					} else if d == c.date {
						want = w[1]
					}
					if got := text(st[0]); got != want {
						t.Errorf("%s as on %s: item of %s says %q, want %q", p, c.date, d, got, want)
					}
					n++
				}
				if n == 0 {
					t.Errorf("%s: no dated items with status words", p)
				}
			}
			// The events page splits one list by the date.
			for _, p := range []string{"/pl/wydarzenia/", "/en/events/"} {
				root := doc(t, out, p)
				for id, past := range map[string]bool{"nadchodzace": false, "minione": true, "upcoming": false, "past": true} {
					sec := byID(root, id)
					if sec == nil {
						continue
					}
					for _, tm := range find(sec, func(n *html.Node) bool { return n.Data == "time" }) {
						d, _ := attr(tm, "datetime")
						if (d < c.date) != past {
							t.Errorf("%s as on %s: event of %s listed under #%s", p, c.date, d, id)
						}
					}
				}
				// Sign-up links only for the events still ahead.
				signups := 0
				for _, li := range find(root, func(n *html.Node) bool { return hasClass(n, "timeline__item") }) {
					tm := find(li, func(n *html.Node) bool { return n.Data == "time" })
					if len(tm) == 0 {
						continue
					}
					d, _ := attr(tm[0], "datetime")
					for _, a := range find(li, func(n *html.Node) bool { return n.Data == "a" && strings.Contains(hrefOf(n), "subject=") }) {
						signups++
						if d < c.date {
							t.Errorf("%s as on %s: the past event of %s invites to sign up (%s)", p, c.date, d, hrefOf(a))
						}
					}
				}
				if c.date == "2026-08-15" && signups == 0 {
					t.Errorf("%s as on %s: no sign-up link for the events ahead", p, c.date)
				}
			}
		})
	}
}

// ---------------------------------------------------------------- 2. sample content, identifiers, people

// TestSampleContentStatedOnce: the footer's company block on every page and
// the investor pages' registration section say that the company is sample
// content; no page or document carries "fictional" labels any more.
func TestSampleContentStatedOnce(t *testing.T) {
	out := site(t)
	stmt := map[string]string{"pl": "BotForge S.A. to firma przykładowa", "en": "BotForge S.A. is a sample company"}
	for _, p := range htmlPages(t, out) {
		root := doc(t, out, p)
		lang := "pl"
		if h := find(root, func(n *html.Node) bool { return n.Data == "html" }); len(h) > 0 {
			if l, _ := attr(h[0], "lang"); l != "" {
				lang = l
			}
		}
		blocks := find(root, func(n *html.Node) bool { return hasClass(n, "site-footer__company") })
		if len(blocks) != 1 || !strings.Contains(text(blocks[0]), stmt[lang]) {
			t.Errorf("%s: the footer's company block does not say %q", p, stmt[lang])
		}
	}
	for p, id := range map[string]string{"/pl/dla-inwestorow/informacje-ogolne/": "dane-spolki", "/en/for-investors/investors/": "company-details"} {
		sec := byID(doc(t, out, p), id)
		lang := strings.Split(p, "/")[1]
		if sec == nil || !strings.Contains(text(sec), stmt[lang]) {
			t.Errorf("%s#%s: the registration section does not say %q", p, id, stmt[lang])
		}
	}
	label := regexp.MustCompile(`(?i)fikcyjn|fictional|fictitious`)
	err := filepath.WalkDir(out, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		switch path.Ext(p) {
		case ".html", ".pdf", ".xml", ".json", ".txt", ".svg":
		default:
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if m := label.Find(b); m != nil {
			rel, _ := filepath.Rel(out, p)
			t.Errorf("%s still labels its data %q; the sample-content statement says it once", rel, m)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// nipValid: 10 digits, weights 6 5 7 2 3 4 5 6 7, sum mod 11 is the last
// digit (a sum giving 10 is never issued).
func nipValid(s string) bool {
	d := digits(s)
	if len(d) != 10 {
		return false
	}
	w := []int{6, 5, 7, 2, 3, 4, 5, 6, 7}
	sum := 0
	for i, x := range w {
		sum += d[i] * x
	}
	return sum%11 != 10 && sum%11 == d[9]
}

// regonValid: 9 digits, weights 8 9 2 3 4 5 6 7, sum mod 11 (10 counts as
// 0) is the last digit. (14-digit REGONs of local units are not used here.)
func regonValid(s string) bool {
	d := digits(s)
	if len(d) != 9 {
		return false
	}
	w := []int{8, 9, 2, 3, 4, 5, 6, 7}
	sum := 0
	for i, x := range w {
		sum += d[i] * x
	}
	return sum%11%10 == d[8]
}

// krsValid: a KRS number is 10 digits; it has no check digit, so the format
// is all there is to check.
func krsValid(s string) bool { return regexp.MustCompile(`^\d{10}$`).MatchString(s) }

// isinValid: 2 letters of country, 9 alphanumerics, a check digit: letters
// become 10..35, then the Luhn algorithm over the digits.
func isinValid(s string) bool {
	if !regexp.MustCompile(`^[A-Z]{2}[A-Z0-9]{9}\d$`).MatchString(s) {
		return false
	}
	var ds strings.Builder
	for _, r := range s[:11] {
		v, _ := strconv.ParseInt(string(r), 36, 0)
		ds.WriteString(strconv.Itoa(int(v)))
	}
	num := ds.String()
	sum := 0
	for i := 0; i < len(num); i++ {
		x := int(num[len(num)-1-i] - '0')
		if i%2 == 0 {
			x *= 2
			if x > 9 {
				x -= 9
			}
		}
		sum += x
	}
	return (10-sum%10)%10 == int(s[11]-'0')
}

func digits(s string) []int {
	var d []int
	for _, r := range s {
		switch {
		case r >= '0' && r <= '9':
			d = append(d, int(r-'0'))
		case r == '-' || r == ' ':
		default:
			return nil
		}
	}
	return d
}

func TestCheckDigitAlgorithms(t *testing.T) {
	tests := []struct {
		name  string
		check func(string) bool
		ok    []string
		bad   []string
	}{
		// Published identifiers of real entities, and one digit changed.
		{"NIP", nipValid, []string{"526-025-09-95", "5252847135"}, []string{"123-456-78-90", "5252847136", "52528471"}},
		{"REGON", regonValid, []string{"000331501", "146382913"}, []string{"123456789", "146382914"}},
		{"KRS", krsValid, []string{"0000712846"}, []string{"712846", "00007128460"}},
		{"ISIN", isinValid, []string{"US0378331005", "PLPKO0000016", "PLBTFRG00014"}, []string{"PLBTFRG00019", "US0378331006", "PL0000000"}},
	}
	for _, tt := range tests {
		for _, s := range tt.ok {
			if !tt.check(s) {
				t.Errorf("%s %s: valid, judged invalid", tt.name, s)
			}
		}
		for _, s := range tt.bad {
			if tt.check(s) {
				t.Errorf("%s %s: invalid, judged valid", tt.name, s)
			}
		}
	}
}

// TestIdentifiersHaveValidCheckDigits: every KRS, NIP, REGON and ISIN that a
// page shows is valid in format and check digit, and each kind is shown.
func TestIdentifiersHaveValidCheckDigits(t *testing.T) {
	out := site(t)
	kinds := []struct {
		name  string
		re    *regexp.Regexp
		check func(string) bool
	}{
		{"KRS", regexp.MustCompile(`\bKRS:? (\d[\d ]{5,12}\d)\b`), krsValid},
		{"NIP", regexp.MustCompile(`\bNIP(?: \(tax ID\))?:? (\d[\d -]{8,12}\d)\b`), nipValid},
		{"REGON", regexp.MustCompile(`\bREGON:? (\d{7,14})\b`), regonValid},
		{"ISIN", regexp.MustCompile(`\b(PL[A-Z0-9]{8,11})\b`), isinValid},
	}
	seen := map[string]int{}
	for _, p := range htmlPages(t, out) {
		txt := text(doc(t, out, p))
		for _, k := range kinds {
			for _, m := range k.re.FindAllStringSubmatch(txt, -1) {
				seen[k.name]++
				if !k.check(strings.TrimSpace(m[1])) {
					t.Errorf("%s: %s %s has no valid format or check digit", p, k.name, m[1])
				}
			}
		}
	}
	for _, k := range kinds {
		if seen[k.name] == 0 {
			t.Errorf("no page shows a %s; the check found nothing to check", k.name)
		}
	}
}

// TestNoPersonInTwoRoles: a person is staff (team, management, contact
// persons), a member of the supervisory board or a customer quoted on a
// solution page, never two of these.
func TestNoPersonInTwoRoles(t *testing.T) {
	for _, lang := range []string{"pl", "en"} {
		roles := map[string]map[string][]string{} // name -> role -> where
		files, _ := filepath.Glob(filepath.Join("..", "content", lang, "data", "*.yaml"))
		if len(files) == 0 {
			t.Fatalf("no data sets under content/%s/data", lang)
		}
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			var sets map[string]struct {
				Type  string           `yaml:"type"`
				Items []map[string]any `yaml:"items"`
			}
			if err := yaml.Unmarshal(b, &sets); err != nil {
				t.Fatalf("%s: %v", f, err)
			}
			for name, set := range sets {
				for _, it := range set.Items {
					var who, role string
					switch set.Type {
					case "person":
						who, role = fmt.Sprint(it["name"]), "staff"
						if name == "board" {
							role = "supervisory board"
						}
					case "contactPerson":
						who, role = fmt.Sprint(it["name"]), "staff"
					case "quote":
						who, role = fmt.Sprint(it["author"]), "customer"
					default:
						continue
					}
					if roles[who] == nil {
						roles[who] = map[string][]string{}
					}
					roles[who][role] = append(roles[who][role], filepath.Base(f)+":"+name)
				}
			}
		}
		if len(roles) < 10 {
			t.Fatalf("%s: found only %d people; the data sets changed shape", lang, len(roles))
		}
		for who, r := range roles {
			if len(r) > 1 {
				t.Errorf("%s: %s appears in %d roles: %v", lang, who, len(r), r)
			}
		}
	}
}

// ---------------------------------------------------------------- 3. calls to action

// ctaNames are the words by which a call to action names a page, and the
// page it must then link to (path, and fragment where it matters).
var ctaNames = []struct {
	re   *regexp.Regexp
	want map[string]string
}{
	{regexp.MustCompile(`(?i)\bcennik|\bpricing\b`), map[string]string{"pl": "/pl/hirebot/", "en": "/en/hirebot/"}},
	{regexp.MustCompile(`(?i)umów demo|\bdemo\b|wycen|\bquote\b`), map[string]string{"pl": "/pl/o-nas/kontakt/#demo-form", "en": "/en/about-us/contact/#demo-form"}},
	{regexp.MustCompile(`(?i)skontaktuj|^kontakt$|\bcontact us\b|^contact$`), map[string]string{"pl": "/pl/o-nas/kontakt/", "en": "/en/about-us/contact/"}},
	{regexp.MustCompile(`(?i)kalendarz|\bcalendar\b`), map[string]string{"pl": "/pl/dla-inwestorow/kalendarz/", "en": "/en/for-investors/calendar/"}},
	{regexp.MustCompile(`(?i)\bzespół\b|\bthe team\b|^team$`), map[string]string{"pl": "/pl/o-nas/zespol/", "en": "/en/about-us/team/"}},
	{regexp.MustCompile(`(?i)^raporty$|^reports$`), map[string]string{"pl": "/pl/dla-inwestorow/raporty/", "en": "/en/for-investors/raports/"}},
	{regexp.MustCompile(`(?i)^devblog$`), map[string]string{"pl": "/pl/devblog/", "en": "/en/devblog/"}},
	{regexp.MustCompile(`(?i)^blog$|czytaj blog|read our blog`), map[string]string{"pl": "/pl/blog/", "en": "/en/blog/"}},
}

// isCTA: buttons, arrow links and the links of the menus and the footer.
func isCTA(n *html.Node) bool {
	if n.Data != "a" {
		return false
	}
	if hasClass(n, "btn") || hasClass(n, "link-arrow") {
		return true
	}
	for p := n.Parent; p != nil; p = p.Parent {
		if p.Type == html.ElementNode && (p.Data == "nav" || p.Data == "footer" || p.Data == "header") {
			return true
		}
	}
	return false
}

// TestCTAsNamingAPageLinkToIt: every call to action whose label names a page
// ("Zobacz cennik HireBota", "Book a demo", "See the investor calendar")
// links to that page, not to a section of the page it is on.
func TestCTAsNamingAPageLinkToIt(t *testing.T) {
	out := site(t)
	checked := 0
	for _, p := range htmlPages(t, out) {
		lang := strings.Split(p, "/")[1]
		if lang != "pl" && lang != "en" {
			continue // the root copies of the default locale's pages
		}
		for _, a := range find(doc(t, out, p), isCTA) {
			label := text(a)
			href, _ := attr(a, "href")
			for _, n := range ctaNames {
				if !n.re.MatchString(label) {
					continue
				}
				checked++
				want := n.want[lang]
				got := href
				if !strings.Contains(want, "#") {
					got, _, _ = strings.Cut(href, "#")
				}
				if got != want {
					t.Errorf("%s: %q links to %q, want %s", p, label, href, want)
				}
				break
			}
		}
	}
	if checked < 50 {
		t.Errorf("only %d calls to action named a page; the labels or the classes changed", checked)
	}
}

// ---------------------------------------------------------------- 5. downloads

var sizeRE = regexp.MustCompile(`\((PDF|ZIP|PNG|SVG|DOCX|XML), (\d+(?:[.,]\d)? (?:B|KB|MB))\)`)

// magic tells whether b is a file of type ext.
func magic(ext string, b []byte) error {
	switch ext {
	case "pdf":
		if !bytes.HasPrefix(b, []byte("%PDF-1.")) || !bytes.Contains(b[len(b)-32:], []byte("%%EOF")) {
			return fmt.Errorf("not a PDF")
		}
	case "zip", "docx":
		z, err := zip.NewReader(bytes.NewReader(b), int64(len(b)))
		if err != nil {
			return fmt.Errorf("not a ZIP archive: %v", err)
		}
		for _, f := range z.File {
			r, err := f.Open()
			if err != nil {
				return fmt.Errorf("%s: %v", f.Name, err)
			}
			var buf bytes.Buffer
			_, err = buf.ReadFrom(r)
			r.Close()
			if err != nil {
				return fmt.Errorf("%s: %v", f.Name, err)
			}
			if e := strings.TrimPrefix(path.Ext(f.Name), "."); e == "pdf" || e == "png" || e == "svg" {
				if err := magic(e, buf.Bytes()); err != nil {
					return fmt.Errorf("%s: %v", f.Name, err)
				}
			}
		}
	case "png":
		if !bytes.HasPrefix(b, []byte("\x89PNG\r\n\x1a\n")) {
			return fmt.Errorf("not a PNG")
		}
	case "svg":
		if !bytes.Contains(b[:min(len(b), 200)], []byte("<svg")) {
			return fmt.Errorf("not an SVG")
		}
	default:
		return fmt.Errorf("unexpected type %q", ext)
	}
	return nil
}

func humanSize(n int64, lang string) string {
	switch {
	case n < 1024:
		return fmt.Sprintf("%d B", n)
	case n < 1024*1024:
		return fmt.Sprintf("%d KB", (n+512)/1024)
	}
	s := strconv.FormatFloat(float64(n)/(1024*1024), 'f', 1, 64) + " MB"
	if lang == "pl" {
		s = strings.Replace(s, ".", ",", 1)
	}
	return s
}

// TestFooterDownloadsAreRealFiles: the footer's e-books, whitepaper and media
// (media kit, logos) lead to pages whose downloads exist, are of the type
// their label says, and show their true size.
func TestFooterDownloadsAreRealFiles(t *testing.T) {
	out := site(t)
	promised := map[string]map[string][]string{ // footer page -> minimum count per type
		"pl": {"/pl/ebooki/": {"PDF", "PDF", "PDF"}, "/pl/whitepaper/": {"PDF"}, "/pl/media/": {"ZIP", "ZIP"}},
		"en": {"/en/ebooks/": {"PDF", "PDF", "PDF"}, "/en/whitepaper/": {"PDF"}, "/en/media/": {"ZIP", "ZIP"}},
	}
	for lang, pagesOf := range promised {
		footer := find(doc(t, out, "/"+lang+"/"), func(n *html.Node) bool { return n.Data == "footer" })
		if len(footer) == 0 {
			t.Fatalf("/%s/ has no footer", lang)
		}
		linked := map[string]bool{}
		for _, a := range find(footer[0], func(n *html.Node) bool { return n.Data == "a" }) {
			h, _ := attr(a, "href")
			linked[h] = true
		}
		for p, types := range pagesOf {
			if !linked[p] {
				t.Errorf("the /%s/ footer does not link to %s", lang, p)
				continue
			}
			got := map[string]int{}
			for _, a := range find(doc(t, out, p), func(n *html.Node) bool { _, ok := attr(n, "download"); return n.Data == "a" && ok }) {
				href, _ := attr(a, "href")
				label := text(a)
				m := sizeRE.FindStringSubmatch(label)
				if m == nil {
					t.Errorf("%s: download %s does not show its type and size: %q", p, href, label)
					continue
				}
				b, err := os.ReadFile(filepath.Join(out, filepath.FromSlash(strings.TrimPrefix(href, "/"))))
				if err != nil {
					t.Errorf("%s: download %s: %v", p, href, err)
					continue
				}
				ext := strings.TrimPrefix(path.Ext(href), ".")
				if !strings.EqualFold(ext, m[1]) {
					t.Errorf("%s: %s is labelled %s", p, href, m[1])
				}
				if err := magic(ext, b); err != nil {
					t.Errorf("%s: %s: %v", p, href, err)
					continue
				}
				if want := humanSize(int64(len(b)), lang); m[2] != want {
					t.Errorf("%s: %s says %s, the file has %s", p, href, m[2], want)
				}
				if strings.Contains(href, "logotypy") {
					z, _ := zip.NewReader(bytes.NewReader(b), int64(len(b)))
					kinds := map[string]bool{}
					for _, f := range z.File {
						kinds[path.Ext(f.Name)] = true
					}
					if !kinds[".svg"] || !kinds[".png"] {
						t.Errorf("%s: the logo archive holds %v, want SVG and PNG files", href, kinds)
					}
				}
				got[m[1]]++
			}
			want := map[string]int{}
			for _, ty := range types {
				want[ty]++
			}
			for ty, n := range want {
				if got[ty] < n {
					t.Errorf("%s offers %d %s downloads, want at least %d", p, got[ty], ty, n)
				}
			}
		}
	}
}

// ---------------------------------------------------------------- 4. English WZA page

// TestEnglishMeetingsPageLinksPolishMaterials: the English general-meetings
// page says the materials are in Polish and links every file the Polish
// page lists, instead of claiming no meeting was ever convened.
func TestEnglishMeetingsPageLinksPolishMaterials(t *testing.T) {
	out := site(t)
	files := func(p string) map[string]bool {
		m := map[string]bool{}
		for _, a := range find(doc(t, out, p), func(n *html.Node) bool { return n.Data == "a" }) {
			if h, _ := attr(a, "href"); strings.HasPrefix(h, "/uploads/wza/") {
				m[h] = true
			}
		}
		return m
	}
	pl, en := files("/pl/dla-inwestorow/wza/"), files("/en/for-investors/wza/")
	if len(pl) == 0 {
		t.Fatal("the Polish page lists no meeting materials")
	}
	for f := range pl {
		if !en[f] {
			t.Errorf("the English page does not link %s", f)
		}
	}
	txt := mainText(t, out, "/en/for-investors/wza/")
	if !strings.Contains(txt, "published in Polish") {
		t.Error("the English page does not say the materials are published in Polish")
	}
	if strings.Contains(txt, "No general meetings have been convened") {
		t.Error("the English page claims no meeting was convened")
	}
}
