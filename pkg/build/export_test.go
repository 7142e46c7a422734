package build

import (
	"testing"
	"time"
)

// ClockAhead sets a build's clock ahead by d: every file is older than the
// two-second rule when the build reads it (the differential test's runs
// with the clock ahead).
func ClockAhead(o *Options, d time.Duration) {
	o.now = func() time.Time { return time.Now().Add(d) }
}

// must fails the test on an error; Must is it for the package's external
// tests (the differential test).
func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

var Must = must
