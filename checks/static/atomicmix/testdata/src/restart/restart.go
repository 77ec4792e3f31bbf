// Package restart: a task callback that, on a restart, resets the index
// its old run still adds to, and rebuilds the channels that run reads.
// Both races are real: the reset stays IL3002 although the two would
// also race on the channels.
package restart

import (
	"context"
	"sync"
	"sync/atomic"
)

type Checker struct {
	mutex     sync.Mutex
	pending   map[string]bool
	taskIndex int64
	channels  []chan string
	cancel    context.CancelFunc
}

// OnTaskEvent runs on every start of the task, also while the previous
// run's Process has not returned.
func (c *Checker) OnTaskEvent(start bool) {
	if !start {
		c.cancel()
		return
	}
	c.mutex.Lock()
	c.pending = map[string]bool{}
	c.taskIndex = 0 /* IL3002 */ // want `plain write of c\.taskIndex races with its atomic accesses`
	c.mutex.Unlock()
	var ctx context.Context
	c.channels = make([]chan string, 0, 4)
	ctx, c.cancel = context.WithCancel(context.Background())
	for i := 0; i < 4; i++ {
		ch := make(chan string, 8)
		c.channels = append(c.channels, ch)
		go c.loop(ctx, ch)
	}
}

func (c *Checker) loop(ctx context.Context, ch chan string) {
	for {
		select {
		case <-ctx.Done():
			return
		case <-ch:
		}
	}
}

// Process is the periodic run: it spreads work over the channels.
func (c *Checker) Process(items []string) {
	for _, it := range items {
		next := atomic.AddInt64(&c.taskIndex, 1)
		select {
		case c.channels[int(next)%len(c.channels)] <- it:
		default:
		}
	}
}
