package islands

import (
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"modernc.org/quickjs"

	"sitegen/pkg/diag"
)

// renderResult is what SGIslands.render returns (as JSON).
type renderResult struct {
	HTML  string   `json:"html"`
	Error *jsError `json:"error"`
}

type jsError struct {
	Name    string `json:"name"`
	Message string `json:"message"`
	Stack   string `json:"stack"`
}

// engine is one JS engine loaded with the SSR bundle. Not safe for
// concurrent use; the pool hands each to one goroutine at a time.
type engine interface {
	// render returns nil and an error when the engine itself failed (it is
	// then discarded); a component error is reported in the result.
	render(name, props, children string) (*renderResult, error)
	// interrupt stops a render in progress; it may be called from any
	// goroutine.
	interrupt()
	close() error
}

// engineTimeout is QuickJS's own bound on one call, a backstop behind the
// bundle's render limits (which interrupt the engine sooner).
const engineTimeout = 10 * time.Minute

// quickJS holds the bundle's render function and the global object, so a
// render does not evaluate the name SGIslands.render again.
type quickJS struct {
	vm       *quickjs.VM
	fn, this quickjs.Value
	// mu orders interrupt, which may come from any goroutine, with close.
	mu     sync.Mutex
	closed bool
}

func newQuickJS(bundle []byte) (engine, error) {
	return newQuickJSFrom(&ssrCode{src: jsPrelude + string(bundle)}, DefaultMemoryLimit)
}

// ssrCode is the SSR bundle (with the prelude) for the engines of a pool:
// the first engine compiles it to QuickJS bytecode, and every engine loads
// that bytecode, which takes a tenth of the time parsing the source does
// (0.7 ms against 5.6 ms for the website's bundle).
type ssrCode struct {
	src string

	mu       sync.Mutex
	bytecode []byte
	compiled int // times compiled (for tests)
}

// load evaluates the bundle in vm, from its bytecode when there is one.
func (c *ssrCode) load(vm *quickjs.VM) error {
	c.mu.Lock()
	if c.bytecode == nil {
		// The first engine compiles; a bundle that does not compile is
		// evaluated from source, for the error evaluation reports.
		c.compiled++
		if bc, err := vm.Compile(c.src, quickjs.EvalGlobal); err == nil {
			c.bytecode = bc
		}
	}
	bc := c.bytecode
	c.mu.Unlock()
	if bc == nil {
		_, err := vm.Eval(c.src, quickjs.EvalGlobal)
		return err
	}
	_, err := vm.EvalBytecode(bc)
	return err
}

func newQuickJSFrom(code *ssrCode, memoryLimit int64) (engine, error) {
	vm, err := quickjs.NewVM()
	if err != nil {
		return nil, err
	}
	vm.SetEvalTimeout(engineTimeout)
	vm.SetMemoryLimit(uintptr(memoryLimit))
	if err := code.load(vm); err != nil {
		vm.Close()
		return nil, fmt.Errorf("loading SSR bundle: %w", err)
	}
	fn, err := vm.EvalValue("SGIslands.render", quickjs.EvalGlobal)
	if err != nil {
		vm.Close()
		return nil, fmt.Errorf("loading SSR bundle: %w", err)
	}
	return &quickJS{vm: vm, fn: fn, this: vm.GlobalObject()}, nil
}

// jsPrelude is evaluated before the bundle (see renderError for the line
// shift it causes).
//
//go:embed js/prelude.js
var jsPrelude string

var preludeLines = strings.Count(jsPrelude, "\n")

func (q *quickJS) render(name, props, children string) (*renderResult, error) {
	v, err := q.fn.Call(q.this, name, props, children)
	if err != nil {
		return nil, err
	}
	s, ok := v.(string)
	if !ok {
		return nil, fmt.Errorf("SGIslands.render returned %T", v)
	}
	var r renderResult
	if err := json.Unmarshal([]byte(s), &r); err != nil {
		return nil, err
	}
	return &r, nil
}

