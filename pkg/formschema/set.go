package formschema

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"

	"sitegen/pkg/forms"
)

// Set is the schemas of every form a site declares, in name order.
type Set []*forms.Schema

// BuildAll makes the schema of every form in site.yaml's forms: that has
// its data set.
func BuildAll(in SiteInput) (Set, error) {
	var set Set
	var errs []error
	for _, name := range in.Config.FormNames() {
		s, err := Build(in, name)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if s != nil {
			set = append(set, s)
		}
	}
	return set, errors.Join(errs...)
}

// Files returns each schema file of the output (forms.SchemaFile) with its
// bytes.
func (set Set) Files() (map[string][]byte, error) {
	files := make(map[string][]byte, len(set))
	for _, s := range set {
		b, err := s.Marshal()
		if err != nil {
			return nil, fmt.Errorf("form %s: %w", s.Form, err)
		}
		files[forms.SchemaFile(s.Form)] = b
	}
	return files, nil
}

// Digest names the set's exact content: a page whose forms matched a set of
// the same digest need not be checked again. It is "" for no forms.
func (set Set) Digest() (string, error) {
	if len(set) == 0 {
		return "", nil
	}
	h := sha256.New()
	for _, s := range set {
		b, err := s.Marshal()
		if err != nil {
			return "", fmt.Errorf("form %s: %w", s.Form, err)
		}
		h.Write(b)
	}
	return hex.EncodeToString(h.Sum(nil)[:16]), nil
}

// HasForm reports whether a page holds any of the forms.
func (set Set) HasForm(page []byte) bool {
	for _, s := range set {
		if s.HasForm(page) {
			return true
		}
	}
	return false
}

// CheckPage checks every form of the set that a page (of locale lang)
// holds against its schema; each error names the schema file.
func (set Set) CheckPage(page []byte, lang string) error {
	var errs []error
	for _, fe := range set.CheckPageForms(page, lang) {
		errs = append(errs, fe)
	}
	return errors.Join(errs...)
}

// FormError is a form of a page that disagrees with its schema.
type FormError struct {
	ID  string // the <form> element's id
	Err error
}

func (e FormError) Error() string { return e.Err.Error() }
func (e FormError) Unwrap() error { return e.Err }

// CheckPageForms is CheckPage, one error per form that disagrees.
func (set Set) CheckPageForms(page []byte, lang string) []FormError {
	var errs []FormError
	for _, s := range set {
		if !s.HasForm(page) {
			continue
		}
		if err := s.CheckMarkup(page, lang); err != nil {
			errs = append(errs, FormError{ID: s.ID, Err: fmt.Errorf("the form %q and the handler schema %s disagree: %w", s.ID, forms.SchemaFile(s.Form), err)})
		}
	}
	return errs
}
