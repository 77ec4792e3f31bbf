//go:build interleave_selfalloc

package rt

// selfAlloc, on only in a test build (-tags interleave_selfalloc), makes
// every scheduling point of a perturbed schedule allocate, as the targeted
// strategy's once did (not the unperturbed one's, which explore already
// checks against plain go test): a test counting allocations fails under
// the scheduler only, which explore must tell as the tool's doing (a
// note), never as the code's finding.
const selfAlloc = true

// selfAllocSink keeps selfAlloc's allocation on the heap.
var selfAllocSink []byte
