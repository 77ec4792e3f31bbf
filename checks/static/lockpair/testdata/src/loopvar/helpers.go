package loopvar

import "sync"

// worker is paused by locking its own mutex through a helper.
type worker struct {
	sync.Mutex
	buf []byte
}

func (w *worker) pause()   { w.Lock() }
func (w *worker) unpause() { w.Unlock() }

type client struct {
	workers []*worker
	fixed   [2]*worker
}

// flushAll pauses every worker until it returns: one lock per element,
// each taken once, released by the deferred unpause calls.
func (c *client) flushAll() {
	for _, w := range c.workers {
		w.pause()
		defer w.unpause()
		w.buf = w.buf[:0]
	}
}

// flushIndexed does the same through an index.
func (c *client) flushIndexed() {
	for i := range c.workers {
		c.workers[i].pause()
		defer c.workers[i].unpause()
	}
}

// pauseTwice pauses the same worker twice in one iteration.
func (c *client) pauseTwice() {
	for _, w := range c.workers {
		w.pause()
		w.pause() // want `call to w.pause locks w.Mutex, which is already held here`
		w.unpause()
	}
}

// pauseFirstTwice pauses the same fixed element twice.
func (c *client) pauseFirstTwice() {
	c.fixed[0].pause()
	defer c.fixed[0].unpause()
	c.fixed[0].pause() // want `call to c.fixed\[0\].pause locks c.fixed\[0\].Mutex, which is already held here`
}
