package devsession

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRefusedUpdateRendersLater: an update to files a build refuses (a
// data file failing its schema, and a template error only a render finds)
// answers with the errors found without rendering any page, the last good
// site's pages are served meanwhile, and the pages of the refused site
// then render one at a time (CheckNext) until Problems has every error the
// build reports; fixing the files serves the new site.
func TestRefusedUpdateRendersLater(t *testing.T) {
	dir, d := devFixture(t)
	ctx := context.Background()
	good, err := d.File(ctx, "pl/index.html")
	if err != nil {
		t.Fatal(err)
	}
	data := filepath.Join(dir, "content/pl/data/home.yaml")
	layout := filepath.Join(dir, "templates/layouts/error.html")
	dataWas, layoutWas := readFile(t, data), readFile(t, layout)
	writeFile(t, data, strings.Replace(dataWas, `text: "pytań z poprawną odpowiedzią"`, `txt: "x"`, 1))
	writeFile(t, layout, strings.Replace(layoutWas, "<h1>", `<h1>{{ ref "no-such-page" }}`, 1))
	paths := []string{"content/pl/data/home.yaml", "templates/layouts/error.html"}
	_, err = d.Update(ctx, paths)
	if err == nil || !strings.Contains(err.Error(), "content/pl/data/home.yaml") || strings.Contains(err.Error(), "no-such-page") {
		t.Fatalf("the update's error: %v; want the data file's, without the template's", err)
	}
	if n := len(d.refused.pages); n != 0 {
		t.Fatalf("the refused update rendered %d pages before it answered", n)
	}
	if b, err := d.File(ctx, "pl/index.html"); err != nil || !bytes.Equal(b, good) {
		t.Fatalf("the last good site's page while the update is refused: %v", err)
	}
	rendered := 0
	for {
		ok, _ := d.CheckNext(ctx)
		if !ok {
			break
		}
		rendered++
	}
	probs := d.Problems().Err()
	if rendered != len(d.refused.entries) || probs == nil || !strings.Contains(probs.Error(), "content/pl/data/home.yaml") || !strings.Contains(probs.Error(), `ref "no-such-page"`) {
		t.Fatalf("after %d of %d pages rendered, Problems: %v", rendered, len(d.refused.entries), probs)
	}
	writeFile(t, data, dataWas)
	writeFile(t, layout, layoutWas)
	if _, err := d.Update(ctx, paths); err != nil {
		t.Fatalf("after the fix: %v", err)
	}
	if d.refused != nil || len(d.Problems()) != 0 {
		t.Fatalf("after the fix: refused %v, problems %v", d.refused != nil, d.Problems())
	}
}

func readFile(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func writeFile(t *testing.T, p, s string) {
	t.Helper()
	if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}
