// Package pools: a write takes its deadline timer from a package-level
// sync.Pool (as yamux's writes do), and a close races with the write.
package pools
