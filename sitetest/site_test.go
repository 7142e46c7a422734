// Package sitetest checks the built website: every route of the
// specification resolves, every internal link and #anchor resolves, every
// page has its head and one h1, and no page holds placeholder text.
package sitetest

import (
	"context"
	"io/fs"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"testing"

	"golang.org/x/net/html"

	"sitegen/pkg/build"
)

const baseURL = "https://www.botforge.pl"

var (
	buildOnce sync.Once
	outDir    string
	siteRep   *build.Report
	buildErr  error
)

// site builds the repository's website once per test binary.
func site(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "sitetest-")
		if err != nil {
			buildErr = err
			return
		}
		outDir = filepath.Join(dir, "public")
		siteRep, buildErr = build.Run(context.Background(), build.Options{Source: "..", Out: outDir, Date: "2026-08-15", Minify: true})
	})
	if buildErr != nil {
		t.Fatalf("building the website: %v", buildErr)
	}
	return outDir
}

func TestMain(m *testing.M) {
	code := m.Run()
	if outDir != "" {
		os.RemoveAll(filepath.Dir(outDir))
	}
	os.Exit(code)
}

// page is what the checks need of one HTML file.
type page struct {
	file       string
	title      string
	desc       string
	h1         int
	hreflangs  int
	canonical  string
	ids        map[string]bool
	links      []string // href/src values
	text       strings.Builder
	redirectTo string
	lang       string
	head       map[string]bool // "og:title", "twitter:card", "rel:manifest", "rel:icon", "keywords", ...
	expect     string          // the id a render-blocking rel=expect waits for ("#id")
}

func parse(t *testing.T, file string) *page {
	t.Helper()
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	doc, err := html.Parse(f)
	if err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	p := &page{file: file, ids: map[string]bool{}, head: map[string]bool{}}
	var walk func(n *html.Node, inHead, skipText bool)
	walk = func(n *html.Node, inHead, skipText bool) {
		if n.Type == html.ElementNode {
			attr := map[string]string{}
			for _, a := range n.Attr {
				attr[a.Key] = a.Val
			}
			if id, ok := attr["id"]; ok {
				p.ids[id] = true
			}
			if name, ok := attr["name"]; ok && n.Data == "a" {
				p.ids[name] = true
			}
			switch n.Data {
			case "html":
				p.lang = attr["lang"]
			case "title":
				if n.FirstChild != nil {
					p.title = strings.TrimSpace(n.FirstChild.Data)
				}
			case "meta":
				if k := attr["property"] + attr["name"]; k != "" && strings.TrimSpace(attr["content"]) != "" {
					p.head[k] = true
				} else if k != "" {
					p.head["empty:"+k] = true
				}
				if attr["name"] == "description" {
					p.desc = attr["content"]
				}
				if strings.EqualFold(attr["http-equiv"], "refresh") {
					if _, u, ok := strings.Cut(attr["content"], "url="); ok {
						p.redirectTo = u
					}
				}
			case "h1":
				p.h1++
			case "link":
				switch attr["rel"] {
				case "alternate":
					if attr["hreflang"] != "" {
						p.hreflangs++
					}
				case "canonical":
					p.canonical = attr["href"]
				case "expect":
					if attr["blocking"] == "render" {
						p.expect = attr["href"]
					}
				}
				p.head["rel:"+attr["rel"]] = true
				if attr["rel"] != "alternate" && attr["rel"] != "canonical" {
					if s, ok := attr["imagesrcset"]; ok && attr["href"] == "" { // an image preload
						p.links = append(p.links, srcsetURLs(s)...)
					} else {
						p.links = append(p.links, attr["href"])
					}
				}
			case "a":
				if h, ok := attr["href"]; ok {
					p.links = append(p.links, h)
				}
			case "img", "script", "source", "iframe":
				if s, ok := attr["src"]; ok {
					p.links = append(p.links, s)
				}
				p.links = append(p.links, srcsetURLs(attr["srcset"])...)
			case "form":
				p.links = append(p.links, "form:"+attr["action"])
			}
			if n.Data == "script" || n.Data == "style" || n.Data == "pre" || n.Data == "code" {
				skipText = true // code may hold {{ }} and the like
			}
		}
		if n.Type == html.TextNode && !skipText {
			p.text.WriteString(n.Data)
			p.text.WriteByte(' ')
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c, inHead, skipText)
		}
	}
	walk(doc, false, false)
	return p
}

