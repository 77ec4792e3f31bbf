// Package a calls mark, which the runner tests' fake pass reports.
package a

func mark() {}

func optin() {}

// Plain is reported: nothing suppresses it.
func Plain() {
	mark()
}

// Trailing is suppressed by a directive on the same line.
func Trailing() {
	mark() //interleave:ignore IL8001 the fake pass flags every call
}

// Above is suppressed by a directive on the line above.
func Above() {
	//interleave:ignore unit-mark the fake pass flags every call
	mark()
}

// Doc is suppressed by a directive in its doc comment.
//
//interleave:ignore IL8001 the whole function is exempt
func Doc() {
	mark()
	mark()
}

// Malformed has a directive without a reason: the finding stays.
func Malformed() {
	//interleave:ignore IL8001
	mark()
}

// Unused has a directive that suppresses nothing.
func Unused() {
	//interleave:ignore IL8001 nothing here to suppress
	_ = 1
}

// OptIn calls optin, reported only when its rule is enabled.
func OptIn() {
	optin()
}

// T has a method so the enclosing function is named T.M.
type T struct{}

func (*T) M() {
	mark()
}
