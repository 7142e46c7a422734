// Package tmplwalk visits the nodes of a parsed Go template that run as
// statements: the nodes of each list, and the branches of if, with and range.
package tmplwalk

import "text/template/parse"

// Walk calls visit for n and every statement node below it.
func Walk(n parse.Node, visit func(parse.Node)) {
	switch x := n.(type) {
	case *parse.ListNode:
		if x == nil {
			return
		}
		for _, c := range x.Nodes {
			Walk(c, visit)
		}
		return
	case *parse.IfNode:
		Walk(x.List, visit)
		Walk(x.ElseList, visit)
	case *parse.WithNode:
		Walk(x.List, visit)
		Walk(x.ElseList, visit)
	case *parse.RangeNode:
		Walk(x.List, visit)
		Walk(x.ElseList, visit)
	}
	visit(n)
}