// pages parses every HTML file of the output.
func pages(t *testing.T) map[string]*page {
	t.Helper()
	out := site(t)
	all := map[string]*page{}
	err := filepath.WalkDir(out, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".html") {
			return err
		}
		rel, _ := filepath.Rel(out, p)
		all["/"+filepath.ToSlash(rel)] = parse(t, p)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return all
}

// target maps a site path to the output file that serves it.
func target(out, p string) (string, bool) {
	p = path.Clean("/" + p)
	f := filepath.Join(out, filepath.FromSlash(p))
	if st, err := os.Stat(f); err == nil {
		if !st.IsDir() {
			return "/" + strings.TrimPrefix(p, "/"), true
		}
		if _, err := os.Stat(filepath.Join(f, "index.html")); err == nil {
			return strings.TrimSuffix(p, "/") + "/index.html", true
		}
	}
	return "", false
}

// Spec §2 and issue 4: every route answers with its page or a redirect to it.
var routes = []string{
	// Polish route map.
	"/pl/", "/pl/index", "/pl/produkty/intrabot", "/pl/produkty/custombot", "/pl/produkty/hirebot",
	"/pl/technologie/sztuczna-inteligencja", "/pl/technologie/interfejs-konwersacyjny",
	"/pl/technologie/inteligentna-automatyzacja", "/pl/technologie/platforma",
	"/pl/rozwiazania/sprzedaz", "/pl/rozwiazania/obsluga-klienta", "/pl/rozwiazania/komunikacja-wewnetrzna",
	"/pl/rozwiazania/twoj-wlasny-bot", "/pl/rozwiazania/rekrutacja",
	"/pl/dla-inwestorow/informacje-ogolne", "/pl/dla-inwestorow/wza", "/pl/dla-inwestorow/raporty",
	"/pl/dla-inwestorow/akcje", "/pl/dla-inwestorow/kalendarz",
	"/pl/o-nas/czym", "/pl/o-nas/kontakt", "/pl/o-nas/praca", "/pl/o-nas/zespol", "/pl/o-nas/dlaczego-my",
	"/pl/projekty-unijne", "/pl/podziekowanie", "/pl/politykacsr", "/pl/blog", "/pl/blog/biznes", "/pl/hirebot",
	"/pl/404", "/pl/500", "/pl/devblog",
	// English pages and aliases.
	"/en/", "/en/index", "/en/solutions/support", "/en/solutions/communication", "/en/solutions/recruitment",
	"/en/solutions/sales", "/en/solutions/other-bots",
	"/en/about-us/why-us", "/en/about-us/jobs", "/en/about-us/team", "/en/about-us/contact", "/en/about-us/about",
	"/en/technology/platform", "/en/technology/automation", "/en/technology/conversation-interface",
	"/en/technology/artificial-inteligence",
	"/en/technologies/platform", "/en/technologies/artificial-inteligence", "/en/technologies/automation",
	"/en/technologies/conversation-interface",
	"/en/products/custombot", "/en/products/intrabot", "/en/products/hirebot",
	"/en/for-investors/investors", "/en/for-investors/wza", "/en/for-investors/raports",
	"/en/for-investors/stock", "/en/for-investors/calendar",
	"/en/grants", "/en/thanks", "/en/404", "/en/500", "/en/csrpolicy", "/en/blog", "/en/blog/business",
	"/en/about-us/blog", "/en/devblog", "/en/hirebot",
	"/solutions/support", "/solutions/communication", "/solutions/recruitment", "/solutions/sales",
	"/solutions/other-bots", "/about-us/why-us", "/about-us/jobs", "/about-us/team", "/about-us/contact",
	"/about-us/about", "/technology/platform", "/technology/automation", "/technology/conversation-interface",
	"/technology/artificial-inteligence", "/products/custombot", "/products/intrabot", "/products/hirebot",
	"/for-investors/investors", "/for-investors/wza", "/for-investors/raports", "/for-investors/stock",
	"/for-investors/calendar", "/grants", "/thanks", "/csrpolicy", "/blog",
	// Short paths used in copy.
	"/contact", "/support", "/recruitment", "/sales", "/communication", "/conversation-interface",
	"/artificial-inteligence", "/automation",
	// Error pages at the root.
	"/404.html", "/500.html", "/pl/404.html", "/en/404.html",
}

