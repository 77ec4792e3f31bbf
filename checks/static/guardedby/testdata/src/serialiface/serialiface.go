// Package serialiface: a type handed out only as an interface whose doc
// says its methods are called from one goroutine. A field written only by
// those methods (and helpers only they call) is read without the lock in
// one of them: the read is serialized with every write by the contract,
// so no report. A field the package's own callback writes too (it runs
// on the subscriber's goroutine) is still reported, as is the same read
// behind an interface that promises nothing.
//
// The shape (written here, not copied): a batch publisher reads its
// batch counter after unlocking to format an error; the counter is bumped
// under the lock by Add and by the commit helper of Commit and Close; an
// ack handler subscribed on the first Add runs on another goroutine and
// writes only the acknowledged counter.
package serialiface

import (
	"errors"
	"fmt"
	"sync"
)

// Batch publishes records in one batch.
//
// A Batch is NOT safe for concurrent use. All calls to Add, Commit and
// Close must be made from a single goroutine.
type Batch interface {
	Add(rec string) error
	Commit() error
	Close() error
}

type subscriber interface {
	Subscribe(handler func(ack uint64)) error
}

type batch struct {
	mu    sync.Mutex
	sub   subscriber
	send  func(seq uint64, rec string) error
	seq   uint64 // records sent: written by Add and commit only
	acked uint64 // last ack: written by onAck, on the subscriber's goroutine
	done  bool
}

// NewBatch returns the batch as the interface, never as *batch.
func NewBatch(sub subscriber, send func(uint64, string) error) Batch {
	return &batch{sub: sub, send: send}
}

func (b *batch) Add(rec string) error {
	b.mu.Lock()
	if b.done {
		b.mu.Unlock()
		return errors.New("batch closed")
	}
	b.seq++
	if b.seq == 1 {
		if err := b.sub.Subscribe(b.onAck); err != nil {
			b.mu.Unlock()
			return err
		}
	}
	if err := b.send(b.seq, rec); err != nil {
		b.mu.Unlock()
		return fmt.Errorf("record %d: %w", b.seq, err) // the contract orders this read after every write of seq: no report
	}
	b.mu.Unlock()
	if b.late() {
		return fmt.Errorf("record %d not acked, last ack %d", b.seq, b.acked) // want `field b.acked read without holding b.mu in exported method Add, while every write of it holds it and onAck writes it on a shared value`
	}
	return nil
}

func (b *batch) late() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.acked+8 < b.seq
}

func (b *batch) Commit() error { return b.commit(false) }

func (b *batch) Close() error { return b.commit(true) }

// commit is called only by Commit and Close: on the contract's goroutine.
func (b *batch) commit(eob bool) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.seq++
	b.done = true
	if eob {
		return b.send(b.seq, "")
	}
	return b.send(b.seq, "commit")
}

// onAck is handed to the subscriber: it runs on another goroutine.
func (b *batch) onAck(ack uint64) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if ack > b.acked {
		b.acked = ack
	}
}

// Feed is the same publisher behind an interface that promises nothing
// about goroutines: its callers may call Push from several, and its own
// heartbeat goroutine writes the counter too.
type Feed interface {
	Push(rec string) error
	Stop() error
}

type feed struct {
	mu   sync.Mutex
	send func(seq uint64, rec string) error
	seq  uint64
}

func NewFeed(send func(uint64, string) error, tick <-chan struct{}) Feed {
	f := &feed{send: send}
	go f.heartbeat(tick)
	return f
}

func (f *feed) heartbeat(tick <-chan struct{}) {
	for range tick {
		f.mu.Lock()
		f.seq++
		_ = f.send(f.seq, "")
		f.mu.Unlock()
	}
}

func (f *feed) Push(rec string) error {
	f.mu.Lock()
	f.seq++
	err := f.send(f.seq, rec)
	f.mu.Unlock()
	if err != nil {
		return fmt.Errorf("record %d: %w", f.seq, err) // want `field f.seq read without holding f.mu in exported method Push, while every write of it holds it and heartbeat writes it on a shared value at line \d+ \(held at 6 of 6 other accesses\); heartbeat runs on the goroutine started by the go statement`
	}
	return nil
}

func (f *feed) Stop() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.seq++
	return f.send(f.seq, "")
}

// Pipe writes records.
//
// A Pipe is not safe for concurrent use: call Write and Close from one
// goroutine.
type Pipe interface {
	Write(rec string) error
	Close() error
}

type pipe struct {
	mu     sync.Mutex
	sub    subscriber
	n      uint64
	closed bool
}

func NewPipe(sub subscriber) Pipe { return &pipe{sub: sub} }

func (p *pipe) Write(rec string) error {
	p.mu.Lock()
	p.n++
	if p.n == 1 {
		_ = p.sub.Subscribe(p.onAck)
	}
	closed := p.closed
	p.mu.Unlock()
	if closed {
		return fmt.Errorf("record %d (%s): pipe closed", p.n, rec) // want `field p.n read without holding p.mu in exported method Write, while every write of it holds it and Write writes it on a shared value`
	}
	return nil
}

func (p *pipe) Close() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.n++
	p.closed = true
	return nil
}

// onAck closes the pipe on the subscriber's goroutine: Close is called
// outside the contract too, so its write races with Write's read.
func (p *pipe) onAck(ack uint64) {
	if ack == 0 {
		_ = p.Close()
	}
}

// Log is documented as not safe for concurrent use.
//
// It is the batch's shape with an exported type: other packages can call
// its methods without the interface, so the contract does not bind them.
type Log interface {
	Append(rec string) error
	Close() error
}

type LogWriter struct {
	mu   sync.Mutex
	sub  subscriber
	seq  uint64
	done bool
}

func NewLog(sub subscriber) Log { return &LogWriter{sub: sub} }

func (l *LogWriter) Append(rec string) error {
	l.mu.Lock()
	l.seq++
	if l.seq == 1 {
		_ = l.sub.Subscribe(l.onAck)
	}
	done := l.done
	l.mu.Unlock()
	if done {
		return fmt.Errorf("record %d (%s): log closed", l.seq, rec) // want `field l.seq read without holding l.mu in exported method Append, while every write of it holds it and Append writes it on a shared value`
	}
	return nil
}

func (l *LogWriter) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.seq++
	l.done = true
	return nil
}

func (l *LogWriter) onAck(uint64) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.done = true
}
