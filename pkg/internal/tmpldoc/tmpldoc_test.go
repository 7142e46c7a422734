package tmpldoc

import (
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	const tick = "```"
	block := func(tag, body string) string { return tick + tag + "\n" + body + "\n" + tick + "\n" }
	for _, c := range []struct {
		name, md string
		want     string // name:examples;... or the error
	}{
		{"two functions", "# T\n\n### `a`\n\nDoes a.\n\n" + block("go-html-template", "{{ a }}") + block("html", "A") +
			"### `b`\n" + block("go-html-template", "{{ b 1 }}") + block("html", "1") + block("go-html-template", "{{ b 2 }}") + block("html", "2"),
			"a:1;b:2"},
		{"a function without example", "### `a`\n\ntext\n", "a:0"},
		{"other code blocks are prose", "### `a`\n" + block("yaml", "x: 1") + block("go-html-template", "{{ a }}") + block("html", "A"), "a:1"},
		{"input without output", "### `a`\n" + block("go-html-template", "{{ a }}") + "### `b`\n", "line 5: the example at line 2 has no html block with its output"},
		{"output without input", "### `a`\n" + block("html", "A"), "line 2: an html block without a go-html-template block before it"},
		{"example before any function", block("go-html-template", "{{ a }}"), "line 1: an example before the first function heading"},
		{"unclosed block", "### `a`\n" + tick + "html\nA\n", "line 2: the code block is not closed"},
	} {
		t.Run(c.name, func(t *testing.T) {
			funcs, err := Parse([]byte(c.md))
			var got string
			if err != nil {
				got = err.Error()
			} else {
				var parts []string
				for _, f := range funcs {
					parts = append(parts, f.Name+":"+string(rune('0'+len(f.Examples))))
				}
				got = strings.Join(parts, ";")
			}
			if got != c.want {
				t.Errorf("got %q, want %q", got, c.want)
			}
		})
	}
	funcs, _ := Parse([]byte("### `a`\n" + block("go-html-template", "{{ a }}") + block("html", "<b>A</b>")))
	if ex := funcs[0].Examples[0]; ex.Input != "{{ a }}\n" || ex.Want != "<b>A</b>\n" || ex.Line != 2 {
		t.Errorf("example %+v", ex)
	}
}
