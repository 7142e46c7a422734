package content

// The typed content records of the specification (§3), plus the few the site
// needs around them (menu links, quotes, jobs, events). Each is decoded
// strictly from YAML: an unknown field, a wrong type or a missing field tagged
// `sg:"required"` is a diagnostic at its file:line:col.
//
// Field types:
//   - string: plain text.
//   - Text: text that may hold inline Markdown (links, emphasis); links in it
//     are resolved per locale and checked at build time.
//   - Link: a link target: "ref:<page-id>[#anchor]", a legacy short path
//     declared in site.yaml ("/contact"), an absolute site path, "#anchor",
//     or an external URL (https:, mailto:, tel:).
//   - File: a site-relative path of a static file ("/investor-docs/x.pdf",
//     "/img/team/anna.svg"); it must exist under static/ or assets/.

// SolutionTile is a tile on the home page leading to a solution page.
type SolutionTile struct {
	Text             string `yaml:"text" sg:"required"`
	HoverTitle       string `yaml:"hoverTitle" sg:"required"`
	Image            File   `yaml:"image" sg:"required"`
	HoverDescription Text   `yaml:"hoverDescription" sg:"required"`
	Href             Link   `yaml:"href" sg:"required"`
}

// Statistic is a figure with its caption.
type Statistic struct {
	Value string `yaml:"value" sg:"required"`
	Text  Text   `yaml:"text" sg:"required"`
}

// Benefit is an illustrated advantage.
type Benefit struct {
	Title string `yaml:"title" sg:"required"`
	Text  Text   `yaml:"text" sg:"required"`
	Image File   `yaml:"image"`
	Icon  string `yaml:"icon"`
}

// Card is a text card with tags.
type Card struct {
	Title string   `yaml:"title" sg:"required"`
	Text  Text     `yaml:"text" sg:"required"`
	Tags  []string `yaml:"tags"`
	Href  Link     `yaml:"href"`
}

// Step is one step of a stepper.
type Step struct {
	Title string `yaml:"title" sg:"required"`
	Text  Text   `yaml:"text" sg:"required"`
	Image File   `yaml:"image"`
	Alt   string `yaml:"alt"`
}

// Feature is one line of a feature list; Icon names an icon (lucide name).
type Feature struct {
	Text Text   `yaml:"text" sg:"required"`
	Icon string `yaml:"icon" sg:"required"`
}

// Capability is a card linking to another solution page.
type Capability struct {
	Title string `yaml:"title" sg:"required"`
	Image File   `yaml:"image" sg:"required"`
	Href  Link   `yaml:"href" sg:"required"`
	Text  Text   `yaml:"text"`
}

// InfographicItem is one item of an infographic.
type InfographicItem struct {
	Title        string   `yaml:"title" sg:"required"`
	Text         Text     `yaml:"text" sg:"required"`
	TopIcon      string   `yaml:"topIcon" sg:"required"`
	Icon         string   `yaml:"icon"`
	Bulletpoints []string `yaml:"bulletpoints"`
}

// Integration is a conversation channel.
type Integration struct {
	Image File   `yaml:"image" sg:"required"`
	Name  string `yaml:"name" sg:"required"`
}

// Showcase is a client showcase entry.
type Showcase struct {
	Image File   `yaml:"image" sg:"required"`
	Title string `yaml:"title" sg:"required"`
	Text  Text   `yaml:"text" sg:"required"`
	Href  Link   `yaml:"href"`
}

// Person is a member of the management, the supervisory board or the team.
// Sample marks invented entries that authors are to replace.
type Person struct {
	Name     string `yaml:"name" sg:"required"`
	Position string `yaml:"position" sg:"required"`
	Text     Text   `yaml:"text"`
	Image    File   `yaml:"image"`
	Alt      string `yaml:"alt"`
	Sample   bool   `yaml:"sample"`
}

// ContactPerson is a person visitors can reach directly.
type ContactPerson struct {
	Image    File   `yaml:"image" sg:"required"`
	Name     string `yaml:"name" sg:"required"`
	Position string `yaml:"position" sg:"required"`
	Email    string `yaml:"email" sg:"required"`
	Phone    string `yaml:"phone" sg:"required"`
	Sample   bool   `yaml:"sample"`
}

