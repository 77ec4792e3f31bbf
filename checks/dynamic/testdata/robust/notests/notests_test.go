package notests

import "testing"

// BenchmarkTwice is a benchmark, not a test: there is nothing to search.
func BenchmarkTwice(b *testing.B) {
	for i := 0; i < b.N; i++ {
		Twice(i)
	}
}
