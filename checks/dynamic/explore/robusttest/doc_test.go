// Package robusttest holds the explore package's searches of awkward test
// packages (testdata/robust): a package of its own so that they have their
// own test binary and timeout, as searchtest and kerneltest do.
package robusttest
