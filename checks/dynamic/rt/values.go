package rt

// Sync operations used as values. The rewriter turns a method value of an
// instrumented method, such as `unlock := mu.Unlock` or `go run(wg.Done)`,
// into a binding of the receiver (evaluated where the method value was) to
// the runtime function: `unlock := interleavert.Bind(&mu,
// interleavert.Unlock)`. One Bind per shape of signature.

// Bind binds r to f: func().
func Bind[R any](r R, f func(R)) func() { return func() { f(r) } }

// Bind1 binds r to f: func(A).
func Bind1[R, A any](r R, f func(R, A)) func(A) { return func(a A) { f(r, a) } }

// BindR binds r to f: func() T.
func BindR[R, T any](r R, f func(R) T) func() T { return func() T { return f(r) } }

// Bind1R binds r to f: func(A) T.
func Bind1R[R, A, T any](r R, f func(R, A) T) func(A) T { return func(a A) T { return f(r, a) } }

// Bind2R binds r to f: func(A, B) T.
func Bind2R[R, A, B, T any](r R, f func(R, A, B) T) func(A, B) T {
	return func(a A, b B) T { return f(r, a, b) }
}

// RangeInit starts a range over a channel in a file whose language version
// has no range-over-func (older than go1.23). The rewriter turns
//
//	for v := range ch { BODY }
//
// into (on the same lines)
//
//	for _ilch, v, _ilok := interleavert.RangeInit(ch); ; { if v, _ilok = interleavert.Recv2(_ilch); !_ilok { break }; _ = v; { BODY }}
//
// which declares v once per loop, as the range did before go1.22 (and once
// per iteration after, as the range does).
func RangeInit[T any](ch <-chan T) (<-chan T, T, bool) {
	var zero T
	return ch, zero, false
}
