package args

import "sync"

func Run(f func()) { f() } // want Run:`calls \[0\]`

func RunBoth(name string, f, g func() error) error { // want RunBoth:`calls \[1 2\]`
	if err := f(); err != nil {
		return err
	}
	return g()
}

// Nested calls f from a literal called on the spot.
func Nested(f func()) { // want Nested:`calls \[0\]`
	func() { f() }()
}

// Through hands f to Run, which calls it.
func Through(f func()) { Run(f) } // want Through:`calls \[0\]`

// InLit hands Run a literal that calls f.
func InLit(f func()) { Run(func() { f() }) } // want InLit:`calls \[0\]`

func Wrap(f func() error) func() error { return f } // want Wrap:`returns \[0\]`

// Start runs f on a goroutine of its own.
func Start(f func()) { go f() }

// Deferred runs f after Start's locks are gone: not counted.
func Deferred(f func()) { defer f() }

// Keep stores f.
func Keep(f func()) { kept = f }

var kept func()

// Maybe both calls f and returns it: the function returned is f.
func Maybe(f func()) func() { f(); return f } // want Maybe:`returns \[0\]`

// Pass hands f to Start.
func Pass(f func()) { Start(f) }

// Each calls f through sync.Once.Do, by the sync package's fact.
func Each(once *sync.Once, f func()) { once.Do(f) } // want Each:`calls \[1\]`

// Tracer wraps work in segments.
type Tracer interface {
	Capture(f func() error) error      // want Capture:`calls \[0\]`
	Cause(f func() error) func() error // want Cause:`returns \[0\]`
	Async(f func())
}

type NoOp struct{}

func (NoOp) Capture(f func() error) error { return f() } // want Capture:`calls \[0\]`

func (NoOp) Cause(f func() error) func() error { return f } // want Cause:`returns \[0\]`

func (NoOp) Async(f func()) { f() } // want Async:`calls \[0\]`

type Logging struct{ n int }

func (l *Logging) Capture(f func() error) error { // want Capture:`calls \[0\]`
	l.n++
	return f()
}

func (l *Logging) Cause(f func() error) func() error { return f } // want Cause:`returns \[0\]`

// Async is why Tracer.Async has no fact: one implementation starts f.
func (l *Logging) Async(f func()) { go f() }
