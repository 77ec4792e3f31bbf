// Package goleak stands in for go.uber.org/goleak before v1.3: no option
// to ignore a function anywhere in a stack, so the rewriter cannot add
// one for the scheduler's goroutines; its dump of every goroutine and its
// retry loop (real sleeps) are as goleak's.
package goleak

import (
	"runtime"
	"strings"
	"time"
)

// TB is the part of testing.TB VerifyNone uses.
type TB interface {
	Error(args ...interface{})
}

// VerifyNone fails t when goroutines other than the caller's are left
// after some retries.
func VerifyNone(t TB) {
	var others []string
	for i := 0; i < 5; i++ {
		others = others[:0]
		for _, g := range strings.Split(string(dump()), "\n\n")[1:] {
			if !strings.Contains(g, "testing.(*T).Run") && !strings.Contains(g, "testing.RunTests") &&
				!strings.Contains(g, "runtime.goexit") && !strings.Contains(g, "signal.") {
				others = append(others, g)
			}
		}
		if len(others) == 0 {
			return
		}
		time.Sleep(time.Millisecond << i)
	}
	t.Error("found unexpected goroutines:\n" + strings.Join(others, "\n\n"))
}

func dump() []byte {
	for i := 1 << 16; ; i *= 2 {
		buf := make([]byte, i)
		if n := runtime.Stack(buf, true); n < i {
			return buf[:n]
		}
	}
}

// Count is the process's goroutines.
func Count() int { return runtime.NumGoroutine() }
