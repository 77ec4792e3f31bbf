// Package tracer wraps work in trace segments, in the shapes of a
// tracing interface: Capture runs its function before it returns,
// WithCause hands it back, Background starts it on its own goroutine.
package tracer

// Tracer records segments around the functions it is handed.
type Tracer interface {
	Capture(name string, f func() error) error
	WithCause(f func() error) func() error
	Background(f func() error)
}

// NoOp records nothing.
type NoOp struct{}

func (NoOp) Capture(name string, f func() error) error { return f() }

func (NoOp) WithCause(f func() error) func() error { return f }

func (NoOp) Background(f func() error) { go f() }

// Segment runs f inside a segment named name.
func Segment(name string, f func() error) error {
	start(name)
	defer end(name)
	return f()
}

// Later keeps f to run at the next Flush.
func Later(f func() error) { pending = append(pending, f) }

var pending []func() error

func start(string) {}
func end(string)   {}
