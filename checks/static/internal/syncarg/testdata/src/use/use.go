package use

import "args"

// Segment calls f through a function of another package.
func Segment(f func()) { args.Run(f) } // want Segment:`calls \[0\]`

// Traced calls f through an interface method of another package.
func Traced(t args.Tracer, f func() error) error { return t.Capture(t.Cause(f)) } // want Traced:`calls \[1\]`

// Detached hands f to a method that starts it.
func Detached(t args.Tracer, f func()) { t.Async(f) }
