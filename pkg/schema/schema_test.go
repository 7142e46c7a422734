package schema

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

const testSchema = `types:
  post:
    description: A post.
    fields:
      title: {kind: text, required: true, description: The headline.}
      body: markdown
      views: number
      rank: integer
      draft: bool
      date: date
      tone: {kind: enum, values: [plain, accent], default: plain}
      tags: {kind: list, of: text}
      href: link
      file: file
      cover: image
      author: {kind: record, type: person}
      links: {kind: list, of: {kind: record, type: person}}
  person:
    fields:
      name: {kind: text, required: true}
`

func mustParse(t *testing.T, src string) *Schema {
	t.Helper()
	s, err := Parse("schema.yaml", []byte(src))
	if err != nil {
		t.Fatalf("parse: %v", err)
	}
	return s
}

func decode(t *testing.T, s *Schema, typ, src string) (Record, string) {
	t.Helper()
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(src), &doc); err != nil {
		t.Fatal(err)
	}
	ty, ok := s.Type(typ)
	if !ok {
		t.Fatalf("no type %q", typ)
	}
	rec, errs := s.Decode("data.yaml", ty, doc.Content[0])
	return rec, strings.TrimSpace(errs.Sort().Error())
}

func TestDecodeKinds(t *testing.T) {
	s := mustParse(t, testSchema)
	rec, errs := decode(t, s, "post", `title: Hello
body: "see [x](ref:home)"
views: 1.5
rank: 3
draft: true
date: 2026-01-02
tags: [a, b]
href: ref:home
file: /docs/a.pdf
cover: /img/a.png
author: {name: Ala}
links:
  - {name: Ola}
`)
	if errs != "" {
		t.Fatalf("errors: %s", errs)
	}
	want := map[string]any{
		"title": "Hello", "views": 1.5, "rank": 3, "draft": true, "date": "2026-01-02", "tone": "plain",
		"tags": []string{"a", "b"}, "author": Record{"name": "Ala"}, "links": []Record{{"name": "Ola"}},
	}
	for k, v := range want {
		if !reflect.DeepEqual(rec[k], v) {
			t.Errorf("%s = %#v, want %#v", k, rec[k], v)
		}
	}
	// Pos is where the text starts, after the opening quote.
	if b := rec["body"].(Text); b.Source != "see [x](ref:home)" || b.Pos.String() != "data.yaml:2:8" {
		t.Errorf("body = %+v", b)
	}
	if l := rec["href"].(Link); l.Target != "ref:home" || l.Pos.Line != 8 {
		t.Errorf("href = %+v", l)
	}
	if f := rec["cover"].(File); f.Path != "/img/a.png" {
		t.Errorf("cover = %+v", f)
	}
	// Left-out fields hold their kind's zero value, so templates never miss a key.
	rec, _ = decode(t, s, "post", "title: x\n")
	if len(rec) != 13 || rec["tags"].([]string) != nil || rec["body"].(Text).Source != "" || rec["rank"] != 0 || rec["author"].(Record) != nil {
		t.Errorf("zero values: %#v", rec)
	}
	if n, _ := decode(t, s, "post", "title: x\nviews: 2\n"); n["views"] != 2 {
		t.Errorf("a whole number is an int: %#v", n["views"])
	}
}

