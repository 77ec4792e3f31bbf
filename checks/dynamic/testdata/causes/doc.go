// Package causes holds kernels of one cause seen as many failures (issue
// 21): each package's failures must come out as one finding per cause.
package causes
