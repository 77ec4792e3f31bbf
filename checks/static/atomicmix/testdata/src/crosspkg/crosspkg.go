package crosspkg

import "crossdef"

func read(c *crossdef.Counter) int64 {
	return c.N // want `plain read of c\.N races with its atomic accesses in package crossdef \(atomic\.AddInt64 at crossdef\.go:11\)`
}

func total() uint64 {
	return crossdef.Total // want `plain read of crossdef\.Total races`
}

func fresh() *crossdef.Counter {
	c := &crossdef.Counter{N: 1} // ok
	c.N = 2                      // ok: not shared yet
	return c
}

func name(c *crossdef.Counter) string { return c.Name() } // ok
