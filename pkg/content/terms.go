package content

import (
	"fmt"
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"
	"gopkg.in/yaml.v3"

	"sitegen/pkg/diag"
	"sitegen/pkg/yamlx"
)

// Terms are a page's terms, per taxonomy, as front matter lists them:
//
//	terms:
//	  tags: [Go, warm builds]
//
// Which taxonomies exist is site.yaml's (the route plan checks the names).
type Terms []TaxonomyTerms

// TaxonomyTerms are the terms a page lists under one taxonomy.
type TaxonomyTerms struct {
	Taxonomy string
	Pos      diag.Pos // of the taxonomy's key
	Terms    []Term
}

// Term is one term as written, with its position.
type Term struct {
	Name string
	Pos  diag.Pos
}

// DecodeNode implements yamlx.NodeDecoder.
func (t *Terms) DecodeNode(file string, n *yaml.Node) error {
	n = yamlx.Resolve(n)
	if n.Kind != yaml.MappingNode {
		return fmt.Errorf("terms must be a mapping of taxonomy names to lists of terms, like {tags: [go, builds]}")
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], yamlx.Resolve(n.Content[i+1])
		tt := TaxonomyTerms{Taxonomy: k.Value, Pos: yamlx.Pos(file, k)}
		switch v.Kind {
		case yaml.SequenceNode:
		case yaml.ScalarNode:
			if v.Tag == "!!null" {
				*t = append(*t, tt)
				continue
			}
			return fmt.Errorf("terms: %s: write the terms as a list, like [%s]", k.Value, v.Value)
		default:
			return fmt.Errorf("terms: %s must be a list of terms", k.Value)
		}
		seen := map[string]bool{}
		for _, item := range v.Content {
			item = yamlx.Resolve(item)
			if item.Kind != yaml.ScalarNode || strings.TrimSpace(item.Value) == "" {
				return fmt.Errorf("terms: %s: a term is a non-empty text", k.Value)
			}
			name := norm.NFC.String(strings.TrimSpace(item.Value))
			if seen[name] {
				continue
			}
			seen[name] = true
			tt.Terms = append(tt.Terms, Term{Name: name, Pos: yamlx.Pos(file, item)})
		}
		*t = append(*t, tt)
	}
	return nil
}

// Of returns the terms listed under taxonomy.
func (t Terms) Of(taxonomy string) []Term {
	for _, tt := range t {
		if tt.Taxonomy == taxonomy {
			return tt.Terms
		}
	}
	return nil
}

// Slugify makes the slug of a term, by the rule every slug follows
// (SlugRule): Unicode NFC, lower case where the script has case, any
// letter where it has none; a run of anything else (spaces, punctuation)
// becomes one '-', and none is left at either end. ok is false when
// nothing of name is left ("++").
func Slugify(name string) (slug string, ok bool) {
	var b strings.Builder
	dash := false
	for _, r := range norm.NFC.String(strings.ToLower(name)) {
		switch {
		case slugLetter(r) || (b.Len() > 0 && unicode.Is(unicode.M, r)):
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			dash = false
			b.WriteRune(r)
		default:
			dash = true
		}
	}
	s := norm.NFC.String(b.String())
	return s, s != "" && slugProblem(s) == ""
}

// SlugProblem says why s is not a slug by SlugRule, or "" when it is one.
func SlugProblem(s string) string { return slugProblem(s) }
