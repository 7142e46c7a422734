package output

import (
	"strings"

	"sitegen/pkg/route"
)

// RedirectTable is the route plan's redirects as the dev server looks them
// up: the source path without its trailing slash -> target. It is the same
// list _redirects and the nginx snippet carry, taken from the plan, not
// re-read from a file.
func RedirectTable(rs []route.Redirect) map[string]string {
	out := make(map[string]string, len(rs))
	for _, r := range rs {
		out[strings.TrimSuffix(r.From, "/")] = r.To
	}
	return out
}
