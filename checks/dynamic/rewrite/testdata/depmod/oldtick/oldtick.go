// Package oldtick is a dependency whose go.mod says go1.12, older than
// the runtime's generic API.
package oldtick

import (
	"sync"
	"time"
)

var mu sync.Mutex

// Pass sends v on ch after d, under a lock.
func Pass(ch chan int, v int, d time.Duration) {
	time.Sleep(d)
	mu.Lock()
	defer mu.Unlock()
	ch <- v
}
