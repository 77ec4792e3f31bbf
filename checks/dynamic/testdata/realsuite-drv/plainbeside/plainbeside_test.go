// Package plainbeside: TestGate fails on every schedule; under plain go
// test, run by the search (INTERLEAVE_PLAIN_TEST set), it first waits
// for the file INTERLEAVE_TEST_GATE names, which the explore test makes
// once the search of the tests has begun. Plain go test runs beside the
// search, so it then fails the same way; had it held up the unperturbed
// runs, the search could not begin, the gate would never open and the
// run would time out.
package plainbeside

import (
	"os"
	"testing"
	"time"
)

func TestGate(t *testing.T) {
	if gate := os.Getenv("INTERLEAVE_TEST_GATE"); gate != "" && os.Getenv("INTERLEAVE_PLAIN_TEST") != "" {
		for {
			if _, err := os.Stat(gate); err == nil {
				break
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	t.Fatal("fails on every schedule")
}

func TestOther(t *testing.T) {}
