package yamlx

import (
	"encoding/binary"
	"errors"

	"gopkg.in/yaml.v3"

	"sitegen/pkg/internal/wire"
)

// nodesMagic starts an encoded node tree; a new layout takes a new one.
const nodesMagic = "yamlx-nodes-2\n"

// maxNodes and maxDepth bound a decoded tree (an encoded tree came from a
// cache file, which may be damaged); yaml.v3 does not parse deeper trees.
const (
	maxNodes = 1 << 20
	maxDepth = 10000
)

var errBadNodes = errors.New("not an encoded YAML node tree")

// EncodeNodes writes a parsed YAML node tree as bytes DecodeNodes turns
// back into an equal tree, several times faster than parsing the YAML
// again: a build keeps the front matter of its pages this way (by the
// digest of its text) in its cache.
func EncodeNodes(root *yaml.Node) []byte {
	count, aliases := 0, false
	var walk func(n *yaml.Node)
	walk = func(n *yaml.Node) {
		count++
		aliases = aliases || n.Alias != nil
		for _, c := range n.Content {
			walk(c)
		}
	}
	walk(root)
	// The nodes' preorder positions, for aliases (a front matter seldom
	// has one: the map is made only then).
	var index map[*yaml.Node]int
	if aliases {
		index = make(map[*yaml.Node]int, count)
		var number func(n *yaml.Node)
		number = func(n *yaml.Node) {
			index[n] = len(index)
			for _, c := range n.Content {
				number(c)
			}
		}
		number(root)
	}
	b := append(make([]byte, 0, 64*count), nodesMagic...)
	b = binary.AppendUvarint(b, uint64(count)) // the decoder allocates them at once
	str := func(s string) {
		b = binary.AppendUvarint(b, uint64(len(s)))
		b = append(b, s...)
	}
	var put func(n *yaml.Node)
	put = func(n *yaml.Node) {
		b = binary.AppendUvarint(b, uint64(n.Kind))
		b = binary.AppendUvarint(b, uint64(n.Style))
		for _, s := range []string{n.Tag, n.Value, n.Anchor, n.HeadComment, n.LineComment, n.FootComment} {
			str(s)
		}
		b = binary.AppendVarint(b, int64(n.Line))
		b = binary.AppendVarint(b, int64(n.Column))
		alias := 0
		if n.Alias != nil {
			if i, ok := index[n.Alias]; ok {
				alias = i + 1
			}
		}
		b = binary.AppendUvarint(b, uint64(alias))
		b = binary.AppendUvarint(b, uint64(len(n.Content)))
		for _, c := range n.Content {
			put(c)
		}
	}
	put(root)
	return b
}

// DecodeNodes reads what EncodeNodes wrote.
func DecodeNodes(b []byte) (*yaml.Node, error) {
	if len(b) < len(nodesMagic) || string(b[:len(nodesMagic)]) != nodesMagic {
		return nil, errBadNodes
	}
	r := wire.NewReader(b[len(nodesMagic):])
	count := r.Uvarint()
	if r.Bad() || count == 0 || count > maxNodes || count > uint64(r.Len()) { // a node takes a byte at least
		return nil, errBadNodes
	}
	// One block for the nodes and one string for all their text: a tree
	// of front matter takes two allocations for these, not one per node and
	// string (and one per mapping or sequence for its Content).
	slab := make([]yaml.Node, count)
	text := string(b[len(b)-r.Len():])
	base := len(text)
	str := func() string {
		v := r.Prefixed()
		at := base - r.Len() - len(v)
		return text[at : at+len(v)]
	}
	failed := false        // a read or a bound failed: nothing more is read
	var nodes []*yaml.Node // preorder
	var aliases []int      // per node: 1 + the preorder index of its alias, or 0
	var get func(depth int) *yaml.Node
	get = func(depth int) *yaml.Node {
		if failed || r.Bad() || depth > maxDepth || len(nodes) >= len(slab) {
			failed = true
			return nil
		}
		n := &slab[len(nodes)]
		n.Kind, n.Style = yaml.Kind(r.Uvarint()), yaml.Style(r.Uvarint())
		n.Tag, n.Value, n.Anchor = str(), str(), str()
		n.HeadComment, n.LineComment, n.FootComment = str(), str(), str()
		n.Line, n.Column = int(r.Varint()), int(r.Varint())
		nodes = append(nodes, n)
		aliases = append(aliases, r.Int(len(slab)))
		count := r.Int(r.Len()) // each node takes a byte at least
		if r.Bad() {
			failed = true
			return nil
		}
		if count > 0 {
			n.Content = make([]*yaml.Node, 0, count)
		}
		for i := 0; i < count && !failed; i++ {
			n.Content = append(n.Content, get(depth+1))
		}
		return n
	}
	root := get(0)
	if failed || !r.Done() || len(nodes) != len(slab) {
		return nil, errBadNodes
	}
	for i, a := range aliases {
		if a > len(nodes) {
			return nil, errBadNodes
		}
		if a > 0 {
			nodes[i].Alias = nodes[a-1]
		}
	}
	return root, nil
}
