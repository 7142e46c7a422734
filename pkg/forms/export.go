package forms

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
	"time"
)

// NeutralizeCell makes a CSV cell safe to open in a spreadsheet: a cell that
// begins with = + - @, a tab or a carriage return would be read as a
// formula, so it gets a leading apostrophe.
func NeutralizeCell(s string) string {
	if s != "" && strings.ContainsRune("=+-@\t\r", rune(s[0])) {
		return "'" + s
	}
	return s
}

// WriteCSV writes records as CSV: one row per submission, the fields in
// schema order (or sorted when there is no schema), then one column per
// consent.
func WriteCSV(w io.Writer, recs []Record, fieldOrder []string) error {
	fields := fieldOrder
	if len(fields) == 0 {
		seen := map[string]bool{}
		for _, r := range recs {
			for k := range r.Values {
				if !seen[k] {
					seen[k] = true
					fields = append(fields, k)
				}
			}
		}
		sort.Strings(fields)
	}
	var consents []string
	seen := map[string]bool{}
	for _, r := range recs {
		for _, c := range r.Consents {
			if !seen[c.Type] {
				seen[c.Type] = true
				consents = append(consents, c.Type)
			}
		}
	}
	cw := csv.NewWriter(w)
	head := []string{"id", "created_at", "lang", "source_page"}
	head = append(head, fields...)
	for _, c := range consents {
		head = append(head, "consent_"+c, "consent_"+c+"_version", "consent_"+c+"_sha256")
	}
	head = append(head, "clause_version", "spam")
	if err := cw.Write(head); err != nil {
		return err
	}
	for _, r := range recs {
		row := []string{r.ID, r.CreatedAt.UTC().Format(time.RFC3339), r.Lang, r.Page}
		for _, f := range fields {
			row = append(row, r.Values[f])
		}
		clause := ""
		for _, name := range consents {
			var c *StoredConsent
			for i := range r.Consents {
				if r.Consents[i].Type == name {
					c = &r.Consents[i]
				}
			}
			if c == nil {
				row = append(row, "", "", "")
				continue
			}
			clause = c.ClauseVersion
			row = append(row, strconv.FormatBool(c.Granted), c.Version, c.TextHash)
		}
		row = append(row, clause, r.Spam)
		for i := range row {
			row[i] = NeutralizeCell(row[i])
		}
		if err := cw.Write(row); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// WriteJSON writes records as a JSON array.
func WriteJSON(w io.Writer, recs []Record) error {
	if recs == nil {
		recs = []Record{}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(recs)
}

// ParseAge parses an age such as 730d, 12h or 90m.
func ParseAge(s string) (time.Duration, error) {
	if d, ok := strings.CutSuffix(s, "d"); ok {
		n, err := strconv.Atoi(d)
		if err != nil || n <= 0 {
			return 0, fmt.Errorf("%q: want a positive number of days such as 730d", s)
		}
		return time.Duration(n) * 24 * time.Hour, nil
	}
	d, err := time.ParseDuration(s)
	if err != nil || d <= 0 {
		return 0, fmt.Errorf("%q: want an age such as 730d or 48h", s)
	}
	return d, nil
}

// ParseSince parses --since: an RFC 3339 time, a date (YYYY-MM-DD, UTC) or
// an age (730d, 48h) before now.
func ParseSince(s string, now time.Time) (time.Time, error) {
	if t, err := time.Parse(time.RFC3339, s); err == nil {
		return t, nil
	}
	if t, err := time.Parse("2006-01-02", s); err == nil {
		return t, nil
	}
	d, err := ParseAge(s)
	if err != nil {
		return time.Time{}, fmt.Errorf("--since %q: want a date (2026-01-31), an RFC 3339 time or an age (30d)", s)
	}
	return now.Add(-d), nil
}
