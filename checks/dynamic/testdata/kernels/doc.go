// Package kernels holds small concurrency bugs, one test each, that the
// controlled-concurrency search must find: locks, chans, syncs, clocks
// (a start that rereads the clock forever) and pools (a timer from a
// package-level sync.Pool: the schedule must replay alone) hold the bugs (kernels.json
// names the failure each must produce), correct holds the same shapes
// fixed, which must produce nothing.
//
// Each bug depends on the interleaving: under a plain `go test` most of these
// tests pass most of the time, which is the point.
package kernels
