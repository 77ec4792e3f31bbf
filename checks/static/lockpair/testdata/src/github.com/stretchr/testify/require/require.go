// Package require stands in for testify's require: each assertion calls
// t.FailNow when it fails.
package require

// TestingT is the part of *testing.T that require uses.
type TestingT interface {
	Errorf(format string, args ...any)
	FailNow()
}

// NoError ends the test when err is not nil.
func NoError(t TestingT, err error, msgAndArgs ...any) {
	if err != nil {
		t.Errorf("unexpected error: %v", err)
		t.FailNow()
	}
}
