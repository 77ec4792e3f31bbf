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
	var (
		once   sync.Once
		valid  bool
		p      any
		result T
	)
	g := func() {
		defer func() {
			p = recover()
			if !valid {
				panic(p)
			}
		}()
		result = f()
		f = nil
		valid = true
	}
	return func() T {
		OnceDo(&once, g)
		if !valid {
			panic(p)
		}
		return result
	}
}

// OnceValues is sync.OnceValues on OnceDo (see OnceFunc).
func OnceValues[T1, T2 any](f func() (T1, T2)) func() (T1, T2) {
	var (
		once  sync.Once
		valid bool
		p     any
		r1    T1
		r2    T2
	)
	g := func() {
		defer func() {
			p = recover()
			if !valid {
				panic(p)
			}
		}()
		r1, r2 = f()
		f = nil
		valid = true
	}
	return func() (T1, T2) {
		OnceDo(&once, g)
		if !valid {
			panic(p)
		}
		return r1, r2
	}
}
