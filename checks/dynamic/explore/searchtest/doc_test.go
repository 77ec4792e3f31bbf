// Package searchtest holds end-to-end searches of the explore package that
// build race-instrumented test binaries of nested testdata modules (one
// cause, one finding; the build's own test files): a package of its own so
// that they have their own test binary and timeout, as kerneltest does.
package searchtest
