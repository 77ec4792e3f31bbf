// Package mapsold is written in Go 1.16: the rewritten file is raised to
// go1.20 (generics) and keeps the per-loop variable of its time.
package mapsold

// Closures returns one closure per key; before go1.22 all share one k.
func Closures(m map[int]bool) []func() int {
	var fs []func() int
	for k := range m {
		fs = append(fs, func() int { return k })
	}
	return fs
}

// Sum uses key and value.
func Sum(m map[string]int) (n int) {
	for k, v := range m {
		n += len(k) + v
	}
	return n
}
