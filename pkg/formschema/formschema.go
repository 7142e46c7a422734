// Package formschema makes, at build time, the schema of each form a site
// declares (site.yaml forms:, the data set forms.<name>), which the form
// handler (package forms) reads; and checks each page's form markup
// against it.
package formschema

import (
	"fmt"
	"net/url"
	"slices"
	"strings"

	"sitegen/pkg/config"
	"sitegen/pkg/content"
	"sitegen/pkg/diag"
	"sitegen/pkg/forms"
	"sitegen/pkg/i18n"
	"sitegen/pkg/markdown"
	"sitegen/pkg/route"
)

// SiteInput is what the build knows that the schema is made of.
type SiteInput struct {
	Config   *config.Config
	Source   *content.Source
	Plan     *route.Plan
	Catalog  *i18n.Catalog
	Markdown *markdown.Converter
}

// DataSet is the data set holding a form's definition ("forms.demo").
func DataSet(form string) string { return "forms." + form }

// Build makes the schema of a form from the site: the fields, limits,
// consents and clause of content/<lang>/data/forms.yaml, the endpoint,
// element id, mail subject and event of site.yaml, the thank-you page of
// each locale and the UI strings. It returns nil, nil when the site does
// not define the form (not in site.yaml or no data set).
func Build(in SiteInput, form string) (*forms.Schema, error) {
	fc, ok := in.Config.Forms[form]
	if !ok || !hasDataSet(in.Source, form) {
		return nil, nil
	}
	def := in.Config.DefaultLocale().Code
	s := &forms.Schema{Form: form, ID: fc.ID, Subject: fc.Subject, Event: fc.Event, Endpoint: fc.Endpoint, Honeypot: fc.Honeypot, DefaultLocale: def,
		Clause: map[string]forms.Text{}, Thanks: map[string]string{}, UI: map[string]forms.UItexts{}}
	// A handler on another origin gets absolute links (thank-you page,
	// links in the texts) and allows exactly the site's origin.
	prefix := ""
	if u, err := url.Parse(fc.Endpoint); err == nil && u.Host != "" {
		b, err := url.Parse(in.Config.BaseURL)
		if err != nil || b.Host == "" {
			return nil, diag.New(fc.Pos, "form %s: the endpoint is on another origin, so baseURL %q must be an absolute URL", form, in.Config.BaseURL)
		}
		s.Origin = b.Scheme + "://" + b.Host
		prefix = strings.TrimSuffix(in.Config.BaseURL, "/")
	}
	var errs diag.List
	var base *definition
	var basePos diag.Pos // the default locale's data set
	for _, l := range in.Config.Locales {
		lang := l.Code
		s.Locales = append(s.Locales, lang)
		f, pos, err := formOf(in.Source, lang, def, form)
		if err != nil {
			if pos.File == "" {
				return nil, diag.New(fc.Pos, "%v", err)
			}
			return nil, err
		}
		resolve := func(dest string) (string, error) {
			u, err := in.Plan.Resolve(lang, dest)
			if err == nil && strings.HasPrefix(u, "/") {
				u = prefix + u
			}
			return u, err
		}
		html := func(t content.Text) string {
			out, e := in.Markdown.Inline(markdown.Source{Text: []byte(t.Source), Pos: t.Pos}, resolve)
			errs = append(errs, e...)
			return out
		}
		if base == nil {
			base, basePos = f, pos
			errs.Merge(shapeOf(s, f, pos))
		} else if err := sameShape(base, f); err != nil {
			errs.Add(diag.New(pos, "form %s in %s differs from the default locale's: %v", form, lang, err))
			continue
		}
		ui := uiTexts(in, lang, f)
		for i, c := range f.Consents {
			s.Consents[i].Texts[lang] = forms.Text{Source: c.Text.Source, HTML: html(c.Text), Hash: forms.HashText(c.Text.Source)}
		}
		s.Clause[lang] = forms.Text{Source: f.Clause.Source, HTML: html(f.Clause), Hash: forms.HashText(f.Clause.Source)}
		if e, ok := in.Plan.Home(lang); ok {
			ui.Home = prefix + e.URL
		}
		s.UI[lang] = ui
		e, ok := in.Plan.Lookup(lang, fc.Thanks)
		if !ok {
			errs.Add(diag.New(fc.ThanksPos, "form %s: locale %s has no thank-you page (a page with id: %s)", form, lang, fc.Thanks))
			continue
		}
		s.Thanks[lang] = prefix + e.URL
	}
	if len(errs) > 0 {
		return nil, errs.Err()
	}
	if err := s.Seal(); err != nil {
		return nil, diag.New(basePos, "form %s: %v", form, err)
	}
	return s, nil
}

// shapeOf fills s's fields, consents and clause version from the default
// locale's definition f, found at pos.
func shapeOf(s *forms.Schema, f *definition, pos diag.Pos) diag.List {
	var errs diag.List
	for i, fd := range f.Fields {
		ff := forms.Field{Name: fd.Name, Type: fd.Type, Required: fd.Required, MinLength: fd.MinLength, MaxLength: fd.MaxLength}
		for _, o := range fd.Options {
			ff.Options = append(ff.Options, o.Value)
		}
		if err := forms.CheckField(ff); err != nil {
			errs.Add(diag.New(pos, "form %s: field %d (%s): %v", s.Form, i+1, fd.Name, err))
		}
		s.Fields = append(s.Fields, ff)
	}
	for _, c := range f.Consents {
		s.Consents = append(s.Consents, forms.Consent{Name: c.Name, Required: c.Required, Version: c.Version, Texts: map[string]forms.Text{}})
	}
	s.ClauseVersion = f.ClauseVersion
	return errs
}

