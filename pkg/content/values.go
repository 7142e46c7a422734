package content

import "sitegen/pkg/schema"

// The value types of decoded records live in pkg/schema; these names keep
// the content vocabulary in one place for the stages after loading.
type (
	// Text is text that may hold inline Markdown (kind markdown).
	Text = schema.Text
	// Link is a link target, resolved per locale (kind link).
	Link = schema.Link
	// File is a site path of a static file (kinds file and image).
	File = schema.File
	// Record is one decoded record, by field name.
	Record = schema.Record
)
