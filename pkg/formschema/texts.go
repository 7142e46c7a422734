package formschema

import (
	"sitegen/pkg/forms"
	"sitegen/pkg/i18n"
)

// The keys of the UI strings the form handler's own page and answers use
// (docs/forms.md, "The handler's texts"). A site sets any of them in
// content/<lang>/i18n.yaml; the engine's own words (Defaults) fill in the
// rest.
const (
	KeyErrorsHeading = "form_errors_heading" // above the list of fields to correct
	KeyUnavailable   = "form_msg_unavailable"
	KeyHoneypot      = "form_honeypot_label" // label of the hidden trap input
	KeyBack          = "form_back_home"      // link back to the locale's home page
)

// MessageKeys maps each error code to the key of its message; tooLong's
// message may hold {max}.
var MessageKeys = map[string]string{
	forms.CodeRequired: "form_msg_required",
	forms.CodeEmail:    "form_msg_email",
	forms.CodePhone:    "form_msg_phone",
	forms.CodeConsent:  "form_msg_consent",
	forms.CodeTooLong:  "form_msg_too_long",
	forms.CodeInvalid:  "form_msg_invalid",
}

// DefaultLang is the locale whose defaults stand in for a locale the
// engine has no words of.
const DefaultLang = "en"

// Defaults are the engine's own words for the handler's texts, per
// locale.
var Defaults = map[string]map[string]string{
	"en": {
		"form_msg_required": "Please fill in this field.",
		"form_msg_email":    "Please enter a valid email address.",
		"form_msg_phone":    "Please enter a valid phone number.",
		"form_msg_consent":  "This consent is required to send the form.",
		"form_msg_too_long": "Please use at most {max} characters.",
		"form_msg_invalid":  "Please remove the characters that are not allowed.",
		KeyErrorsHeading:    "Please correct the marked fields",
		KeyUnavailable:      "The form could not be sent. Please try again later.",
		KeyHoneypot:         "Leave this field empty",
		KeyBack:             "Back to the home page",
	},
	"pl": {
		"form_msg_required": "Wypełnij to pole.",
		"form_msg_email":    "Wpisz poprawny adres e-mail.",
		"form_msg_phone":    "Wpisz poprawny numer telefonu.",
		"form_msg_consent":  "Ta zgoda jest potrzebna do wysłania formularza.",
		"form_msg_too_long": "Wpisz nie więcej niż {max} znaków.",
		"form_msg_invalid":  "Usuń niedozwolone znaki.",
		KeyErrorsHeading:    "Popraw zaznaczone pola",
		KeyUnavailable:      "Nie udało się wysłać formularza. Spróbuj ponownie później.",
		KeyHoneypot:         "Zostaw to pole puste",
		KeyBack:             "Wróć na stronę główną",
	},
	"de": {
		"form_msg_required": "Bitte füllen Sie dieses Feld aus.",
		"form_msg_email":    "Bitte geben Sie eine gültige E-Mail-Adresse ein.",
		"form_msg_phone":    "Bitte geben Sie eine gültige Telefonnummer ein.",
		"form_msg_consent":  "Diese Einwilligung ist zum Senden des Formulars nötig.",
		"form_msg_too_long": "Bitte höchstens {max} Zeichen.",
		"form_msg_invalid":  "Bitte entfernen Sie die unzulässigen Zeichen.",
		KeyErrorsHeading:    "Bitte korrigieren Sie die markierten Felder",
		KeyUnavailable:      "Das Formular konnte nicht gesendet werden. Bitte versuchen Sie es später erneut.",
		KeyHoneypot:         "Dieses Feld bitte leer lassen",
		KeyBack:             "Zurück zur Startseite",
	},
}

// text returns the handler's text key in lang: the site's string of that
// locale, else the engine's words in lang, else in DefaultLang.
func text(c *i18n.Catalog, lang, key string) string {
	if s, ok := c.Own(lang, key); ok {
		return s
	}
	if s, ok := Defaults[lang][key]; ok {
		return s
	}
	return Defaults[DefaultLang][key]
}
