package corpus

import "sync"

// Board hands out a ticket for each job posted. It is safe for concurrent
// use.
//
// (It is not: Take checks the ticket and removes it under two critical
// sections, so two Takes of one ticket can both pass the check.)
type Board struct {
	mu   sync.Mutex
	next uint64
	jobs map[uint64]*job
}

type job struct{ name string }

// NewBoard returns an empty board; tickets start above 1000.
func NewBoard() *Board { return &Board{next: 1000, jobs: map[uint64]*job{}} }

// Post adds a job and returns its ticket.
func (b *Board) Post(name string) uint64 {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.next++
	b.jobs[b.next] = &job{name: name}
	return b.next
}

// Has reports whether the ticket is open.
func (b *Board) Has(id uint64) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	_, ok := b.jobs[id]
	return ok
}

// Take closes an open ticket and returns its job's name; "" when the
// ticket is not open.
func (b *Board) Take(id uint64) string {
	if !b.Has(id) {
		return ""
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	j := b.jobs[id]
	delete(b.jobs, id)
	return j.name // nil when another Take removed it since Has
}

// Open is the number of open tickets.
func (b *Board) Open() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return len(b.jobs)
}

// Desk is Board done right: Take checks and removes under one lock. It is
// safe for concurrent use. Taking a ticket that is not open is a caller's
// bug: Take panics, in any order of the calls, so a generated test that
// takes one ticket twice fails sequentially and is never reported.
type Desk struct {
	mu   sync.Mutex
	next uint64
	jobs map[uint64]string
}

// NewDesk returns an empty desk; tickets start above 1000.
func NewDesk() *Desk { return &Desk{next: 1000, jobs: map[uint64]string{}} }

// Post adds a job and returns its ticket.
func (d *Desk) Post(name string) uint64 {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.next++
	d.jobs[d.next] = name
	return d.next
}

// Has reports whether the ticket is open.
func (d *Desk) Has(id uint64) bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	_, ok := d.jobs[id]
	return ok
}

// Take closes an open ticket and returns its job's name; it panics when
// the ticket is not open.
func (d *Desk) Take(id uint64) string {
	d.mu.Lock()
	defer d.mu.Unlock()
	name, ok := d.jobs[id]
	if !ok {
		panic("corpus: Desk.Take of a ticket that is not open")
	}
	delete(d.jobs, id)
	return name
}

// Open is the number of open tickets.
func (d *Desk) Open() int {
	d.mu.Lock()
	defer d.mu.Unlock()
	return len(d.jobs)
}

// Hub fans messages out to subscribers. It is safe for concurrent use.
// A subscriber's channel is its handle: Unsubscribe takes it.
type Hub struct {
	mu   sync.Mutex
	subs map[<-chan string]chan string
}

// NewHub returns a hub without subscribers.
func NewHub() *Hub { return &Hub{subs: map[<-chan string]chan string{}} }

// Subscribe returns a new subscriber's channel.
func (h *Hub) Subscribe() <-chan string {
	h.mu.Lock()
	defer h.mu.Unlock()
	ch := make(chan string, 4)
	h.subs[ch] = ch
	return ch
}

// Unsubscribe closes a subscriber's channel; false when it is not one.
func (h *Hub) Unsubscribe(ch <-chan string) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	c, ok := h.subs[ch]
	if !ok {
		return false
	}
	delete(h.subs, ch)
	close(c)
	return true
}

// Publish sends msg to every subscriber with room for it and returns how
// many got it.
func (h *Hub) Publish(msg string) int {
	h.mu.Lock()
	defer h.mu.Unlock()
	n := 0
	for _, c := range h.subs {
		select {
		case c <- msg:
			n++
		default:
		}
	}
	return n
}

// Subscribers is the number of subscribers.
func (h *Hub) Subscribers() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.subs)
}
