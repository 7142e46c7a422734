package schema

import "encoding/json"

// JSONSchema returns the schema of a data file (content/<locale>/data/*.yaml)
// as JSON Schema (draft-07, which YAML language servers read): a mapping of
// named sets, each with a type and its items (or item) checked against that
// type's fields. Output is deterministic (encoding/json sorts object keys).
func (s *Schema) JSONSchema() ([]byte, error) {
	defs := map[string]any{}
	names := s.TypeNames()
	var cases []any
	for _, name := range names {
		t := s.byName[name]
		defs[name] = s.typeSchema(t)
		ref := map[string]any{"$ref": "#/definitions/" + name}
		cases = append(cases, map[string]any{
			"if":   map[string]any{"properties": map[string]any{"type": map[string]any{"const": name}}},
			"then": map[string]any{"properties": map[string]any{"items": map[string]any{"type": "array", "items": ref}, "item": ref}},
		})
	}
	typeEnum := map[string]any{"type": "string", "description": "The record type of the set, declared in " + FileName + "."}
	if len(names) > 0 {
		typeEnum["enum"] = names
	}
	set := map[string]any{
		"type":                 "object",
		"description":          "A named data set: a type and its items (a list) or one item.",
		"required":             []string{"type"},
		"additionalProperties": false,
		"properties": map[string]any{
			"type":  typeEnum,
			"items": map[string]any{"type": "array"},
			"item":  map[string]any{"type": "object"},
		},
	}
	if len(cases) > 0 {
		set["allOf"] = cases
	}
	defs["dataSet"] = set
	doc := map[string]any{
		"$schema":              "http://json-schema.org/draft-07/schema#",
		"title":                "sitegen data file",
		"description":          "A data file under content/<locale>/data/: named sets of records of the types in " + FileName + ".",
		"type":                 "object",
		"additionalProperties": map[string]any{"$ref": "#/definitions/dataSet"},
		"definitions":          defs,
	}
	return encodeJSON(doc)
}

func (s *Schema) typeSchema(t *Type) map[string]any {
	props := map[string]any{}
	required := []string{}
	for _, f := range t.Fields {
		props[f.Name] = fieldSchema(f)
		if f.Required {
			required = append(required, f.Name)
		}
	}
	out := map[string]any{"type": "object", "properties": props, "additionalProperties": false}
	if len(required) > 0 {
		out["required"] = required
	}
	if t.Description != "" {
		out["description"] = t.Description
	}
	return out
}

// scalarTypes are what a text field accepts: any YAML scalar reads as text.
var scalarTypes = []string{"string", "number", "boolean"}

func fieldSchema(f *Field) map[string]any {
	var out map[string]any
	switch f.Kind {
	case KindText:
		out = map[string]any{"type": scalarTypes}
	case KindMarkdown:
		out = map[string]any{"type": scalarTypes, "description": "Inline Markdown; links are checked."}
	case KindNumber:
		out = map[string]any{"type": "number"}
	case KindInteger:
		out = map[string]any{"type": "integer"}
	case KindBool:
		out = map[string]any{"type": "boolean"}
	case KindDate:
		out = map[string]any{"type": "string", "pattern": dateRE.String()}
	case KindEnum:
		out = map[string]any{"enum": f.Values}
	case KindList:
		out = map[string]any{"type": "array", "items": fieldSchema(f.Of)}
	case KindRecord:
		out = map[string]any{"$ref": "#/definitions/" + f.Type}
	case KindLink:
		out = map[string]any{"type": "string", "description": "A link: ref:<page-id>[#anchor], a site path, #anchor or an external URL."}
	case KindFile:
		out = map[string]any{"type": "string", "pattern": "^/", "description": "A file under assets/static/, as a site path."}
	case KindImage:
		out = map[string]any{"type": "string", "pattern": "^/", "description": "An image (avif, gif, jpeg, png, svg or webp) under assets/static/, as a site path."}
	}
	if f.Description != "" {
		if d, ok := out["description"].(string); ok && f.Kind != KindRecord {
			out["description"] = f.Description + " (" + d + ")"
		} else {
			out["description"] = f.Description
		}
	}
	if f.Default != nil {
		if b, err := json.Marshal(f.Default); err == nil {
			out["default"] = json.RawMessage(b)
		}
	}
	return out
}
