package islands

import (
	"bytes"
	"encoding/json"
	"strings"
)

// escapeJSON makes JSON safe inside <script type="application/json">: '<',
// '>' and '&' become \u003c, \u003e and \u0026 (so "</script>" and "<!--"
// cannot appear), and U+2028/U+2029 become \u2028/\u2029. The result is
// still the same JSON value.
func escapeJSON(js []byte) string {
	var buf bytes.Buffer
	json.HTMLEscape(&buf, js)
	return buf.String()
}

func compactJSON(w *strings.Builder, js []byte) error {
	var buf bytes.Buffer
	if err := json.Compact(&buf, js); err != nil {
		return err
	}
	w.Write(buf.Bytes())
	return nil
}
