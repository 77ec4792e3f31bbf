// Package robust holds awkward but ordinary tests that the controlled search
// must survive: subtests, t.Parallel, t.Cleanup, TestMain, a goroutine that
// spins without a scheduling point, blocking in uninstrumented code, os.Exit
// in a test, a TestMain that blocks, a package without tests, a package
// that does not compile, and a failure a search stopping at the first must stop at (firstfail).
// explore/robust_test.go runs each with a short budget and checks that the
// search ends on time with a clear outcome. These are not bug kernels:
// kernels.json does not list them.
package robust
