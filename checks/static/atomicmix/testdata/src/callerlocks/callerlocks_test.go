package callerlocks

import "testing"

// A test calls the helper on a store it owns, without the lock: tests do
// not decide which locks resetFirst is entered with.
func TestResetFirst(t *testing.T) {
	mb := &block{}
	mb.resetFirst(7)
	if mb.first.seq != 7 {
		t.Fatal(mb.first.seq)
	}
}