// Document is an investor document.
type Document struct {
	Title string `yaml:"title" sg:"required"`
	Link  Link   `yaml:"link" sg:"required"`
}

// FileRef is one downloadable file.
type FileRef struct {
	ID   string `yaml:"id"`
	Name string `yaml:"name" sg:"required"`
	URL  Link   `yaml:"url" sg:"required"`
}

// FileGroup is a named group of files (Financial, Corporate).
type FileGroup struct {
	Name  string    `yaml:"name" sg:"required"`
	Files []FileRef `yaml:"files" sg:"required"`
}

// Meeting is a general meeting (WZA) with its attachments.
type Meeting struct {
	ID          string    `yaml:"id" sg:"required"`
	Ordinal     int       `yaml:"ordinal" sg:"required"`
	Title       string    `yaml:"title" sg:"required"`
	Description Text      `yaml:"description"`
	Headline    string    `yaml:"headline" sg:"required"`
	TextLeft    Text      `yaml:"textLeft" sg:"required"`
	TextRight   Text      `yaml:"textRight"`
	Attachments []FileRef `yaml:"attachments"`
}

// Report is a regulatory current report.
type Report struct {
	ID          string    `yaml:"id" sg:"required"`
	Ordinal     int       `yaml:"ordinal" sg:"required"`
	Title       string    `yaml:"title" sg:"required"`
	Headline    string    `yaml:"headline" sg:"required"`
	Description Text      `yaml:"description"`
	TextLeft    Text      `yaml:"textLeft" sg:"required"`
	TextRight   Text      `yaml:"textRight"`
	Attachments []FileRef `yaml:"attachments"`
}

// ReportTab holds the reports of one reporting system.
type ReportTab struct {
	TabName string   `yaml:"tabName" sg:"required"`
	System  string   `yaml:"system"`
	Items   []Report `yaml:"items"`
}

// PricingLine is one line of a pricing plan.
type PricingLine struct {
	Text    Text `yaml:"text" sg:"required"`
	Checked bool `yaml:"checked"`
}

// PricingPlan is a plan with its price and lines.
type PricingPlan struct {
	Name      string        `yaml:"name" sg:"required"`
	Price     string        `yaml:"price" sg:"required"`
	PriceNote string        `yaml:"priceNote"`
	Text      Text          `yaml:"text"`
	Lines     []PricingLine `yaml:"lines" sg:"required"`
	CTA       string        `yaml:"cta"`
	Href      Link          `yaml:"href"`
	Featured  bool          `yaml:"featured"`
}

// Block is the generic content block.
type Block struct {
	SectionClassNames string   `yaml:"sectionClassNames"`
	TopIcon           string   `yaml:"topIcon"`
	Icon              string   `yaml:"icon"`
	Tags              []string `yaml:"tags"`
	Value             string   `yaml:"value"`
	Title             string   `yaml:"title"`
	Text              Text     `yaml:"text"`
	Image             File     `yaml:"image"`
	Alt               string   `yaml:"alt"`
	Href              Link     `yaml:"href"`
	LinkLabel         string   `yaml:"linkLabel"`
}

// Quote is a customer quote.
type Quote struct {
	Text   Text   `yaml:"text" sg:"required"`
	Author string `yaml:"author" sg:"required"`
	Role   string `yaml:"role" sg:"required"`
	Image  File   `yaml:"image"`
	Sample bool   `yaml:"sample"`
}

// Column is one column of column content.
type Column struct {
	Title string `yaml:"title" sg:"required"`
	Text  Text   `yaml:"text" sg:"required"`
	Icon  string `yaml:"icon"`
}

// MenuLink is an entry of the main menu or the footer, with optional children.
type MenuLink struct {
	Label string     `yaml:"label" sg:"required"`
	Href  Link       `yaml:"href" sg:"required"`
	Items []MenuLink `yaml:"items"`
}

// Announcement is the top bar; it shows between Start and End (inclusive,
// YYYY-MM-DD).
type Announcement struct {
	Text      Text   `yaml:"text" sg:"required"`
	LinkLabel string `yaml:"linkLabel" sg:"required"`
	Href      Link   `yaml:"href" sg:"required"`
	Start     string `yaml:"start" sg:"required"`
	End       string `yaml:"end" sg:"required"`
}

