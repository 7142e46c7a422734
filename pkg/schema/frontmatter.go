package schema

import (
	"bytes"
	"encoding/json"
	"sort"
)

// fmKey is one key of the engine's front matter, as JSON Schema.
type fmKey struct {
	name     string
	required bool
	schema   map[string]any
}

func scalarText(desc string) map[string]any {
	return map[string]any{"type": scalarTypes, "description": desc}
}

// pageKeys are the front matter keys of a page (pkg/content.Page); the
// params entry is completed from the schema's page: block.
var pageKeys = []fmKey{
	{"id", true, map[string]any{"type": []string{"string", "number"}, "pattern": "^[a-z0-9][a-z0-9._-]*$",
		"description": "The page id; the same id in every locale pairs the translations. a-z, 0-9, '.', '_' and '-'."}},
	{"slug", false, map[string]any{"type": "string",
		"description": `Path under the locale prefix, lower-case segments without leading or trailing slash; "" is the home. Default: from the file name.`}},
	{"title", true, scalarText("<title> and the default h1.")},
	{"description", true, scalarText("The meta description (one or two sentences).")},
	{"keywords", false, scalarText("Meta keywords (.Page.Keywords; the templates decide how they are written).")},
	{"layout", false, map[string]any{"type": "string", "description": `templates/layouts/<layout>.html; default "page".`}},
	{"aliases", false, map[string]any{"type": "array", "items": map[string]any{"type": "string", "pattern": "^/"},
		"description": "Clean absolute site paths that redirect to the page."}},
	{"date", false, map[string]any{"type": "string", "pattern": dateRE.String(), "description": "YYYY-MM-DD or an RFC 3339 time."}},
	{"draft", false, map[string]any{"type": "boolean", "description": "Drafts are built only with --drafts."}},
	{"summary", false, scalarText("Used in listings.")},
	{"tags", false, map[string]any{"type": "array", "items": map[string]any{"type": scalarTypes}}},
	{"terms", false, map[string]any{"type": "object", "additionalProperties": map[string]any{"type": "array", "items": map[string]any{"type": scalarTypes}},
		"description": "Terms per taxonomy of " + "site.yaml" + " (taxonomies:), like {tags: [go, builds]}: the page is listed on each term's page."}},
	{"paginate", false, map[string]any{"type": "integer", "minimum": 1,
		"description": "Pages the list of the pages below this page, this many to a page (.Paginator in the layout)."}},
	{"paginateData", false, map[string]any{"type": "string", "description": `With paginate: page the records of this data set ("<file>.<key>", a set of items) instead of the pages below (.Paginator.Records).`}},
	{"image", false, map[string]any{"type": "string", "pattern": "^/", "description": "Open Graph image under assets/static/, as a site path."}},
	{"params", false, map[string]any{"type": "object", "description": "Params for the layout (free-form unless " + FileName + " declares page params)."}},
	{"sections", false, map[string]any{"type": "array", "items": map[string]any{"$ref": "#/definitions/section"},
		"description": "Rendered in order by templates/sections/<type>.html."}},
}

// sectionKeys are the keys of one entry of sections (pkg/content.Section);
// params is completed from the schema's sections: block.
var sectionKeys = []fmKey{
	{"type", true, map[string]any{"type": "string", "description": "The section type: templates/sections/<type>.html."}},
	{"id", false, map[string]any{"type": "string", "description": "HTML id (anchor)."}},
	{"title", false, scalarText("Section heading (h2).")},
	{"intro", false, scalarText("Lead text (inline Markdown).")},
	{"data", false, map[string]any{"type": "string", "description": `Data set "<file>.<key>" of the same locale.`}},
	{"params", false, map[string]any{"type": "object", "description": "Params of the section (free-form unless " + FileName + " declares this section type)."}},
}

// FrontMatterKeys returns the keys FrontMatterJSONSchema describes for a
// page and for a section, each with whether it is required, so a test can
// hold them to the engine's front matter.
func FrontMatterKeys() (page, section map[string]bool) {
	page, section = map[string]bool{}, map[string]bool{}
	for _, k := range pageKeys {
		page[k.name] = k.required
	}
	for _, k := range sectionKeys {
		section[k.name] = k.required
	}
	return page, section
}

func keysSchema(keys []fmKey, override map[string]any) map[string]any {
	props := map[string]any{}
	var required []string
	for _, k := range keys {
		props[k.name] = k.schema
		if v, ok := override[k.name]; ok {
			props[k.name] = v
		}
		if k.required {
			required = append(required, k.name)
		}
	}
	return map[string]any{"type": "object", "properties": props, "required": required, "additionalProperties": false}
}

// FrontMatterJSONSchema returns the schema of a page's front matter as JSON
// Schema (draft-07): the engine's keys, with params checked against the
// page: block of the schema and each section's params against its type's
// entry in sections: (section types it does not list keep free-form params).
// Output is deterministic.
func (s *Schema) FrontMatterJSONSchema() ([]byte, error) {
	defs := map[string]any{}
	for _, name := range s.TypeNames() {
		defs[name] = s.typeSchema(s.byName[name])
	}
	page := map[string]any{}
	if s.Page != nil {
		p := s.typeSchema(s.Page)
		delete(p, "required") // params hold only what the page gives
		p["description"] = "Params for the layout, declared by page: in " + FileName + "."
		page["params"] = p
	}
	section := keysSchema(sectionKeys, nil)
	var types []string
	for k := range s.Sections {
		types = append(types, k)
	}
	sort.Strings(types)
	var cases []any
	for _, k := range types {
		p := s.typeSchema(s.Sections[k])
		delete(p, "required")
		p["description"] = "Params of a " + k + " section, declared by sections: in " + FileName + "."
		cases = append(cases, map[string]any{
			"if":   map[string]any{"properties": map[string]any{"type": map[string]any{"const": k}}, "required": []string{"type"}},
			"then": map[string]any{"properties": map[string]any{"params": p}},
		})
	}
	if len(cases) > 0 {
		section["allOf"] = cases
		section["properties"].(map[string]any)["type"].(map[string]any)["examples"] = types
	}
	defs["section"] = section
	doc := keysSchema(pageKeys, page)
	doc["$schema"] = "http://json-schema.org/draft-07/schema#"
	doc["title"] = "sitegen page front matter"
	doc["description"] = "The YAML front matter of a page (content/<locale>/**/*.md), with params as declared in " + FileName + "."
	doc["definitions"] = defs
	return encodeJSON(doc)
}

func encodeJSON(doc any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(doc); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
