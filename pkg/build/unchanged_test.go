package build

import (
	"context"
	"encoding/binary"
	"path/filepath"
	"testing"
	"time"
)

// notesAt returns notes as if taken by a build that began at t.
func notesAt(t *testing.T, notes []byte, at time.Time) []byte {
	t.Helper()
	known, _ := decodeNotes(notes)
	if len(known) == 0 {
		t.Fatal("no notes")
	}
	b := binary.AppendVarint(nil, at.UnixNano())
	for rel, n := range known {
		b = appendNote(b, rel, n.id, n.sum)
	}
	return b
}

// TestInputDigestNotes checks that the digest of a site's inputs takes a
// file's SHA-256 from the last build's notes only while its lstat is the
// same, and never for a file changed within two seconds before that build
// began.
func TestInputDigestNotes(t *testing.T) {
	src := fixtureCopy(t)
	opts := Options{Source: src, Date: "2026-01-01"}
	ctx := context.Background()
	fresh := func() string {
		t.Helper()
		d, _, err := inputDigest(ctx, opts, nil, nil, time.Now())
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	d0, notes, err := inputDigest(ctx, opts, nil, nil, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	// A note that lies about a file's bytes shows whether notes are used.
	known, _ := decodeNotes(notes)
	page := "content/pl/kontakt.md"
	n := known[page]
	n.sum[0] ^= 1
	known[page] = n
	lying := binary.AppendVarint(nil, time.Now().Add(time.Hour).UnixNano())
	for rel, n := range known {
		lying = appendNote(lying, rel, n.id, n.sum)
	}
	if d, _, _ := inputDigest(ctx, opts, lying, nil, time.Now()); d == d0 {
		t.Fatal("the notes of an old enough build were not used")
	}
	recent := notesAt(t, lying, time.Now().Add(-time.Second))
	if d, _, _ := inputDigest(ctx, opts, recent, nil, time.Now()); d != d0 {
		t.Error("a note taken within two seconds of the file's change was trusted")
	}
	// The file changes: its lstat no longer matches the note.
	replaceIn(t, filepath.Join(src, page), "Pisz na", "Napisz na")
	if d, _, _ := inputDigest(ctx, opts, notesAt(t, notes, time.Now().Add(time.Hour)), nil, time.Now()); d != fresh() || d == d0 {
		t.Error("a changed file was taken from the notes")
	}
	// The sums of the pages the build read stand for reading them again,
	// unless the page changed within two seconds before the build began.
	wrong := map[string][32]byte{page: {1}}
	if d, _, _ := inputDigest(ctx, opts, nil, wrong, time.Now().Add(time.Hour)); d == fresh() {
		t.Error("the sums of the pages the build read were not used")
	}
	if d, _, _ := inputDigest(ctx, opts, nil, wrong, time.Now()); d != fresh() {
		t.Error("the sum of a page changed as the build began was trusted")
	}
	before := fresh()
	opts.BaseURL = "https://other.example"
	if fresh() == before {
		t.Error("the options are not part of the digest")
	}
}
