package config

import (
	"maps"
	"regexp"
	"slices"

	"gopkg.in/yaml.v3"

	"sitegen/pkg/diag"
	"sitegen/pkg/yamlx"
)

var (
	// formNameRE keeps a form's name usable in a file name (the schema
	// _forms/<name>.schema.json) and a data set key (forms.<name>).
	formNameRE = regexp.MustCompile(`^[a-z][a-z0-9_-]{0,39}$`)
	// formIDRE is an HTML id the markup check can find as id="...".
	formIDRE = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_-]{0,63}$`)
	// eventRE is a webhook event name.
	eventRE = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_.-]{0,63}$`)
)

// DefaultHoneypot is the name of a form's trap input when site.yaml's
// forms.<name>.honeypot names none.
const DefaultHoneypot = "url"

// FormNames returns the names of the site's forms, sorted.
func (c *Config) FormNames() []string { return slices.Sorted(maps.Keys(c.Forms)) }

// validateForms fills in each form's defaults and checks its names.
func (c *Config) validateForms(root *yaml.Node) diag.List {
	var errs diag.List
	node := yamlx.Field(root, "forms")
	ids, endpoints := map[string]string{}, map[string]string{}
	for _, name := range c.FormNames() {
		f := c.Forms[name]
		at := func(field string) diag.Pos {
			n := yamlx.Field(node, name)
			if field != "" {
				if v := yamlx.Field(n, field); v != nil {
					n = v
				}
			}
			return yamlx.Pos(FileName, n)
		}
		if !formNameRE.MatchString(name) {
			errs.Add(diag.New(at(""), "form name %q must be lower-case letters, digits, - or _, starting with a letter", name).
				WithHint("like demo or newsletter"))
		}
		if f.ID == "" {
			f.ID = name + "-form"
		} else if !formIDRE.MatchString(f.ID) {
			errs.Addf(at("id"), "forms.%s.id %q is not an HTML id (letters, digits, - and _, starting with a letter)", name, f.ID)
		}
		if other, dup := ids[f.ID]; dup {
			errs.Addf(at("id"), "forms %s and %s both use the element id %q", other, name, f.ID)
		}
		ids[f.ID] = name
		if other, dup := endpoints[f.Endpoint]; dup && f.Endpoint != "" {
			errs.Addf(at("endpoint"), "forms %s and %s both post to %s: each form needs its own endpoint", other, name, f.Endpoint)
		}
		endpoints[f.Endpoint] = name
		if f.Thanks == "" {
			f.Thanks = "thanks"
		}
		if f.Subject == "" {
			f.Subject = name
		}
		if f.Event == "" {
			f.Event = name + "_submission"
		} else if !eventRE.MatchString(f.Event) {
			errs.Addf(at("event"), "forms.%s.event %q must be letters, digits, _, . or -", name, f.Event)
		}
		if f.Honeypot == "" {
			f.Honeypot = DefaultHoneypot
		} else if !formIDRE.MatchString(f.Honeypot) {
			errs.Addf(at("honeypot"), "forms.%s.honeypot %q is not an input name (letters, digits, - and _, starting with a letter)", name, f.Honeypot)
		}
		c.Forms[name] = f
	}
	return errs
}