func TestRoutesResolve(t *testing.T) {
	out := site(t)
	for _, r := range routes {
		// An alias is a rule of the site's host (its redirect table), or a
		// meta-refresh page on a host without rules.
		redirectTo := siteRep.RedirectTable[strings.TrimSuffix(r, "/")]
		if redirectTo == "" {
			f, ok := target(out, r)
			if !ok {
				t.Errorf("route %s: no page", r)
				continue
			}
			redirectTo = parse(t, filepath.Join(out, filepath.FromSlash(f))).redirectTo
		}
		if redirectTo == "" {
			continue
		}
		p := &page{redirectTo: redirectTo}
		g, ok := target(out, p.redirectTo)
		if !ok {
			t.Errorf("route %s redirects to %s, which does not exist", r, p.redirectTo)
			continue
		}
		if q := parse(t, filepath.Join(out, filepath.FromSlash(g))); q.redirectTo != "" || q.h1 != 1 {
			t.Errorf("route %s redirects to %s, which is not a page", r, p.redirectTo)
		}
	}
	// Short paths in copy resolve per locale: English copy links /contact to the English page.
	en := parse(t, filepath.Join(out, "en/about-us/contact/index.html"))
	if en.lang != "en" {
		t.Errorf("/en/about-us/contact/ has lang %q", en.lang)
	}
}

func TestLinksAndAnchors(t *testing.T) {
	out := site(t)
	all := pages(t)
	names := make([]string, 0, len(all))
	for n := range all {
		names = append(names, n)
	}
	sort.Strings(names)
	broken := 0
	for _, name := range names {
		p := all[name]
		for _, l := range p.links {
			if strings.HasPrefix(l, "form:") {
				continue
			}
			if l == "" || l == "#" {
				t.Errorf("%s: empty link %q", name, l)
				continue
			}
			u, err := url.Parse(l)
			if err != nil {
				t.Errorf("%s: bad link %q", name, l)
				continue
			}
			abs := strings.HasPrefix(l, baseURL)
			if u.Scheme != "" && !abs || strings.HasPrefix(l, "//") {
				continue // external
			}
			var tgt *page
			if u.Path == "" {
				tgt = p
			} else {
				f, ok := target(out, u.Path)
				if !ok {
					t.Errorf("%s: link %s: no such file", name, l)
					broken++
					continue
				}
				if strings.HasSuffix(f, ".html") {
					tgt = all[f]
				}
			}
			if u.Fragment != "" && tgt != nil && tgt.redirectTo == "" && !tgt.ids[u.Fragment] {
				t.Errorf("%s: link %s: no element with id %q", name, l, u.Fragment)
				broken++
			}
		}
		if broken > 200 {
			t.Fatal("too many broken links")
		}
	}
}

var placeholderRE = regexp.MustCompile(`(?i)lorem ipsum|\bTODO\b|\bFIXME\b|\bTBD\b|\bXXX\b|placeholder|(details|more|content) coming soon|\{\{|\}\}`)

func TestEveryPage(t *testing.T) {
	all := pages(t)
	for name, p := range all {
		if p.redirectTo != "" {
			continue
		}
		if p.title == "" {
			t.Errorf("%s: no title", name)
		}
		if strings.TrimSpace(p.desc) == "" {
			t.Errorf("%s: no meta description", name)
		}
		if p.h1 != 1 {
			t.Errorf("%s: %d h1 elements, want 1", name, p.h1)
		}
		if p.hreflangs < 2 && !strings.HasSuffix(name, "/404.html") && !strings.HasSuffix(name, "/500.html") && name != "/404.html" && name != "/500.html" {
			t.Errorf("%s: %d hreflang links", name, p.hreflangs)
		}
		if p.canonical == "" || !strings.HasPrefix(p.canonical, baseURL) {
			t.Errorf("%s: canonical %q", name, p.canonical)
		}
		if p.lang != "pl" && p.lang != "en" {
			t.Errorf("%s: html lang %q", name, p.lang)
		}
		// No shift while the page is parsed: the first paint waits for the
		// page above the footer (a half-parsed hero moved its buttons by
		// 0.011-0.034 in 6 of 16 loads at a 4x slower CPU).
		if id := strings.TrimPrefix(p.expect, "#"); id == "" || id == p.expect || !p.ids[id] {
			t.Errorf("%s: rel=expect blocking=render %q, want one naming an element of the page", name, p.expect)
		}
		// Spec §2: meta keywords exist per page and are empty.
		if !p.head["empty:keywords"] {
			t.Errorf("%s: no empty meta keywords (the spec wants them present and empty)", name)
		}
		for _, k := range []string{"og:title", "og:description", "og:url", "og:image", "og:locale", "twitter:card", "rel:icon", "rel:manifest"} { // the stylesheet is inline: TestStylesInlineAndHashed
			if !p.head[k] {
				t.Errorf("%s: no %s in the head", name, k)
			}
		}
		if m := placeholderRE.FindString(p.text.String()); m != "" {
			t.Errorf("%s: placeholder text %q", name, m)
		}
	}
}

