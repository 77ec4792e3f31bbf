package good

import (
	"sync"
	"testing"

	"github.com/stretchr/testify/require"
)

type transport struct {
	t     testing.TB
	mu    sync.Mutex
	queue []int
}

// next unlocks before t.Fatalf, which never returns (x/net's
// getConnNoPreface): the second Unlock is not reached on that path.
func (tt *transport) next() int {
	tt.mu.Lock()
	if len(tt.queue) == 0 {
		tt.mu.Unlock()
		tt.t.Fatalf("no item")
	}
	v := tt.queue[0]
	tt.queue = tt.queue[1:]
	tt.mu.Unlock()
	return v
}

// first does the same with a *testing.T.
func first(t *testing.T, mu *sync.Mutex, q []int) int {
	mu.Lock()
	if len(q) == 0 {
		mu.Unlock()
		t.FailNow()
	}
	v := q[0]
	mu.Unlock()
	return v
}

// accept locks in each iteration and defers the unlock; the only path
// that goes round again with mu held is require.NoError with a non-nil
// error, which ends the test (radix's accept loop).
func accept(t *testing.T, mu *sync.Mutex, next func() error, stopping *bool) {
	for {
		err := next()
		if err != nil {
			mu.Lock()
			defer mu.Unlock()
			if *stopping {
				break
			}
			require.NoError(t, err)
		}
	}
}
