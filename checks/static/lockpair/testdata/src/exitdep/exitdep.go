// Package exitdep has exported functions that never return, for the exit
// hooks of package exithook.
package exitdep

import "os"

// Die never returns.
func Die(code int) { os.Exit(code) }

// Warn returns.
func Warn(code int) { println("exit", code) }

// Exit is an exit hook tests may replace; it should not simply return.
var Exit = os.Exit

// Notify is a hook whose value returns.
var Notify = Warn

// FlushAndExit ends every path in the exit hook: it never returns.
func FlushAndExit(code int) {
	println("flush")
	Exit(code)
}

// MaybeExit returns when code is 0.
func MaybeExit(code int) {
	if code == 0 {
		return
	}
	Exit(code)
}
