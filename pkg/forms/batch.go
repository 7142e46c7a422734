package forms

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"time"
)

// ErrClosed is returned for a submission offered after the batcher closed.
var ErrClosed = errors.New("the handler is shutting down")

// Batcher stores submissions in group commits: requests that arrive while a
// transaction is committing wait and go together in the next one. Each
// caller gets its answer only after the transaction holding its submission
// has committed (synchronous=FULL on SQLite makes that durable).
type Batcher struct {
	store *Store
	kinds []string
	max   int
	log   *slog.Logger
	in    chan *pending
	done  chan struct{}
	wake  func() // called after each commit (the outbox workers)
	once  sync.Once
	mu    sync.RWMutex
	shut  bool

	last lastCommit // for /healthz
}

// lastCommit is the outcome of the batcher's last transaction.
type lastCommit struct {
	mu  sync.Mutex
	at  time.Time
	err error // nil: it committed
}

func (l *lastCommit) note(err error) {
	l.mu.Lock()
	l.at, l.err = time.Now(), err
	l.mu.Unlock()
}

// LastCommit is when the last transaction of submissions ended and its
// error (nil: it committed); a zero time before the first one.
func (b *Batcher) LastCommit() (time.Time, error) {
	b.last.mu.Lock()
	defer b.last.mu.Unlock()
	return b.last.at, b.last.err
}

type pending struct {
	sub *Submission
	res chan batchResult
}

type batchResult struct {
	saved Saved
	err   error
}

// NewBatcher starts the writer goroutine. kinds are the outbox kinds every
// submission gets; max bounds a batch.
func NewBatcher(store *Store, kinds []string, max int, log *slog.Logger, wake func()) *Batcher {
	if max <= 0 {
		max = 256
	}
	b := &Batcher{store: store, kinds: kinds, max: max, log: log, in: make(chan *pending, max*4), done: make(chan struct{}), wake: wake}
	go b.run()
	return b
}

// Save stores one submission and returns after its transaction committed.
func (b *Batcher) Save(ctx context.Context, sub *Submission) (Saved, error) {
	p := &pending{sub: sub, res: make(chan batchResult, 1)}
	b.mu.RLock()
	if b.shut {
		b.mu.RUnlock()
		return Saved{}, ErrClosed
	}
	select {
	case b.in <- p:
		b.mu.RUnlock()
	case <-ctx.Done():
		b.mu.RUnlock()
		return Saved{}, ctx.Err()
	}
	// Once queued, the submission is written even if the client goes away:
	// wait for the outcome so that the answer is never ahead of the commit.
	r := <-p.res
	return r.saved, r.err
}

// Close stops taking submissions, writes those queued and returns.
func (b *Batcher) Close() {
	b.once.Do(func() {
		b.mu.Lock()
		b.shut = true
		close(b.in)
		b.mu.Unlock()
		<-b.done
	})
}

func (b *Batcher) run() {
	defer close(b.done)
	batch := make([]*pending, 0, b.max)
	for p := range b.in {
		batch = append(batch[:0], p)
	fill:
		for len(batch) < b.max {
			select {
			case q, ok := <-b.in:
				if !ok {
					break fill
				}
				batch = append(batch, q)
			default:
				break fill
			}
		}
		b.write(batch)
	}
}

func (b *Batcher) write(batch []*pending) {
	subs := make([]*Submission, len(batch))
	for i, p := range batch {
		subs[i] = p.sub
	}
	// The writes must not be cut short by one request's context.
	ctx := context.Background()
	saved, err := b.store.Insert(ctx, subs, b.kinds)
	if err != nil && len(batch) > 1 {
		// One bad submission must not fail the others: write each alone.
		b.log.Warn("batch insert failed; writing one by one", "n", len(batch), "err", err)
		var lastErr error
		committed := false
		defer func() {
			if committed {
				lastErr = nil
			}
			b.last.note(lastErr)
		}()
		for _, p := range batch {
			s, err := b.store.Insert(ctx, []*Submission{p.sub}, b.kinds)
			if err != nil {
				lastErr = err
				p.res <- batchResult{err: err}
				continue
			}
			committed = true
			p.res <- batchResult{saved: s[0]}
		}
		if b.wake != nil {
			b.wake()
		}
		return
	}
	b.last.note(err)
	for i, p := range batch {
		if err != nil {
			p.res <- batchResult{err: err}
			continue
		}
		p.res <- batchResult{saved: saved[i]}
	}
	if err == nil && b.wake != nil {
		b.wake()
	}
}
