package render

import (
	"context"
	"errors"
	"fmt"
	"html/template"
	"strings"

	"sitegen/pkg/diag"
)

// MaxNesting is how deep partials and sections may include one another
// within one page: deep enough for any real menu or tree, shallow enough that
// a template that includes itself is an error long before the Go stack is.
const MaxNesting = 64

// execSet is the templates parsed with functions bound to one execState. A
// render takes a set from the pool for its whole run, so the state (the
// page's locale included) is per render call and never shared between
// goroutines.
type execSet struct {
	root    *template.Template            // base + partials + sections
	layouts map[string]*template.Template // layout name -> the template its pages execute (parseSet)
	st      *execState
	hoists  []hoistRegion // the regions the set's {{ sitegenHoist N }} run (hoist.go)
}

// execState is what one render call tracks while templates run.
type execState struct {
	set   *execSet
	ctx   context.Context
	lang  string   // the locale of the page being rendered
	page  string   // the page being rendered (its source file)
	chain []string // templates, partials and sections being executed, outermost first
	// partials counts the partials and sections in chain (output of
	// {{ template }} calls goes straight to the page, theirs does not).
	partials int
	marks    pageMarks
	// preloads are the <link rel=preload> of the page's eager pictures,
	// put before </head> once the page is rendered.
	preloads []string
	pictures []PictureUse // every picture asked for (Result.Pictures)
	// deps records what the render uses (nil: nothing is recorded); layout
	// is the page's layout, for the files behind the templates it runs.
	deps   Deps
	layout string
}

// enter records that template name starts executing inside the current
// chain; it fails when the chain is already MaxNesting deep.
func (st *execState) enter(name string) error {
	if len(st.chain) >= MaxNesting {
		return tooDeepError(fmt.Sprintf("%s is nested more than %d deep: %s", name, MaxNesting, describeChain(append(st.chain, name))))
	}
	st.chain = append(st.chain, name)
	return nil
}

func (st *execState) leave() { st.chain = st.chain[:len(st.chain)-1] }

// describeChain shows the first cycle of a chain of template names, or the
// whole chain when nothing repeats.
func describeChain(chain []string) string {
	first := map[string]int{}
	for i, n := range chain {
		if j, ok := first[n]; ok {
			cycle := strings.Join(chain[j:i+1], " → ")
			if j > 0 {
				cycle = strings.Join(chain[:j], " → ") + " → " + cycle
			}
			return cycle + " → … (a template that includes itself)"
		}
		first[n] = i
	}
	return strings.Join(chain, " → ")
}

// tooDeepError is returned by the call that would exceed MaxNesting.
type tooDeepError string

func (e tooDeepError) Error() string { return string(e) }

// nestingError is a too deep chain of partials, already placed at the
// innermost call; outer calls pass it on unchanged.
type nestingError struct{ diag.Diagnostic }

// execNested runs t (a partial or section) inside st, with the nesting
// limit, and returns its output.
func (st *execState) execNested(name string, run func(*strings.Builder) error) (template.HTML, error) {
	if err := st.enter(name); err != nil {
		return "", err
	}
	st.partials++
	defer func() { st.partials--; st.leave() }()
	var b strings.Builder
	if err := run(&b); err != nil {
		var ne nestingError
		if errors.As(err, &ne) {
			return "", ne
		}
		var td tooDeepError
		if errors.As(err, &td) { // the call inside this template hit the limit: place it there
			d := templateError(err)
			d.Message = string(td)
			return "", nestingError{d}
		}
		return "", err
	}
	return template.HTML(b.String()), nil
}

// takeSet returns a template set bound to a fresh state for one render of
// a page in lang; putSet gives it back.
func (r *Renderer) takeSet(ctx context.Context, lang, page string) (*execSet, error) {
	var s *execSet
	select {
	case s = <-r.pool:
	default:
		// Parsing and escaping a set costs more than waiting for one: make
		// no more than there are cores to run them.
		if r.made.Add(1) > r.maxSets {
			r.made.Add(-1)
			select {
			case s = <-r.pool:
			case <-ctx.Done():
				return nil, ctx.Err()
			}
			break
		}
		var errs diag.List
		if s, _, errs = r.parseExecSet(false); len(errs) > 0 {
			return nil, errs.Err()
		}
	}
	*s.st = execState{set: s, ctx: ctx, lang: lang, page: page, chain: s.st.chain[:0]}
	return s, nil
}

// parseExecSet parses a template set bound to a state of its own, with its
// page-independent regions hoisted (hoist.go); with withInfo it also
// returns what the templates define (templateInfo).
func (r *Renderer) parseExecSet(withInfo bool) (*execSet, templateInfo, diag.List) {
	st := &execState{}
	funcs := r.funcs(st)
	root, layouts, alias, errs := parseSet(r.base, r.shared, r.layouts, funcs, r.opts.HTML != nil)
	if len(errs) > 0 {
		return nil, templateInfo{}, errs
	}
	s := &execSet{root: root, layouts: layouts, st: st}
	st.set = s
	var info templateInfo
	if withInfo {
		info = infoOf(root, layouts, alias) // before hoisting (which adds no template)
	}
	if !r.noHoist {
		s.hoists = r.hoistSet(root, layouts, funcs, func(i int) (template.HTML, error) { return r.runHoisted(st, i) })
	}
	return s, info, nil
}

func (r *Renderer) putSet(lang string, s *execSet) {
	s.st.ctx = nil
	select {
	case r.pool <- s:
	default: // the pool is full: let this one go
	}
}
