package formschema

import (
	"strings"
	"testing"

	"sitegen/pkg/content"
)

// TestDefinitionOf: the handler reads its form from the site's record, and
// a site whose form type lacks what the handler relies on is told exactly
// which fields to declare.
func TestDefinitionOf(t *testing.T) {
	rec := content.Record{
		"title": "Demo", "submit": "Send", "clause": content.Text{Source: "We process."}, "clauseVersion": "c1",
		"fields":   []content.Record{{"name": "email", "label": "E-mail", "type": "email", "required": true, "maxLength": 120}},
		"consents": []content.Record{{"name": "terms", "text": content.Text{Source: "I agree."}, "version": "t1", "required": true}},
	}
	d, err := definitionOf(rec)
	if err != nil {
		t.Fatal(err)
	}
	if d.Fields[0].MaxLength != 120 || !d.Consents[0].Required || d.ClauseVersion != "c1" {
		t.Errorf("definition = %+v", d)
	}
	delete(rec, "clauseVersion")
	rec["consents"] = []content.Record{{"name": "terms", "text": "not markdown", "required": true}}
	_, err = definitionOf(rec)
	if err == nil {
		t.Fatal("a form record without clauseVersion and consent versions was accepted")
	}
	for _, want := range []string{"clauseVersion (text)", "consents[].version (text)", "consents[].text as markdown", "(schema.yaml)"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error lacks %q: %v", want, err)
		}
	}
}
