package rt

import "sync"

// OnceFunc, OnceValue and OnceValues are sync's, with their once run
// through OnceDo: a goroutine calling the function while another runs f
// waits under control, and f calling its own function again (through a
// logger, a hook) is a goroutine waiting for itself, which the scheduler
// sees as blocked for good. sync's own keep a Once inside the standard
// library: the wait there was real and outside the scheduler's view. As
// in sync, a panic of f is the panic of every call.
func OnceFunc(f func()) func() {
	var (
		once  sync.Once
		valid bool
		p     any
	)
	g := func() {
		defer func() {
			p = recover()
			if !valid {
				panic(p)
			}
		}()
		f()
		f = nil
		valid = true
	}
	return func() {
		OnceDo(&once, g)
		if !valid {
			panic(p)
		}
	}
}

// OnceValue is sync.OnceValue on OnceDo (see OnceFunc).
func OnceValue[T any](f func() T) func() T {
	var result T
	once := OnceFunc(func() { result = f(); f = nil })
	return func() T {
		once()
		return result
	}
}

// OnceValues is sync.OnceValues on OnceDo (see OnceFunc).
func OnceValues[T1, T2 any](f func() (T1, T2)) func() (T1, T2) {
	var (
		r1 T1
		r2 T2
	)
	once := OnceFunc(func() { r1, r2 = f(); f = nil })
	return func() (T1, T2) {
		once()
		return r1, r2
	}
}
