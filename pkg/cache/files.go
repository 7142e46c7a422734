package cache

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"syscall"
	"time"
)

// The cache touches only files it wrote: segments named by segName (and
// the "-m" of a merge), and its temporary files named by os.CreateTemp.
// Anything else in the folder (a user's seg-x.sgc, a named pipe, a link)
// is never opened, merged or removed.
var (
	segRE  = regexp.MustCompile(`^seg-\d{20}-\d+(-m)*\.sgc$`)
	tempRE = regexp.MustCompile(`^\.(tmp|merge)-\d+$`)
)

// segments lists the segment files of dir, oldest first (their names sort
// by the time they were closed).
func segments(dir string) ([]string, error) {
	return ownFiles(dir, segRE)
}

// ownFiles lists the regular files of dir (links not followed) whose names
// match re, sorted.
func ownFiles(dir string, re *regexp.Regexp) ([]string, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var names []string
	for _, e := range ents {
		if e.Type().IsRegular() && re.MatchString(e.Name()) {
			names = append(names, filepath.Join(dir, e.Name()))
		}
	}
	sort.Strings(names)
	return names, nil
}

// openRegular opens name for reading without blocking on a named pipe or
// device put there since the folder was listed, and refuses anything but
// a regular file.
func openRegular(name string) (*os.File, error) {
	f, err := os.OpenFile(name, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() {
		f.Close()
		return nil, fmt.Errorf("%s is not a regular file", name)
	}
	return f, nil
}

// createTemp makes a temporary file of the store in dir, locked for as
// long as it is open, so that another build can tell it from one a killed
// build left.
func createTemp(dir, pattern string) (*os.File, error) {
	f, err := os.CreateTemp(dir, pattern)
	if err != nil {
		return nil, err
	}
	lockFile(f)
	return f, nil
}

// youngTemp is how recent a temporary file may be and still be left alone
// although nobody holds its lock (its build may be about to take it).
const youngTemp = 10 * time.Second

// removeAbandoned removes the temporary files of builds that were killed:
// those nobody holds locked (where locks exist; elsewhere, those older than
// abandonedAge). Their age is the only use of a modification time here: it
// never decides what an entry holds.
func removeAbandoned(dir string) {
	names, _ := ownFiles(dir, tempRE)
	for _, name := range names {
		st, err := os.Lstat(name)
		if err != nil || time.Since(st.ModTime()) < youngTemp {
			continue
		}
		if abandoned(name, st.ModTime()) {
			os.Remove(name)
		}
	}
}
