// Package exitdep has exported functions that never return, for the exit
// hooks of package exithook.
package exitdep

import "os"

// Die never returns.
func Die(code int) { os.Exit(code) }

// Warn returns.
func Warn(code int) { println("exit", code) }