// uiTexts are the form's labels and messages in lang (the home link is
// set by the caller).
func uiTexts(in SiteInput, lang string, f *definition) forms.UItexts {
	ui := forms.UItexts{Title: f.Title, Submit: f.Submit, Labels: map[string]string{}, Messages: map[string]string{}}
	for _, fd := range f.Fields {
		ui.Labels[fd.Name] = fd.Label
		for _, o := range fd.Options {
			if ui.OptionLabels == nil {
				ui.OptionLabels = map[string]map[string]string{}
			}
			if ui.OptionLabels[fd.Name] == nil {
				ui.OptionLabels[fd.Name] = map[string]string{}
			}
			ui.OptionLabels[fd.Name][o.Value] = o.Label
		}
		if fd.MinLength > 0 {
			ui.Messages[forms.CodeTooShort] = text(in.Catalog, lang, TooShortKey)
		}
	}
	for code, key := range MessageKeys {
		ui.Messages[code] = text(in.Catalog, lang, key)
	}
	ui.Heading = text(in.Catalog, lang, KeyErrorsHeading)
	ui.Unavailable = text(in.Catalog, lang, KeyUnavailable)
	ui.Honeypot = text(in.Catalog, lang, KeyHoneypot)
	ui.Back = text(in.Catalog, lang, KeyBack)
	return ui
}

// TooShortKey is the UI string of the tooShort error (a field shorter than
// its minLength; "{min}" is the bound), used only by a form with a
// minLength (the engine's words unless the site has its own).
const TooShortKey = "form_msg_too_short"

func optionValues(os []optionDef) []string {
	out := make([]string, len(os))
	for i, o := range os {
		out[i] = o.Value
	}
	return out
}

// hasDataSet reports whether any locale defines the form.
func hasDataSet(src *content.Source, form string) bool {
	for _, l := range src.Locales {
		if _, ok := l.Data[DataSet(form)]; ok {
			return true
		}
	}
	return false
}

func formOf(src *content.Source, lang, def, form string) (*definition, diag.Pos, error) {
	name := DataSet(form)
	set, ok := src.Locales[lang].Data[name]
	if !ok {
		set, ok = src.Locales[def].Data[name]
	}
	if !ok {
		return nil, diag.Pos{}, fmt.Errorf("site.yaml configures form %q but no locale has the data set %s (content/<lang>/data/forms.yaml, key %s)", form, name, form)
	}
	rec, ok := set.Value.(content.Record)
	if !ok {
		return nil, set.Pos, diag.New(set.Pos, "data set %s must hold one form record (item:), of a type shaped like a form", name)
	}
	f, err := definitionOf(rec)
	if err != nil {
		return nil, set.Pos, diag.New(set.Pos, "data set %s (type %s): %v", name, set.Type, err)
	}
	return f, set.Pos, nil
}

// sameShape checks that a translation of the form has the same fields,
// limits and consents (labels and texts differ, the rules may not).
func sameShape(a, b *definition) error {
	if len(a.Fields) != len(b.Fields) {
		return fmt.Errorf("%d fields, not %d", len(b.Fields), len(a.Fields))
	}
	for i := range a.Fields {
		x, y := a.Fields[i], b.Fields[i]
		if x.Name != y.Name || x.Type != y.Type || x.Required != y.Required || x.MaxLength != y.MaxLength {
			return fmt.Errorf("field %d is %s (%s, required %t, maxLength %d), not %s (%s, required %t, maxLength %d)",
				i+1, y.Name, y.Type, y.Required, y.MaxLength, x.Name, x.Type, x.Required, x.MaxLength)
		}
		if x.MinLength != y.MinLength {
			return fmt.Errorf("field %d (%s) has minLength %d, not %d", i+1, x.Name, y.MinLength, x.MinLength)
		}
		if !slices.EqualFunc(x.Options, y.Options, func(a, b optionDef) bool { return a.Value == b.Value }) {
			return fmt.Errorf("field %d (%s) has the options %v, not %v", i+1, x.Name, optionValues(y.Options), optionValues(x.Options))
		}
	}
	if len(a.Consents) != len(b.Consents) {
		return fmt.Errorf("%d consents, not %d", len(b.Consents), len(a.Consents))
	}
	for i := range a.Consents {
		x, y := a.Consents[i], b.Consents[i]
		if x.Name != y.Name || x.Required != y.Required || x.Version != y.Version {
			return fmt.Errorf("consent %d is %s (required %t, version %s), not %s (required %t, version %s)",
				i+1, y.Name, y.Required, y.Version, x.Name, x.Required, x.Version)
		}
	}
	if a.ClauseVersion != b.ClauseVersion {
		return fmt.Errorf("clauseVersion %s, not %s", b.ClauseVersion, a.ClauseVersion)
	}
	return nil
}
