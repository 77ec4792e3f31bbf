package explore

import (
	"testing"

	"github.com/interleave-dev/interleave/checks/dynamic/rt"
)

// TestSameAddress: a schedule that failed binding an address in use (the
// same test's server, on a fixed port, in a parallel worker: redcon's
// TestPubSub on :12346) makes its test searched by one worker; another
// failure, or a pass that logged the words, does not.
func TestSameAddress(t *testing.T) {
	for _, c := range []struct {
		r    rt.Result
		want bool
	}{
		{rt.Result{Outcome: "panic", Message: "panic: listen tcp :12346: bind: address already in use"}, true},
		{rt.Result{Outcome: "test-failure", Message: "test failed: x_test.go:9: listen tcp 127.0.0.1:8080: bind: address already in use"}, true},
		{rt.Result{Outcome: "deadlock", Message: "deadlock: all goroutines are blocked"}, false},
		{rt.Result{Outcome: "pass", Message: "address already in use"}, false},
	} {
		if got := sameAddress(c.r); got != c.want {
			t.Errorf("sameAddress(%s %q) = %v, want %v", c.r.Outcome, c.r.Message, got, c.want)
		}
	}
}
