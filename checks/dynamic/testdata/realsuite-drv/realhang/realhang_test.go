// Package realhang has a call that never returns for one of the inputs its
// test exercises (a trailing backslash), run in a goroutine the test does
// not wait for: plain go test passes while that goroutine spins forever.
// It hangs on every schedule, the unperturbed one included: a finding, with
// its stack, whatever the test's share of the budget.
package realhang

import (
	"strings"
	"testing"
)

// fields counts the comma-separated fields of s; a backslash escapes the
// next byte.
func fields(s string) int {
	n := 1
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i = escaped(s, i)
		case ',':
			n++
		}
	}
	return n
}

// escaped returns the index of the byte the backslash at i escapes. The
// bug: for a trailing backslash, j stays i and the loop spins.
func escaped(s string, i int) int {
	j := i
	for ; j == i; j = min(i+1, len(s)-1) {
	}
	return j
}

func TestFieldsInBackground(t *testing.T) {
	results := make(chan int, 2)
	for _, in := range []string{`a\,b`, `tail\`} {
		go func() { results <- fields(in) }()
	}
	if n := <-results; n != 1 {
		t.Errorf("fields = %d, want 1", n)
	}
}

// Quick tests that share the budget with the one above.
func TestSplit1(t *testing.T) { split(t, "a,b", 2) }
func TestSplit2(t *testing.T) { split(t, "a", 1) }
func TestSplit3(t *testing.T) { split(t, "a,b,c", 3) }
func TestSplit4(t *testing.T) { split(t, "", 1) }
func TestSplit5(t *testing.T) { split(t, ",", 2) }
func TestSplit6(t *testing.T) { split(t, "x,y", 2) }
func TestSplit7(t *testing.T) { split(t, "x,,y", 3) }

func split(t *testing.T, s string, want int) {
	done := make(chan int)
	go func() { done <- len(strings.Split(s, ",")) }()
	if got := <-done; got != want {
		t.Errorf("%q: %d fields, want %d", s, got, want)
	}
}