// TestSpecTexts checks the exact texts the specification gives.
func TestSpecTexts(t *testing.T) {
	out := site(t)
	text := func(p string) string {
		f, ok := target(out, p)
		if !ok {
			t.Fatalf("no page %s", p)
		}
		return strings.Join(strings.Fields(parse(t, filepath.Join(out, filepath.FromSlash(f))).text.String()), " ")
	}
	tests := []struct{ page, want string }{
		{"/pl/404/", "Wygląda na to, że nic tutaj nie ma..."},
		{"/en/404/", "There seems to be nothing here..."},
		{"/404.html", "Wygląda na to, że nic tutaj nie ma..."},
		{"/en/404/", "Go to main page"},
		{"/pl/podziekowanie/", "Dziękujemy!"},
		{"/pl/podziekowanie/", "24 godzin roboczych"},
		{"/en/thanks/", "24 hours"},
		{"/pl/o-nas/kontakt/", "Umów demo"},
		{"/pl/dla-inwestorow/raporty/", "Bieżące"},
		{"/pl/hirebot/", "599"},
		{"/pl/dla-inwestorow/informacje-ogolne/", "6 899 373"},
		{"/pl/dla-inwestorow/informacje-ogolne/", "689 937,30"},
	}
	for _, tt := range tests {
		if got := text(tt.page); !strings.Contains(strings.ReplaceAll(got, "\u00a0", " "), tt.want) {
			t.Errorf("%s lacks %q", tt.page, tt.want)
		}
	}
	if strings.Contains(text("/en/thanks/"), "working hours") {
		t.Errorf("the English thank-you page promises 24 hours, not working hours")
	}
}

// normText is a page's visible text with runs of white space (including
// no-break and thin spaces) collapsed to one space and no space before a
// percent sign, so a phrase can be matched as it reads.
func normText(p *page) string {
	s := strings.Join(strings.Fields(strings.NewReplacer("\u00a0", " ", "\u202f", " ", "\u2009", " ").Replace(p.text.String())), " ")
	return strings.ReplaceAll(s, " %", "%")
}

