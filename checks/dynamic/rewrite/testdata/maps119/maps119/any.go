// Package maps119 is written in Go 1.19, where an interface does not yet
// satisfy comparable (rt.MapIter's and rt.MapKey's K): the file is raised
// to go1.20, and ranges over maps whose keys hold interfaces are rewritten
// as the others are.
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

// Put stores a pointer under an interface key.
func Put(m map[interface{}]int, k interface{}) { m[k] = 1 }

// Sum ranges over a map of strings.
func Sum(m map[string]int) (n int) {
	for k, v := range m {
		n += len(k) + v
	}
	return n
}
