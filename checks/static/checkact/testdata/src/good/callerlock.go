package good

import "sync"

// sandbox runs one handler at a time: each exported handler holds
// execMu for its whole call.
type sandbox struct {
	execMu sync.Mutex
	exits  *exitTable
}

// exitTable has a channel per running process.
type exitTable struct {
	mu     sync.Mutex
	exited map[string]chan struct{}
}

func (t *exitTable) add(name string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.exited[name] = make(chan struct{})
}

// clear waits for every process to exit and starts a fresh table. It
// drops t.mu while it waits; no add can come in between, because every
// caller of both holds the sandbox's execMu.
func (t *exitTable) clear() {
	t.mu.Lock()
	n := len(t.exited)
	chans := make([]chan struct{}, 0, n)
	for _, c := range t.exited {
		chans = append(chans, c)
	}
	t.mu.Unlock()
	for _, c := range chans {
		<-c
	}
	t.mu.Lock()
	t.exited = make(map[string]chan struct{}, n)
	t.mu.Unlock()
}

func (b *sandbox) HandleInit(names []string) {
	b.execMu.Lock()
	defer b.execMu.Unlock()
	handleInit(b, names)
}

func handleInit(b *sandbox, names []string) {
	for _, n := range names {
		startProcess(b, n)
	}
}

func startProcess(b *sandbox, name string) { b.exits.add(name) }

func (b *sandbox) HandleShutdown() {
	b.execMu.Lock()
	defer b.execMu.Unlock()
	handleShutdown(b)
}

func handleShutdown(b *sandbox) { b.exits.clear() }
