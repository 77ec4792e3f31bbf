package conc

import (
	"sync"
	"sync/atomic"
)

// Panic panics on a rewritten line chosen by which; the test compares the
// reported file:line with the uninstrumented build's.
func Panic(which string) {
	var nilCh chan int
	switch which {
	case "select":
		a := make(chan int)
		select {
		case <-pick(
			nil,
			a):
		default:
		}
	case "after-select":
		a := make(chan int, 1)
		select {
		case <-pick(a,
			a):
		default:
		}
		var m map[string]int
		m["x"] = 1
	case "send":
		nilCh = make(chan int, 1)
		nilCh <- mustPositive(
			-1)
	case "recv":
		_ = <-pick(nil, nilCh)
	case "go":
		go takes(mustPositive(-2), "x", nil)
	case "mutex":
		var g *Guarded[int]
		g.mu.Lock()
	case "atomic":
		var p *int64
		atomic.AddInt64(p, 1)
	case "wg":
		var wg sync.WaitGroup
		wg.Add(-1)
	}
}

func mustPositive(n int) int {
	if n <= 0 {
		panic("not positive")
	}
	return n
}