func TestDecodeErrors(t *testing.T) {
	s := mustParse(t, testSchema)
	tests := []struct{ name, src, want string }{
		{"missing required", "body: x\n", `data.yaml:1:1: post is missing required field "title"`},
		{"empty required", "title: \"\"\n", `data.yaml:1:8: field "title" of post must not be empty`},
		{"unknown field, did you mean", "title: x\ntitel: y\n", `data.yaml:2:1: unknown field "titel" in post (hint: did you mean "title"?)`},
		{"unknown field, known fields", "title: x\nzzzzzz: y\n", `data.yaml:2:1: unknown field "zzzzzz" in post (hint: known fields: title, body, views, rank, draft, date, tone, tags, href, file, cover, author, links)`},
		{"given twice", "title: x\ntitle: y\n", `data.yaml:2:1: field "title" is given twice`},
		{"text gets a list", "title: [a]\n", `data.yaml:1:8: field "title": expected text, got a list`},
		{"number", "title: x\nviews: many\n", `data.yaml:2:8: field "views": expected a number, got "many"`},
		{"integer", "title: x\nrank: 1.5\n", `data.yaml:2:7: field "rank": expected a whole number, got "1.5"`},
		{"bool", "title: x\ndraft: yes please\n", `data.yaml:2:8: field "draft": expected true or false, got "yes please"`},
		{"date", "title: x\ndate: 2.1.2026\n", `data.yaml:2:7: field "date": date "2.1.2026" must be YYYY-MM-DD or an RFC 3339 time`},
		{"enum", "title: x\ntone: acent\n", `data.yaml:2:7: field "tone": "acent" is not one of: plain, accent (hint: did you mean "accent"?)`},
		{"list item", "title: x\ntags: [a, [b]]\n", `data.yaml:2:11: field "tags[1]": expected text, got a list`},
		{"link spaces", "title: x\nhref: ' ref:home'\n", `data.yaml:2:7: field "href": link " ref:home" has surrounding spaces`},
		{"file path", "title: x\nfile: docs/a.pdf\n", `data.yaml:2:7: field "file": file path "docs/a.pdf" must start with / (a path under assets/static/)`},
		{"image kind", "title: x\ncover: /docs/a.pdf\n", `data.yaml:2:8: field "cover": /docs/a.pdf is not an image (.avif, .gif, .jpeg, .jpg, .png, .svg, .webp)`},
		{"nested record", "title: x\nauthor: {nam: Ala}\n", "data.yaml:2:9: person is missing required field \"name\"\ndata.yaml:2:10: unknown field \"nam\" in person (hint: did you mean \"name\"?)"},
		{"record gets text", "title: x\nauthor: Ala\n", `data.yaml:2:9: field "author": expected a person (a mapping), got "Ala"`},
		{"not a mapping", "[1]\n", `data.yaml:1:1: expected a post (a mapping), got a list`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, got := decode(t, s, "post", tt.src); got != tt.want {
				t.Errorf("got:\n%s\nwant:\n%s", got, tt.want)
			}
		})
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct{ name, src, want string }{
		{"unknown kind", "types:\n  a:\n    fields:\n      x: txet\n", `schema.yaml:4:10: unknown field kind "txet" (hint: did you mean "text"?)`},
		{"unknown type ref", "types:\n  a:\n    fields:\n      x: {kind: record, type: b}\n", `schema.yaml:4:10: field "x" of a refers to unknown type "b" (hint: did you mean "a"?)`},
		{"list without of", "types:\n  a:\n    fields:\n      x: list\n", `schema.yaml:4:10: field "x" of a is a list without of (hint: say what its items are: of: text, or of: {kind: record, type: name})`},
		{"enum without values", "types:\n  a:\n    fields:\n      x: enum\n", `schema.yaml:4:10: field "x" of a is an enum without values`},
		{"required with default", "types:\n  a:\n    fields:\n      x: {kind: text, required: true, default: y}\n", `schema.yaml:4:48: field "x" of a is required and has a default; drop one`},
		{"bad default", "types:\n  a:\n    fields:\n      x: {kind: integer, default: many}\n", `schema.yaml:4:35: field "x": expected a whole number, got "many"`},
		{"unknown field key", "types:\n  a:\n    fields:\n      x: {kind: text, requird: true}\n", `schema.yaml:4:23: unknown key "requird" in a field (hint: did you mean "required"?)`},
		{"unknown type key", "types:\n  a:\n    feilds:\n      x: text\n", "schema.yaml:2:3: type \"a\" declares no fields\nschema.yaml:3:5: unknown key \"feilds\" in type \"a\" (hint: did you mean \"fields\"?)"},
		{"unknown top key", "typs: {}\n", `schema.yaml:1:1: unknown key "typs" in the schema (hint: did you mean "types"?)`},
		{"duplicate type", "types:\n  a: {fields: {x: text}}\n  a: {fields: {x: text}}\n", `schema.yaml:3:3: type "a" is already declared (first declared at schema.yaml:2:3)`},
		{"no kind", "types:\n  a:\n    fields:\n      x: {required: true}\n", `schema.yaml:4:10: field has no kind (hint: one of: text, markdown, number, integer, bool, date, enum, list, record, link, file, image)`},
		{"syntax", "types:\n  a: [\n", `schema.yaml:3: YAML syntax error: did not find expected node content`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse("schema.yaml", []byte(tt.src))
			if err == nil {
				t.Fatal("parsed")
			}
			if got := strings.TrimSpace(err.Error()); got != tt.want {
				t.Errorf("got:\n%s\nwant:\n%s", got, tt.want)
			}
		})
	}
}

