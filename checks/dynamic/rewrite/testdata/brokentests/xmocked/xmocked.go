// Package xmocked compiles; its external test does not.
package xmocked

// Get returns one.
func Get() int { return 1 }
