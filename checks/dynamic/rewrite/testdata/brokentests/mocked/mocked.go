// Package mocked compiles; its test calls a generated mock that is not
// there.
package mocked

// Get returns one.
func Get() int { return 1 }
