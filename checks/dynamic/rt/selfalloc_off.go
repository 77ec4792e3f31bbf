//go:build !interleave_selfalloc

package rt

// selfAlloc is off: see selfalloc_on.go.
const selfAlloc = false

var selfAllocSink []byte
