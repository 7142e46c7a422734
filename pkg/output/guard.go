package output

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"sitegen/pkg/sitefs"
)

// RefusedError is an output folder a build will not replace. It is a usage
// error: the command line named the wrong folder.
type RefusedError struct {
	Dir    string // --out as given
	Reason string
	Hint   string
}

func (e *RefusedError) Error() string {
	msg := fmt.Sprintf("refusing to write the output to %s: %s", e.Dir, e.Reason)
	if e.Hint != "" {
		msg += "; " + e.Hint
	}
	return msg
}

// SourceDirs are the folders of a site a build reads; no output goes there.
var SourceDirs = []string{"content", "templates", "assets"}

// Guard checks that out may be replaced by a build of the site at source:
// it is missing, an empty directory, or a tree sitegen wrote (it carries the
// manifest). Whatever it holds, it is never the file system root, the
// user's home or a folder holding it, the site source or a folder holding
// it, or a regular file; inside the source it must be a sitegen tree or a
// new folder outside content/, templates/, assets/ and hidden folders. Paths
// are compared after resolving symbolic links.
func Guard(source, out string) error {
	return guard(source, out, true, nil)
}

// GuardLast is Guard for a build that read the output's index with
// ReadLast: it is not read again while it stays the same.
func GuardLast(source, out string, last *Last) error {
	return guard(source, out, true, last)
}

// guard is Guard; without foreign it does not look for files sitegen did
// not write in a marked tree (the caller has just checked the tree whole).
func guard(source, out string, foreign bool, last *Last) error {
	if source == "" {
		source = "."
	}
	refuse := func(reason, hint string) error { return &RefusedError{Dir: out, Reason: reason, Hint: hint} }
	src, err := resolve(source)
	if err != nil {
		return fmt.Errorf("site source %s: %w", source, err)
	}
	dst, err := resolve(out)
	if err != nil {
		return fmt.Errorf("output directory %s: %w", out, err)
	}
	if dst == filepath.Dir(dst) {
		return refuse("it is the root of the file system", "choose a new folder such as public")
	}
	if home, err := os.UserHomeDir(); err == nil && home != "" {
		if h, err := resolve(home); err == nil && within(dst, h) {
			what := "it is your home folder"
			if h != dst {
				what = "it holds your home folder " + h
			}
			return refuse(what, "choose a new folder such as public")
		}
	}
	if within(dst, src) {
		what := "it is the site source"
		if src != dst {
			what = "it holds the site source " + src
		}
		return refuse(what, "choose a new folder such as public")
	}
	st, err := os.Lstat(out)
	exists := err == nil
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("output directory %s: %w", out, err)
	}
	if exists {
		switch {
		case st.Mode()&fs.ModeSymlink != 0:
			return refuse("it is a symbolic link to "+dst, "pass the folder itself")
		case !st.IsDir():
			return refuse(fmt.Sprintf("it is not a folder (%s)", sitefs.Kind(st.Mode())), "choose a new folder such as public")
		}
	}
	marked := exists && Marked(out)
	if marked && foreign {
		// A tree sitegen wrote, with files someone added since: those would
		// be lost.
		if extra := foreignFiles(out, last); len(extra) > 0 {
			return refuse("it is a sitegen output, but holds files sitegen did not write: "+few(extra),
				"move them into assets/static/ (copied into every build) or remove them")
		}
	}
	if within(src, dst) {
		rel, _ := filepath.Rel(src, dst)
		first := strings.Split(rel, string(filepath.Separator))[0]
		for _, d := range SourceDirs {
			if first == d {
				return refuse("it is inside the site's "+d+"/ folder", "choose a folder outside content/, templates/ and assets/, such as public")
			}
		}
		if strings.HasPrefix(first, ".") {
			return refuse("it is inside the hidden folder "+first+" of the site", "choose a new folder such as public")
		}
		if exists && !marked {
			return refuse("it is a folder of the site that sitegen did not write"+listing(out),
				"choose a new folder such as public, or remove it yourself first")
		}
		return nil
	}
	if !exists || marked {
		return nil
	}
	if l := listing(out); l != "" {
		return refuse("it is not empty and sitegen did not write it (no "+ManifestName+")"+l,
			"choose an empty or new folder; if an older sitegen wrote it, remove it once yourself")
	}
	return nil
}

// listing names a few entries of dir (", holding a, b, c and 4 more"), or
// returns "" for an empty directory.
func listing(dir string) string {
	ents, err := os.ReadDir(dir)
	if err != nil || len(ents) == 0 {
		return ""
	}
	names := make([]string, 0, len(ents))
	for _, e := range ents {
		n := e.Name()
		if e.IsDir() {
			n += "/"
		}
		names = append(names, n)
	}
	sort.Strings(names)
	return ": it holds " + few(names)
}

// foreignFiles lists the files (anything but folders) below dir that its
// manifest does not name, sorted; last is passed to indexed.
func foreignFiles(dir string, last *Last) []string {
	if indexed(dir, last) { // unchanged since sitegen wrote it: no walk
		return nil
	}
	m, err := ReadManifest(dir)
	if err != nil {
		return nil
	}
	listed := make(map[string]bool, len(m.Files)+1)
	for _, f := range m.Files {
		listed[f] = true
	}
	listed[ManifestName] = true
	var extra []string
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		rel, _ := filepath.Rel(dir, p)
		if rel = filepath.ToSlash(rel); !listed[rel] {
			extra = append(extra, rel)
		}
		return nil
	})
	sort.Strings(extra)
	return extra
}

// few joins the first names of a list: "a, b, c and 4 more".
func few(names []string) string {
	const show = 5
	s := strings.Join(names[:min(show, len(names))], ", ")
	if len(names) > show {
		s += fmt.Sprintf(" and %d more", len(names)-show)
	}
	return s
}

// within reports whether p is dir or below it (both clean and absolute).
func within(dir, p string) bool {
	if dir == p {
		return true
	}
	if !strings.HasSuffix(dir, string(filepath.Separator)) {
		dir += string(filepath.Separator)
	}
	return strings.HasPrefix(p, dir)
}

// resolve makes p absolute with every symbolic link of its existing part
// resolved; the missing tail is kept as written.
func resolve(p string) (string, error) {
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", err
	}
	var tail []string
	cur := abs
	for {
		r, err := filepath.EvalSymlinks(cur)
		if err == nil {
			return filepath.Join(append([]string{r}, tail...)...), nil
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return "", err
		}
		parent := filepath.Dir(cur)
		if parent == cur {
			return abs, nil
		}
		tail = append([]string{filepath.Base(cur)}, tail...)
		cur = parent
	}
}
