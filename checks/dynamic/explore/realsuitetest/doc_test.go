// Package realsuitetest holds the explore package's searches of the
// driver's real-suite kernels (testdata/realsuite-drv) that need only its
// exported API: a package of its own so that they have their own test
// binary and timeout, as searchtest and kerneltest do.
package realsuitetest
