package bad

import "sync"

type A struct {
	mu sync.Mutex
	n  int
}

type B struct {
	mu sync.RWMutex
	n  int
}

func ab(a *A, b *B) {
	a.mu.Lock()
	b.mu.Lock() // want `lock order inversion: b.mu \(bad.B.mu\) acquired while holding a.mu \(bad.A.mu\), but bad.ba acquires bad.A.mu while holding bad.B.mu at direct.go:26: goroutines on both paths can deadlock`
	a.n = b.n
	b.mu.Unlock()
	a.mu.Unlock()
}

func ba(a *A, b *B) {
	b.mu.Lock()
	defer b.mu.Unlock()
	a.mu.Lock()
	a.n++
	a.mu.Unlock()
}

var (
	regMu   sync.Mutex
	cacheMu sync.Mutex
)

func register() {
	regMu.Lock()
	defer regMu.Unlock()
	cacheMu.Lock() // want `lock order inversion: cacheMu \(bad.cacheMu\) acquired while holding regMu \(bad.regMu\)` `bad.cacheMu acquired while holding bad.regMu in register, and bad.regMu while holding bad.cacheMu in evict: two goroutines on the same package deadlock`
	cacheMu.Unlock()
}

func evict() {
	cacheMu.Lock()
	regMu.Lock()
	regMu.Unlock()
	cacheMu.Unlock()
}

// the same order again: the pair is reported once, at its first site
func abAgain(a *A, b *B) {
	a.mu.Lock()
	defer a.mu.Unlock()
	b.mu.RLock()
	b.mu.RUnlock()
}
