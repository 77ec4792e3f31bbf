// Package notests has code but no Test functions.
package notests

// Twice doubles n.
func Twice(n int) int { return 2 * n }