// interrupt stops the render in progress at the engine's next check, and
// at its next allocation. QuickJS checks for an interrupt once every 10,000
// calls and loop turns: a loop whose every turn runs a long builtin (a 1 MB
// padEnd, 2.5 ms) would run on for 25 s past the time limit. So interrupt
// also lowers the memory limit below what the engine holds, and every
// allocation fails from then on (the engine is discarded after an
// interrupt, never reused). SetMemoryLimit is one store into the runtime,
// which the engine reads at each allocation.
func (q *quickJS) interrupt() {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.closed {
		return
	}
	q.vm.Interrupt()
	q.vm.SetMemoryLimit(0)
}

func (q *quickJS) close() error {
	q.mu.Lock()
	q.closed = true
	q.mu.Unlock()
	q.fn.Free()
	q.this.Free()
	return q.vm.Close()
}

// pool keeps up to size engines, created on demand.
type pool struct {
	mu      sync.Mutex
	idle    chan engine
	created int
	size    int
	newEng  func() (engine, error)
	closed  bool
	// freed wakes a caller waiting in get when a broken engine was
	// discarded: there is room to create one again.
	freed chan struct{}
}

func newPool(size int, newEng func() (engine, error)) *pool {
	return &pool{idle: make(chan engine, size), size: size, newEng: newEng, freed: make(chan struct{}, size)}
}

// get returns an idle engine, creates one while fewer than size exist, or
// waits for one (more callers than engines wait here).
func (p *pool) get(ctx context.Context) (engine, error) {
	for {
		select {
		case e := <-p.idle:
			return e, nil
		default:
		}
		p.mu.Lock()
		if p.closed {
			p.mu.Unlock()
			return nil, errors.New("islands: bundle closed")
		}
		if p.created < p.size {
			p.created++
			p.mu.Unlock()
			e, err := p.newEng()
			if err != nil {
				p.mu.Lock()
				p.created--
				select { // a caller waiting for room tries (and fails) in turn
				case p.freed <- struct{}{}:
				default:
				}
				p.mu.Unlock()
				return nil, err
			}
			return e, nil
		}
		p.mu.Unlock()
		select {
		case e := <-p.idle:
			return e, nil
		case <-p.freed:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}

// put returns e to the pool, or discards it when broken.
func (p *pool) put(e engine, broken bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if broken || p.closed {
		e.close()
		p.created--
		select {
		case p.freed <- struct{}{}:
		default:
		}
		return
	}
	p.idle <- e
}

func (p *pool) close() error {
	p.mu.Lock()
	p.closed = true
	p.mu.Unlock()
	var errs []error
	for {
		select {
		case e := <-p.idle:
			errs = append(errs, e.close())
		default:
			return errors.Join(errs...)
		}
	}
}

// renderError turns a component exception into a diagnostic at the .jsx
// line that threw, with the mapped JS stack as hint.
func (b *Bundle) renderError(name string, e *jsError) error {
	stack := shiftStack(e.Stack, preludeLines)
	mapped, pos := b.ssrMap.mapStack(stack)
	msg := e.Message
	if e.Name != "" && e.Name != "Error" {
		msg = e.Name + ": " + msg
	}
	d := diag.New(pos, "island %s: render threw: %s", name, msg)
	if s := strings.TrimSpace(mapped); s != "" {
		d.Hint = "JS stack:\n" + s
	}
	if pos.File == "" {
		d.Pos = diag.Pos{File: islandsDir + "/" + name + ".jsx"}
	}
	return d
}

// shiftStack subtracts n from every <eval>:LINE position (the prelude).
func shiftStack(stack string, n int) string {
	if n == 0 {
		return stack
	}
	return stackPos.ReplaceAllStringFunc(stack, func(s string) string {
		sm := stackPos.FindStringSubmatch(s)
		if sm[1] != "" {
			return fmt.Sprintf("<eval>:%d:%s", atoi(sm[1])-n, sm[2])
		}
		return fmt.Sprintf("<eval>:%d", atoi(sm[3])-n)
	})
}

func atoi(s string) int {
	n := 0
	for _, c := range s {
		n = n*10 + int(c-'0')
	}
	return n
}

// Warm creates the engines in the background, so that the first renders do
// not wait for them. A build calls it when it knows pages will render.
func (b *Bundle) Warm() {
	if b == nil || b.pool == nil {
		return
	}
	for i := 0; i < b.pool.size; i++ {
		go func() {
			if e, err := b.pool.get(context.Background()); err == nil {
				b.pool.put(e, false)
			}
		}()
	}
}
