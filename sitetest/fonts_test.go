package sitetest

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// fallbackMetrics is tools/fonts/fallback-metrics.json, written by
// tools/fonts/fallback.py from the font files.
type fallbackMetrics struct {
	Families map[string]map[string]struct {
		Weights         string
		Local           []string
		SizeAdjust      float64
		AscentOverride  float64
		DescentOverride float64
		LineGapOverride float64
	}
	Inputs map[string]string // file -> sha256 (repository files by path, system fonts by name)
}

// TestFontFallbackMetrics: every web font family in assets/css/fonts.css
// has metric-matched local fallback faces, computed from the font files
// (the swap from fallback to web font once shifted the contact page by
// 0.04, bench/lighthouse). The faces in fonts.css carry exactly the numbers
// tools/fonts/fallback.py computed, from the font files that are in
// assets/fonts now (by hash: a font changed without the script run again
// fails), and every font stack names the fallback right after its web font.
func TestFontFallbackMetrics(t *testing.T) {
	b, err := os.ReadFile("../tools/fonts/fallback-metrics.json")
	if err != nil {
		t.Fatal(err)
	}
	var m fallbackMetrics
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("tools/fonts/fallback-metrics.json: %v", err)
	}
	for file, want := range m.Inputs {
		if !strings.HasPrefix(file, "assets/") {
			continue // a system font (Liberation Sans): not in the repository
		}
		data, err := os.ReadFile(filepath.Join("..", file))
		if err != nil {
			t.Errorf("fallback-metrics.json was computed from %s: %v", file, err)
			continue
		}
		if sum := sha256.Sum256(data); hex.EncodeToString(sum[:]) != want {
			t.Errorf("%s changed since fallback-metrics.json was computed: run /usr/bin/python3 tools/fonts/fallback.py and update assets/css/fonts.css", file)
		}
	}

	cssBytes, err := os.ReadFile("../assets/css/fonts.css")
	if err != nil {
		t.Fatal(err)
	}
	css := regexp.MustCompile(`(?s)/\*.*?\*/`).ReplaceAllString(string(cssBytes), "")
	faces := map[string][]map[string]string{} // family -> declarations of each face
	for _, f := range regexp.MustCompile(`(?s)@font-face\s*\{(.*?)\}`).FindAllStringSubmatch(css, -1) {
		decl := map[string]string{}
		for _, d := range strings.Split(f[1], ";") {
			if k, v, ok := strings.Cut(d, ":"); ok {
				decl[strings.TrimSpace(k)] = strings.TrimSpace(v)
			}
		}
		fam := strings.Trim(decl["font-family"], `"'`)
		faces[fam] = append(faces[fam], decl)
	}
	tokens, err := os.ReadFile("../assets/css/tokens.css")
	if err != nil {
		t.Fatal(err)
	}
	webFamilies := 0
	for fam := range faces {
		base, ok := strings.CutSuffix(fam, " Variable")
		if !ok {
			continue
		}
		webFamilies++
		want, ok := m.Families[base]
		if !ok {
			t.Errorf("web font %q has no fallback metrics in tools/fonts/fallback-metrics.json (add it to FAMILIES in tools/fonts/fallback.py)", fam)
			continue
		}
		got := faces[base+" Fallback"]
		if len(got) != len(want) {
			t.Errorf("fonts.css: %d @font-face for %q, fallback-metrics.json has %d faces", len(got), base+" Fallback", len(want))
		}
		for name, w := range want {
			var face map[string]string
			for _, g := range got {
				if g["font-weight"] == w.Weights {
					face = g
				}
			}
			if face == nil {
				t.Errorf("fonts.css: no %q face with font-weight %s (the %s face)", base+" Fallback", w.Weights, name)
				continue
			}
			for prop, v := range map[string]float64{"size-adjust": w.SizeAdjust, "ascent-override": w.AscentOverride, "descent-override": w.DescentOverride, "line-gap-override": w.LineGapOverride} {
				s, ok := strings.CutSuffix(face[prop], "%")
				got, err := strconv.ParseFloat(s, 64)
				if !ok || err != nil || got != v {
					t.Errorf("fonts.css %q %s: %s is %q, the font files give %v%%", base+" Fallback", w.Weights, prop, face[prop], v)
				}
			}
			var locals []string
			for _, l := range w.Local {
				locals = append(locals, fmt.Sprintf(`local("%s")`, l))
			}
			if face["src"] != strings.Join(locals, ", ") {
				t.Errorf("fonts.css %q %s: src %s, want %s (the fonts the metrics were computed for)", base+" Fallback", w.Weights, face["src"], strings.Join(locals, ", "))
			}
		}
		// Every stack that starts with the web font names its fallback next.
		stacks := regexp.MustCompile(`(?m)^\s*--font-[\w-]+:\s*"`+regexp.QuoteMeta(fam)+`"\s*,\s*("[^"]*")?`).FindAllStringSubmatch(string(tokens), -1)
		if len(stacks) == 0 {
			t.Errorf("tokens.css: no font stack starts with %q", fam)
		}
		for _, s := range stacks {
			if s[1] != `"`+base+` Fallback"` {
				t.Errorf("tokens.css: %q is followed by %s, want %q", fam, s[1], base+" Fallback")
			}
		}
	}
	if webFamilies == 0 {
		t.Fatal("fonts.css: no web font (@font-face \"... Variable\") found")
	}
}
