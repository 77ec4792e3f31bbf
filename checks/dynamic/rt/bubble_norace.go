//go:build !race

package rt

// bubbleRelease and bubbleAcquire order a bubble's goroutines' work
// before synctest's Wait for the race detector, which is off in this
// build.
func bubbleRelease() {}
func bubbleAcquire() {}
