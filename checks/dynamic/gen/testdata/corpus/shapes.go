package corpus

import "sync"

// Pump counts the loops it started between Open and Close. It is safe for
// concurrent use.
//
// (It is not: Close does not wait for the loop to end, so after a restart
// the old loop and the new one write loops at once.)
type Pump struct {
	mu    sync.Mutex
	quit  chan struct{}
	loops int // written by the loop
}

// NewPump returns a stopped pump.
func NewPump() *Pump { return &Pump{} }

// Open starts the loop unless it runs.
func (p *Pump) Open() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.quit != nil {
		return
	}
	p.quit = make(chan struct{})
	go p.loop(p.quit)
}

func (p *Pump) loop(quit chan struct{}) {
	p.loops++
	<-quit
}

// Close stops the loop.
func (p *Pump) Close() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.quit == nil {
		return
	}
	close(p.quit)
	p.quit = nil
}

// PumpOK is Pump done right: Close waits for the loop to end. It is safe
// for concurrent use.
type PumpOK struct {
	mu    sync.Mutex
	quit  chan struct{}
	done  chan struct{}
	loops int // written by the loop, one loop at a time
}

// NewPumpOK returns a stopped pump.
func NewPumpOK() *PumpOK { return &PumpOK{} }

// Open starts the loop unless it runs.
func (p *PumpOK) Open() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.quit != nil {
		return
	}
	p.quit, p.done = make(chan struct{}), make(chan struct{})
	go p.loop(p.quit, p.done)
}

func (p *PumpOK) loop(quit, done chan struct{}) {
	defer close(done)
	p.loops++
	<-quit
}

// Close stops the loop and waits for it to end.
func (p *PumpOK) Close() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.quit == nil {
		return
	}
	close(p.quit)
	<-p.done
	p.quit = nil
}

// LazyTally counts names; its map is made on first use. It is safe for
// concurrent use.
//
// (It is not: the map is made without the lock, so two first Adds race.)
type LazyTally struct {
	mu sync.Mutex
	m  map[string]int
}

// NewLazyTally returns an empty tally.
func NewLazyTally() *LazyTally { return &LazyTally{} }

// Add counts name once.
func (l *LazyTally) Add(name string) {
	if l.m == nil {
		l.m = map[string]int{}
	}
	l.mu.Lock()
	l.m[name]++
	l.mu.Unlock()
}

// Count is how many times name was added.
func (l *LazyTally) Count(name string) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.m[name]
}

// LazyTallyOK is LazyTally done right: the map is made under the lock. It
// is safe for concurrent use.
type LazyTallyOK struct {
	mu sync.Mutex
	m  map[string]int
}

// NewLazyTallyOK returns an empty tally.
func NewLazyTallyOK() *LazyTallyOK { return &LazyTallyOK{} }

// Add counts name once.
func (l *LazyTallyOK) Add(name string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.m == nil {
		l.m = map[string]int{}
	}
	l.m[name]++
}

// Count is how many times name was added.
func (l *LazyTallyOK) Count(name string) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.m[name]
}
