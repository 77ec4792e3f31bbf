package dynamic

import (
	"sync"
	"testing"
)

// TestPairState holds b.mu to inspect state while the code under test
// takes a.mu: a lock order only a test takes is not reported.
func TestPairState(t *testing.T) { // want TestPairState:"acquires dynamic\\.pairA\\.mu, dynamic\\.pairB\\.mu"
	a, b := &pairA{}, &pairB{}
	b.mu.Lock()
	a.mu.Lock()
	a.mu.Unlock()
	b.mu.Unlock()
	syncPair(a, b)
}

// fakeListener is a test double: production code reaches it only through
// the Listener interface in tests.
type fakeListener struct {
	mu  sync.Mutex
	bus *Bus
	got []string
}

func (f *fakeListener) Notify(ev string) { // want Notify:"acquires dynamic\\.fakeListener\\.mu"
	f.mu.Lock()
	f.got = append(f.got, ev)
	f.mu.Unlock()
}

func (f *fakeListener) flush() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.bus.Publish("flush")
}

func TestFake(t *testing.T) { // want TestFake:"acquires dynamic\\.Audit\\.mu via dynamic\\.\\(\\*fakeListener\\)\\.flush -> dynamic\\.\\(\\*Bus\\)\\.Publish -> dynamic\\.\\(\\*Audit\\)\\.Notify \\(interface call\\), dynamic\\.Bus\\.mu via dynamic\\.\\(\\*Bus\\)\\.Add, dynamic\\.fakeListener\\.mu via dynamic\\.\\(\\*fakeListener\\)\\.flush"
	b := &Bus{}
	f := &fakeListener{bus: b}
	b.Add(f)
	f.flush()
}
