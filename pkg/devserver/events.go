package devserver

import (
	"encoding/json"
	"fmt"
	"net/http"
	"reflect"
	"sync"
	"time"
)

// event is one server-sent event.
type event struct {
	name string
	data any // JSON-encoded on the wire
}

// broker fans events out to the open tabs. A tab that connects while the
// build is failing gets the error at once.
type broker struct {
	mu      sync.Mutex
	clients map[chan event]struct{}
	current *event // the build error, nil while builds succeed
	done    chan struct{}
	closed  bool
}

func newBroker() *broker {
	return &broker{clients: map[chan event]struct{}{}, done: make(chan struct{})}
}

func (b *broker) setError(p problem) {
	ev := event{name: "build-error", data: p}
	b.mu.Lock()
	b.current = &ev
	b.mu.Unlock()
	b.send(ev)
}

// showing reports whether open tabs show p already.
func (b *broker) showing(p problem) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.current != nil && reflect.DeepEqual(b.current.data, p)
}

// send delivers ev to every tab; a success clears the error state. A tab
// too slow to take it is dropped (its EventSource reconnects).
func (b *broker) send(ev event) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if ev.name != "build-error" {
		b.current = nil
	}
	for c := range b.clients {
		select {
		case c <- ev:
		default:
			delete(b.clients, c)
			close(c)
		}
	}
}

func (b *broker) close() {
	b.mu.Lock()
	defer b.mu.Unlock()
	if !b.closed {
		b.closed = true
		close(b.done)
	}
}

func (b *broker) serve(w http.ResponseWriter, r *http.Request, session string) {
	flusher, ok := w.(http.Flusher)
	if !ok {
		http.Error(w, "streaming unsupported", http.StatusInternalServerError)
		return
	}
	c := make(chan event, 16)
	b.mu.Lock()
	b.clients[c] = struct{}{}
	current := b.current
	b.mu.Unlock()
	defer func() {
		b.mu.Lock()
		if _, ok := b.clients[c]; ok {
			delete(b.clients, c)
			close(c)
		}
		b.mu.Unlock()
	}()
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	fmt.Fprint(w, "retry: 500\n\n")
	writeEvent(w, event{name: "hello", data: map[string]string{"session": session}})
	if current != nil {
		writeEvent(w, *current)
	}
	flusher.Flush()
	ping := time.NewTicker(20 * time.Second)
	defer ping.Stop()
	for {
		select {
		case <-r.Context().Done():
			return
		case <-b.done:
			return
		case <-ping.C:
			fmt.Fprint(w, ": ping\n\n")
			flusher.Flush()
		case ev, ok := <-c:
			if !ok {
				return
			}
			writeEvent(w, ev)
			flusher.Flush()
		}
	}
}

func writeEvent(w http.ResponseWriter, ev event) {
	data, err := json.Marshal(ev.data)
	if err != nil {
		data = []byte(`{}`)
	}
	fmt.Fprintf(w, "event: %s\ndata: %s\n\n", ev.name, data)
}
