package rt

import (
	"strings"
	"testing"
)

// TestFairChoiceAfterTest: a goroutine left running when the test returns
// drains two closed channels in one select until it has seen both close
// (a worker pool's loop), and ends. The unperturbed strategy takes the
// first ready case every time; once the fair decisions begin, select
// cases are chosen at random as the Go runtime does, so the goroutine
// ends and the schedule is no leak. (go-pkgz/pool's
// TestPool_CloseWithCancelledContext was reported as a running leak.)
func TestFairChoiceAfterTest(t *testing.T) {
	for _, strategy := range []string{PlainStrategy, "pct"} {
		r := RunFunc(Config{Seed: 1, Strategy: strategy}, 0, func() {
			in, batch := make(chan int), make(chan int)
			Go(func() {
				inClosed, batchClosed := false, false
				for !(inClosed && batchClosed) {
					k := Select(false, RecvCase(in), RecvCase(batch))
					select {
					case _, ok := <-PickRecv(k, 0, in):
						inClosed = inClosed || !ok
					case _, ok := <-PickRecv(k, 1, batch):
						batchClosed = batchClosed || !ok
					}
				}
			})
			Close(in)
			Close(batch)
		})
		if r.Outcome != "pass" {
			t.Errorf("%s: %s: %s", strategy, r.Outcome, firstLineOf(r.Message))
		}
	}
}

func firstLineOf(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}