// marketingConstants are the §9 constants of the specification, each in the
// sentence that carries it on one Polish and one English page: the number
// with its unit and the words around it, so a figure that happens to match
// elsewhere (a share count, a code line) cannot stand in for the claim.
var marketingConstants = []struct {
	name, lang, page, phrase string
}{
	// Marketing claims.
	{"82% answered correctly", "pl", "/pl/technologie/sztuczna-inteligencja/", `odpowiada na około 82% pytań`},
	{"82% answered correctly", "en", "/en/solutions/support/", `handles about 82% of questions`},
	{"85% (one English text)", "en", "/en/technology/artificial-inteligence/", `answers about 85% of questions correctly`},
	{"answer in 3 s", "pl", "/pl/technologie/interfejs-konwersacyjny/", `Bot odpowiada w około 3 sekundy`},
	{"answer in 3 s", "en", "/en/technology/conversation-interface/", `The bot answers in about 3 seconds`},
	{"37% recruiter time", "pl", "/pl/", `Oszczędza rekruterom do 37% czasu pracy`},
	{"37% recruiter time", "en", "/en/", `saves recruiters up to 37% of their time`},
	{"75 hours a month", "pl", "/pl/technologie/inteligentna-automatyzacja/", `oszczędzają nawet 75 godzin pracy miesięcznie`},
	{"75 hours a month", "en", "/en/technology/automation/", `save up to 75 hours of work a month`},
	{"90% faster", "pl", "/pl/produkty/intrabot/", `Odpowiedzi do 90% szybsze`},
	{"90% faster", "en", "/en/products/intrabot/", `Answers up to 90% faster`},
	{"ROI in 3 months", "pl", "/pl/technologie/inteligentna-automatyzacja/", `inwestycja zwraca się zwykle w 3 miesiące`},
	{"ROI in 3 months", "en", "/en/technology/automation/", `the investment usually pays back within 3 months`},
	{"rollout in 2 weeks", "pl", "/pl/rozwiazania/twoj-wlasny-bot/", `uruchamiamy go w około 2 tygodnie`},
	{"rollout in 2 weeks", "en", "/en/solutions/other-bots/", `it goes live in about 2 weeks`},
	{"setup about 8 hours", "pl", "/pl/rozwiazania/twoj-wlasny-bot/", `średnia konfiguracja typowego scenariusza zajmuje około 8 godzin`},
	{"setup about 8 hours", "en", "/en/technology/platform/", `Average scenario setup of about 8 hours`},
	{"30 specialists, 9 researchers", "pl", "/pl/o-nas/dlaczego-my/", `Ponad 30 specjalistów, w tym 9 badaczy`},
	{"30 specialists, 9 researchers", "en", "/en/about-us/why-us/", `Over 30 specialists, including 9 researchers`},
	{"300 parallel recruitments", "pl", "/pl/", `Rekord jednego z naszych klientów to 300 równoległych rekrutacji`},
	{"300 parallel recruitments", "en", "/en/", `The record for a single client is 300 parallel recruitments`},
	{"180 invitations a day", "pl", "/pl/produkty/hirebot/", `do 180 zaproszeń wysłanych jednego dnia`},
	{"180 invitations a day", "en", "/en/solutions/recruitment/", `sends up to 180 invitations a day`},
	{"9 questions, 3.5 minutes", "pl", "/pl/rozwiazania/rekrutacja/", `średnio 9 pytań na kandydata, rozmowa trwa około 3,5 minuty`},
	{"9 questions, 3.5 minutes", "en", "/en/solutions/recruitment/", `on average 9 questions per candidate, in a conversation of about 3\.5 minutes`},
	{"NPS 7.8 recruitment bot", "pl", "/pl/blog/biznes/co-chatbot-rekrutacyjny-zmienia-w-hr/", `NPS HireBota wynosi 7,8`},
	{"NPS 7.8 recruitment bot", "en", "/en/blog/business/what-a-recruitment-chatbot-changes-for-hr/", `HireBot's NPS is 7\.8`},
	{"NPS 8.7 internal bot", "pl", "/pl/rozwiazania/komunikacja-wewnetrzna/", `oceniają naszego bota wewnętrznego na 8,7 w skali NPS`},
	{"NPS 8.7 internal bot", "en", "/en/solutions/communication/", `rate our internal bot at 8\.7 on the NPS scale`},
	{"NPS 8.7 unnamed", "pl", "/pl/", `Ocena NPS użytkowników to 8,7`},
	{"NPS 8.7 unnamed", "en", "/en/", `Users rate it with an NPS of 8\.7`},
	{"170 questions a day", "pl", "/pl/rozwiazania/komunikacja-wewnetrzna/", `Obsługuje do 170 pytań dziennie`},
	{"170 questions a day", "en", "/en/solutions/communication/", `Handles up to 170 questions a day`},
	{"career tab up 40%", "pl", "/pl/rozwiazania/rekrutacja/", `Zwiększa skuteczność zakładki Kariera nawet o 40%`},
	{"career tab up 40%", "en", "/en/solutions/recruitment/", `Raises the effectiveness of your careers tab by up to 40%`},
	{"53% statistic", "pl", "/pl/technologie/interfejs-konwersacyjny/", `53% chętniej kontaktuje się z firmą`},
	{"53% statistic", "en", "/en/technology/conversation-interface/", `53% are more willing to contact a company`},
	{"76% statistic", "pl", "/pl/technologie/interfejs-konwersacyjny/", `76% użytkowników oczekuje odpowiedzi od razu`},
	{"76% statistic", "en", "/en/technology/conversation-interface/", `76% of users expect an answer right away`},
	{"45% prefer a chatbot", "pl", "/pl/technologie/interfejs-konwersacyjny/", `45% użytkowników woli zacząć kontakt od chatbota`},
	{"45% prefer a chatbot", "en", "/en/technology/conversation-interface/", `45% of users prefer to start contact with a chatbot`},
	{"printed content cut by 73%", "pl", "/pl/rozwiazania/komunikacja-wewnetrzna/", `ilość drukowanych treści spada o 73%`},
	{"printed content cut by 73%", "en", "/en/solutions/communication/", `printed content goes down by 73%`},
	{"grants 15 to 20 million PLN", "pl", "/pl/projekty-unijne/", `\b(1[5-9]|20)(,\d+)? mln zł`},
	{"grants 15 to 20 million PLN", "en", "/en/grants/", `PLN (1[5-9]|20)(\.\d+)? million`},
	{"stand-up 10 minutes", "pl", "/pl/rozwiazania/komunikacja-wewnetrzna/", `codzienne spotkanie zamyka się w 10 minutach`},
	{"stand-up 10 minutes", "en", "/en/solutions/communication/", `the daily meeting wraps up in 10 minutes`},
	{"CAGR 26.97% 2020-2030", "pl", "/pl/technologie/sztuczna-inteligencja/", `\(CAGR\) rynku chatbotów na poziomie 26,97% w latach 2020–2030`},
	{"CAGR 26.97% 2020-2030", "en", "/en/technology/artificial-inteligence/", `\(CAGR\) of the chatbot market at 26\.97% for 2020–2030`},
	{"German and Ukrainian planned", "pl", "/pl/", `Obsługujemy polski i angielski, a w planach są niemiecki i ukraiński`},
	{"German and Ukrainian planned", "en", "/en/", `We support Polish and English, with German and Ukrainian planned`},
	// Pricing, on the hirebot page.
	{"from 599 PLN net a month", "pl", "/pl/hirebot/", `od 599 zł netto / mies\.`},
	{"from 599 PLN net a month", "en", "/en/hirebot/", `from PLN 599 net per month`},
	{"25% off for 3 months", "pl", "/pl/hirebot/", `25% rabatu od standardowej opłaty abonamentowej przez pierwsze 3 miesiące`},
	{"25% off for 3 months", "en", "/en/hirebot/", `25% off the standard subscription fee for the first 3 months`},
	{"12-month contract", "pl", "/pl/hirebot/", `Umowa na 12 miesięcy`},
	{"12-month contract", "en", "/en/hirebot/", `The contract runs for 12 months`},
	{"2,500 sessions a month", "pl", "/pl/hirebot/", `Obsługa standardowa do 2 500 sesji miesięcznie`},
	{"2,500 sessions a month", "en", "/en/hirebot/", `Standard service up to 2,500 sessions per month`},
	{"configuration support 8 hours", "pl", "/pl/hirebot/", `do 8 godzin wsparcia w konfiguracji`},
	{"configuration support 8 hours", "en", "/en/hirebot/", `Configuration support up to 8 hours`},
	{"50 answers", "pl", "/pl/hirebot/", `Płynna rozmowa do 50 odpowiedzi`},
	{"50 answers", "en", "/en/hirebot/", `Smooth conversation up to 50 answers`},
	{"quiz of 10 questions", "pl", "/pl/hirebot/", `Test kandydata lub quiz o firmie do 10 pytań`},
	{"quiz of 10 questions", "en", "/en/hirebot/", `Candidate test or company quiz up to 10 questions`},
	{"optimisation once a month", "pl", "/pl/hirebot/", `Optymalizacja scenariusza 1 raz w miesiącu`},
	{"optimisation once a month", "en", "/en/hirebot/", `Scenario optimisation once a month`},
	{"internal bot priced individually", "pl", "/pl/hirebot/", `indywidualna wycena bota do komunikacji wewnętrznej`},
	{"internal bot priced individually", "en", "/en/hirebot/", `individual pricing for the internal communication bot`},
	// Series G share issue.
	{"issue price 0.20 PLN", "pl", "/pl/dla-inwestorow/informacje-ogolne/", `Cena emisyjna 0,20 zł za akcję`},
	{"issue price 0.20 PLN", "en", "/en/for-investors/investors/", `Issue price PLN 0\.20 per share`},
	{"nominal value 0.10 PLN", "pl", "/pl/dla-inwestorow/informacje-ogolne/", `Wartość nominalna 0,10 zł za akcję`},
	{"nominal value 0.10 PLN", "en", "/en/for-investors/investors/", `Nominal value PLN 0\.10 per share`},
	{"1 to 6,899,373 shares", "pl", "/pl/dla-inwestorow/informacje-ogolne/", `Nie mniej niż 1 i nie więcej niż 6 899 373 akcje`},
	{"1 to 6,899,373 shares", "en", "/en/for-investors/investors/", `At least 1 and at most 6,899,373 shares`},
	{"capital increase 0.10 to 689,937.30 PLN", "pl", "/pl/dla-inwestorow/informacje-ogolne/", `nie niższą niż 0,10 zł i nie wyższą niż 689 937,30 zł`},
	{"capital increase 0.10 to 689,937.30 PLN", "en", "/en/for-investors/investors/", `not less than PLN 0\.10 and not more than PLN 689,937\.30`},
	{"one right, 3 new shares", "pl", "/pl/dla-inwestorow/informacje-ogolne/", `Jedno prawo poboru uprawnia do objęcia 3 akcji serii G`},
	{"one right, 3 new shares", "en", "/en/for-investors/investors/", `Each pre-emption right entitles its holder to subscribe for 3 series G shares`},
	// Earlier capital increase, in the reports.
	{"capital 111,379.10 to 114,979.10 PLN by 36,000 D shares", "pl", "/pl/dla-inwestorow/raporty/", `z kwoty 111 379,10 zł do kwoty 114 979,10 zł w drodze emisji 36 000 akcji`},
	{"capital 111,379.10 to 114,979.10 PLN by 36,000 D shares", "en", "/en/for-investors/raports/", `from PLN 111,379\.10 to PLN 114,979\.10 through an issue of 36,000`},
	{"issue price 15.00, proceeds 540,000 PLN", "pl", "/pl/dla-inwestorow/raporty/", `Cena emisyjna 15,00 zł, wpływy 540 000 zł`},
	{"issue price 15.00, proceeds 540,000 PLN", "en", "/en/for-investors/raports/", `Issue price PLN 15\.00, proceeds PLN 540,000`},
	{"5% of votes threshold", "pl", "/pl/dla-inwestorow/raporty/", `akcjonariusze z co najmniej 5% głosów`},
	{"5% of votes threshold", "en", "/en/for-investors/raports/", `shareholders with at least 5% of votes`},
	// Form answer promise (the English text promises plain hours, see TestSpecTexts).
	{"answer within 24 working hours", "pl", "/pl/podziekowanie/", `odpowiedzą w ciągu 24 godzin roboczych`},
	{"answer within 24 hours", "en", "/en/thanks/", `will reply within 24 hours`},
}

