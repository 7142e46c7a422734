// html-validate configuration for the built site (sitetest/validate_test.go
// runs it over every page; expected: 0 errors).
//
// The recommended preset, minus the rules that only judge how correct HTML
// is spelled, not whether it is correct:
//   no-trailing-whitespace  spaces at line ends (template indentation); no effect on the document.
//   doctype-style           <!doctype html> vs <!DOCTYPE html>: the doctype is case-insensitive.
//   void-style              <input/> vs <input>: both are valid HTML; Preact's server renderer
//                           writes the self-closing form in islands.
// and one rule relaxed to what HTML requires:
//   valid-id                ids must be non-empty and without whitespace (HTML); the strict mode
//                           also wants them to start with a letter, a convention for CSS
//                           selectors. Heading anchors such as "1-what-cookies-are" are valid HTML.
export default {
  extends: ["html-validate:recommended"],
  rules: {
    "no-trailing-whitespace": "off",
    "doctype-style": "off",
    "void-style": "off",
    "valid-id": ["error", { relaxed: true }],
  },
};