// Job is an open position.
type Job struct {
	ID               string   `yaml:"id" sg:"required"`
	Title            string   `yaml:"title" sg:"required"`
	Location         string   `yaml:"location" sg:"required"`
	Employment       string   `yaml:"employment" sg:"required"`
	Summary          Text     `yaml:"summary" sg:"required"`
	Responsibilities []string `yaml:"responsibilities"`
	Requirements     []string `yaml:"requirements"`
	Offer            []string `yaml:"offer"`
	ApplyEmail       string   `yaml:"applyEmail" sg:"required"`
}

// Event is an entry of the investor calendar.
type Event struct {
	Date  string `yaml:"date" sg:"required"`
	Title string `yaml:"title" sg:"required"`
	Text  Text   `yaml:"text"`
}

// Fact is a labelled value (stock data, company registration details).
type Fact struct {
	Label string `yaml:"label" sg:"required"`
	Value Text   `yaml:"value" sg:"required"`
}

// Project is an EU project or grant.
type Project struct {
	Title     string `yaml:"title" sg:"required"`
	Programme string `yaml:"programme" sg:"required"`
	Value     string `yaml:"value"`
	Period    string `yaml:"period"`
	Text      Text   `yaml:"text" sg:"required"`
	Image     File   `yaml:"image"`
}

// FormField is a field of the demo form.
type FormField struct {
	Name         string `yaml:"name" sg:"required"`
	Label        string `yaml:"label" sg:"required"`
	Type         string `yaml:"type" sg:"required"`
	Autocomplete string `yaml:"autocomplete"`
	Required     bool   `yaml:"required"`
	MaxLength    int    `yaml:"maxLength"`
}

// Consent is a consent checkbox of the demo form.
type Consent struct {
	Name string `yaml:"name" sg:"required"`
	Text Text   `yaml:"text" sg:"required"`
	// Version names this wording; change it whenever the text changes
	// (stored with every consent given).
	Version  string `yaml:"version" sg:"required"`
	Required bool   `yaml:"required"`
}

// Form is the demo request form: fields, consents and the controller clause.
type Form struct {
	Title    string      `yaml:"title" sg:"required"`
	Intro    Text        `yaml:"intro"`
	Fields   []FormField `yaml:"fields" sg:"required"`
	Consents []Consent   `yaml:"consents" sg:"required"`
	Clause   Text        `yaml:"clause" sg:"required"`
	// ClauseVersion names the controller clause's wording.
	ClauseVersion string `yaml:"clauseVersion" sg:"required"`
	Submit        string `yaml:"submit" sg:"required"`
}

// recordTypes maps the `type:` of a data set to a new value of its record.
var recordTypes = map[string]func() any{
	"solutionTile":  func() any { return new(SolutionTile) },
	"statistic":     func() any { return new(Statistic) },
	"benefit":       func() any { return new(Benefit) },
	"card":          func() any { return new(Card) },
	"step":          func() any { return new(Step) },
	"feature":       func() any { return new(Feature) },
	"capability":    func() any { return new(Capability) },
	"infographic":   func() any { return new(InfographicItem) },
	"integration":   func() any { return new(Integration) },
	"showcase":      func() any { return new(Showcase) },
	"person":        func() any { return new(Person) },
	"contactPerson": func() any { return new(ContactPerson) },
	"document":      func() any { return new(Document) },
	"fileGroup":     func() any { return new(FileGroup) },
	"meeting":       func() any { return new(Meeting) },
	"reportTab":     func() any { return new(ReportTab) },
	"pricingLine":   func() any { return new(PricingLine) },
	"pricingPlan":   func() any { return new(PricingPlan) },
	"block":         func() any { return new(Block) },
	"quote":         func() any { return new(Quote) },
	"column":        func() any { return new(Column) },
	"menuLink":      func() any { return new(MenuLink) },
	"announcement":  func() any { return new(Announcement) },
	"job":           func() any { return new(Job) },
	"event":         func() any { return new(Event) },
	"fact":          func() any { return new(Fact) },
	"project":       func() any { return new(Project) },
	"form":          func() any { return new(Form) },
}