// TestMarketingConstants: every §9 constant stands, with its unit and
// context, on the page of its language named in marketingConstants, and the
// 85% claim appears on exactly one English page.
func TestMarketingConstants(t *testing.T) {
	out := site(t)
	byPage := map[string]*page{}
	for _, c := range marketingConstants {
		p, ok := byPage[c.page]
		if !ok {
			f, found := target(out, c.page)
			if !found {
				t.Errorf("%s: no page %s", c.name, c.page)
				continue
			}
			p = parse(t, filepath.Join(out, filepath.FromSlash(f)))
			byPage[c.page] = p
		}
		if p.lang != c.lang {
			t.Errorf("%s: %s is in %q, want %q", c.name, c.page, p.lang, c.lang)
		}
		if !regexp.MustCompile(c.phrase).MatchString(normText(p)) {
			t.Errorf("%s (%s): %s does not say %q", c.name, c.lang, c.page, c.phrase)
		}
	}
	pages85 := 0
	for name, p := range pages(t) {
		if p.redirectTo == "" && strings.HasPrefix(name, "/en/") && regexp.MustCompile(`\b85%`).MatchString(normText(p)) {
			pages85++
		}
	}
	if pages85 != 1 {
		t.Errorf("85%% appears on %d English pages, want exactly 1", pages85)
	}
}

// srcsetURLs are the URLs of a srcset ("a.avif 163w, b.avif 325w").
func srcsetURLs(srcset string) []string {
	var out []string
	for _, c := range strings.Split(srcset, ",") {
		if f := strings.Fields(c); len(f) > 0 {
			out = append(out, f[0])
		}
	}
	return out
}
