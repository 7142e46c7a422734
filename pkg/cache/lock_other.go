//go:build !unix

package cache

import (
	"os"
	"time"
)

func lockFile(*os.File) {}

// abandoned: without file locks, a temporary file a day old is taken for
// one a killed build left (a running build's is minutes old at most).
func abandoned(_ string, mod time.Time) bool { return time.Since(mod) > 24*time.Hour }
