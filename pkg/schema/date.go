package schema

import (
	"fmt"
	"regexp"
	"strings"
	"time"
)

// dateRE is the form of a date: YYYY-MM-DD or an RFC 3339 time (seconds
// optional). The JSON Schema for editors carries it as a pattern.
var dateRE = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2})?(\.\d+)?(Z|[+-]\d{2}:\d{2}))?$`)

// CheckDate returns nil when s is a date of the calendar (YYYY-MM-DD) or an
// RFC 3339 time (seconds optional) that exists: 2026-02-30 and 24:00 do not.
// It is the one rule for dates in front matter and data.
func CheckDate(s string) error {
	if !dateRE.MatchString(s) {
		return fmt.Errorf("date %q must be YYYY-MM-DD or an RFC 3339 time", s)
	}
	day, clock, timed := strings.Cut(s, "T")
	if _, err := time.Parse(time.DateOnly, day); err != nil {
		return fmt.Errorf("date %q is not a day of the calendar", s)
	}
	if timed {
		if len(clock) >= 5 && (len(clock) == 5 || clock[5] != ':') {
			clock = clock[:5] + ":00" + clock[5:] // seconds are optional
		}
		if _, err := time.Parse(time.RFC3339Nano, day+"T"+clock); err != nil {
			return fmt.Errorf("date %q is not a time of the day", s)
		}
	}
	return nil
}
