package bad

import "sync"

// runner holds execMu around each handler, but Reset calls the shutdown
// path without it: the wider lock does not cover every caller.
type runner struct {
	execMu sync.Mutex
	exits  *procTable
}

type procTable struct {
	mu     sync.Mutex
	exited map[string]chan struct{}
}

func (t *procTable) add(name string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.exited[name] = make(chan struct{})
}

func (t *procTable) clear() {
	t.mu.Lock()
	n := len(t.exited)
	t.mu.Unlock()
	t.mu.Lock()
	t.exited = make(map[string]chan struct{}, n) // want `t\.exited is written from n, read under t\.mu in an earlier critical section`
	t.mu.Unlock()
}

func (r *runner) Init(name string) {
	r.execMu.Lock()
	defer r.execMu.Unlock()
	r.exits.add(name)
}

func (r *runner) Shutdown() {
	r.execMu.Lock()
	defer r.execMu.Unlock()
	r.exits.clear()
}

func (r *runner) Reset() { r.exits.clear() }

// stage: every caller of the two sections holds execMu, but another
// writer of the field does not.
type stage struct {
	execMu sync.Mutex
	jobs   *jobTable
}

type jobTable struct {
	mu   sync.Mutex
	byID map[int]string
}

func (t *jobTable) reload() {
	t.mu.Lock()
	n := len(t.byID)
	t.mu.Unlock()
	t.mu.Lock()
	t.byID = make(map[int]string, n) // want `t\.byID is written from n, read under t\.mu in an earlier critical section`
	t.mu.Unlock()
}

// Put takes only t.mu.
func (t *jobTable) Put(id int, s string) {
	t.mu.Lock()
	t.byID[id] = s
	t.mu.Unlock()
}

func (s *stage) Reload() {
	s.execMu.Lock()
	defer s.execMu.Unlock()
	s.jobs.reload()
}