func TestJSONSchema(t *testing.T) {
	s := mustParse(t, testSchema)
	b, err := s.JSONSchema()
	if err != nil {
		t.Fatal(err)
	}
	b2, _ := s.JSONSchema()
	if string(b) != string(b2) {
		t.Error("JSON Schema output is not deterministic")
	}
	var doc struct {
		Definitions map[string]struct {
			Required   []string                   `json:"required"`
			Properties map[string]json.RawMessage `json:"properties"`
			AllOf      []any                      `json:"allOf"`
		} `json:"definitions"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	post := doc.Definitions["post"]
	if !reflect.DeepEqual(post.Required, []string{"title"}) || len(post.Properties) != 13 {
		t.Errorf("post = %+v", post)
	}
	for field, want := range map[string]string{
		"tone":   `{"default":"plain","enum":["plain","accent"]}`,
		"author": `{"$ref":"#/definitions/person"}`,
		"rank":   `{"type":"integer"}`,
		"title":  `{"description":"The headline.","type":["string","number","boolean"]}`,
	} {
		var v any
		json.Unmarshal(post.Properties[field], &v)
		got, _ := json.Marshal(v)
		if string(got) != want {
			t.Errorf("%s: %s, want %s", field, got, want)
		}
	}
	if n := len(doc.Definitions["dataSet"].AllOf); n != 2 {
		t.Errorf("dataSet has %d type cases, want 2", n)
	}
}

func TestParamsAndMerge(t *testing.T) {
	s := mustParse(t, `page:
  fields:
    eyebrow: text
    tone: {kind: enum, values: [dark, light], default: light}
sections:
  hero:
    fields:
      <<: &common
        tone: {kind: enum, values: [dark]}
        class: text
      tone: {kind: enum, values: [muted]}
      href: link
  cta:
    fields:
      <<: *common
`)
	if s.Page == nil || len(s.Sections) != 2 {
		t.Fatalf("page %v, sections %v", s.Page, s.Sections)
	}
	var names []string
	for _, f := range s.Sections["hero"].Fields {
		names = append(names, f.Name+":"+strings.Join(f.Values, ","))
	}
	if got := strings.Join(names, " "); got != "tone:muted class: href:" {
		t.Errorf("hero fields (a field written beside << overrides the merged one) = %s", got)
	}
	if n := len(s.Sections["cta"].Fields); n != 2 {
		t.Errorf("cta has %d fields, want the 2 merged ones", n)
	}
	var doc yaml.Node
	yaml.Unmarshal([]byte("eyebrow: Hi\n"), &doc)
	m, errs := s.DecodeParams("p.md", s.Page, doc.Content[0])
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	// Params hold what is given and defaults only, so {{ with .x }} still
	// tells a left-out param.
	if !reflect.DeepEqual(m, map[string]any{"eyebrow": "Hi", "tone": "light"}) {
		t.Errorf("params = %#v", m)
	}
}
