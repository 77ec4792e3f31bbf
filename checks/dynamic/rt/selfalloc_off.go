//go:build !interleave_selfalloc

package rt

// selfAlloc is off: see selfalloc_on.go.
const selfAlloc = false

// selfAllocSink is selfalloc_on.go's; call names it either way.
//
//lint:ignore U1000 used only when selfAlloc is on
var selfAllocSink []byte
