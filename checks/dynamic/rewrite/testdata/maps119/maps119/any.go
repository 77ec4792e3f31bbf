// Package maps119 is written in Go 1.19, where an interface does not yet
// satisfy comparable (rt.MapIter's K): ranges over maps whose keys hold
// interfaces stay as written, the others are rewritten.
package maps119

type pair struct {
	name string
	v    interface{}
}

// Any ranges over maps whose keys hold interfaces.
func Any(m map[interface{}]int, p map[pair]int) (n int) {
	for _, v := range m {
		n += v
	}
	for k := range p {
		n += len(k.name)
	}
	return n
}

// Sum ranges over a map of strings.
func Sum(m map[string]int) (n int) {
	for k, v := range m {
		n += len(k) + v
	}
	return n
}
