package islands

import (
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"sitegen/pkg/diag"
)

// sourceMap is a decoded source map (version 3, no sections): enough to map
// a generated line:column of the SSR bundle back to the .jsx source.
type sourceMap struct {
	sources []string
	lines   [][]mapping // per generated line (0-based), sorted by genCol
}

type mapping struct {
	genCol, src, line, col int // 0-based
}

func parseSourceMap(data []byte) (*sourceMap, error) {
	var raw struct {
		Version  int      `json:"version"`
		Sources  []string `json:"sources"`
		Mappings string   `json:"mappings"`
	}
	if err := json.Unmarshal(data, &raw); err != nil {
		return nil, err
	}
	if raw.Version != 3 {
		return nil, fmt.Errorf("unsupported source map version %d", raw.Version)
	}
	m := &sourceMap{sources: raw.Sources}
	var src, line, col int
	for _, l := range strings.Split(raw.Mappings, ";") {
		var segs []mapping
		genCol := 0
		for _, seg := range strings.Split(l, ",") {
			if seg == "" {
				continue
			}
			v, err := decodeVLQ(seg)
			if err != nil {
				return nil, err
			}
			genCol += v[0]
			if len(v) >= 4 {
				src += v[1]
				line += v[2]
				col += v[3]
				segs = append(segs, mapping{genCol, src, line, col})
			}
		}
		sort.SliceStable(segs, func(i, j int) bool { return segs[i].genCol < segs[j].genCol })
		m.lines = append(m.lines, segs)
	}
	return m, nil
}

const b64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"

func decodeVLQ(s string) ([]int, error) {
	var out []int
	shift, val := 0, 0
	for i := 0; i < len(s); i++ {
		d := strings.IndexByte(b64, s[i])
		if d < 0 {
			return nil, fmt.Errorf("bad VLQ digit %q", s[i])
		}
		val += (d & 31) << shift
		if d&32 != 0 {
			shift += 5
			continue
		}
		n := val >> 1
		if val&1 != 0 {
			n = -n
		}
		out = append(out, n)
		shift, val = 0, 0
	}
	return out, nil
}

// lookup maps a 1-based generated line and column to the 1-based original
// position.
func (m *sourceMap) lookup(line, col int) (diag.Pos, bool) {
	if m == nil || line < 1 || line > len(m.lines) {
		return diag.Pos{}, false
	}
	segs := m.lines[line-1]
	c := col - 1
	i := sort.Search(len(segs), func(i int) bool { return segs[i].genCol > c }) - 1
	if i < 0 {
		if len(segs) == 0 {
			return diag.Pos{}, false
		}
		i = 0
	}
	s := segs[i]
	if s.src < 0 || s.src >= len(m.sources) {
		return diag.Pos{}, false
	}
	return diag.Pos{File: m.sources[s.src], Line: s.line + 1, Col: s.col + 1}, true
}

var stackPos = regexp.MustCompile(`<(?:eval|input)>:(\d+):(\d+)|<(?:eval|input)>:(\d+)`)

// mapStack rewrites the bundle positions in a JS stack trace to source
// positions and returns the first position inside an island source (a .jsx
// file under assets/islands), else the first mapped one.
func (m *sourceMap) mapStack(stack string) (string, diag.Pos) {
	var first, firstIsland diag.Pos
	out := stackPos.ReplaceAllStringFunc(stack, func(s string) string {
		sm := stackPos.FindStringSubmatch(s)
		var line, col int
		if sm[1] != "" {
			line, _ = strconv.Atoi(sm[1])
			col, _ = strconv.Atoi(sm[2])
		} else {
			line, _ = strconv.Atoi(sm[3])
			col = 1
		}
		p, ok := m.lookup(line, col)
		if !ok {
			return s
		}
		if first.File == "" {
			first = p
		}
		if firstIsland.File == "" && strings.HasSuffix(p.File, ".jsx") && !strings.Contains(p.File, "node_modules") {
			firstIsland = p
		}
		return p.String()
	})
	if firstIsland.File != "" {
		return out, firstIsland
	}
	return out, first
}
