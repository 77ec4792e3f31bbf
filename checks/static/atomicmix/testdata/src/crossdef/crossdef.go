package crossdef

import "sync/atomic"

// Counter is updated atomically.
type Counter struct {
	N    int64 // want N:`atomic\(AddInt64\)`
	name string
}

func (c *Counter) Inc() { atomic.AddInt64(&c.N, 1) }

func (c *Counter) Name() string { return c.name }

var Total uint64 // want Total:`atomic\(AddUint64\)`

func Add() { atomic.AddUint64(&Total, 1) }

var local int64

func bumpLocal() { atomic.AddInt64(&local, 1) }
