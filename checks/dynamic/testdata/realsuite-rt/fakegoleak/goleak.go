// Package goleak is a small stand-in for go.uber.org/goleak v1.3 (same
// API for what it has, same default filters, same retry loop with real
// sleeps), so that the rewriter's handling of goleak checks is tested
// without the network. It is not rewritten: like the real one, it runs
// outside the scheduler's control.
package goleak

import (
	"errors"
	"runtime"
	"strings"
	"time"
)

// Option configures a check.
type Option interface{ apply(*opts) }

type opts struct{ ignoreAny []string }

type optionFunc func(*opts)

func (f optionFunc) apply(o *opts) { f(o) }

// IgnoreAnyFunction ignores goroutines with f anywhere in their stack.
func IgnoreAnyFunction(f string) Option {
	return optionFunc(func(o *opts) { o.ignoreAny = append(o.ignoreAny, f) })
}

// TestingT is the part of *testing.T that VerifyNone uses.
type TestingT interface{ Error(args ...any) }

// VerifyNone reports goroutines other than the current one and the
// testing framework's.
func VerifyNone(t TestingT, options ...Option) {
	if err := Find(options...); err != nil {
		t.Error(err)
	}
}

// Find retries, sleeping for real, until no unexpected goroutine is left,
// for about a second.
func Find(options ...Option) error {
	o := &opts{}
	for _, opt := range options {
		opt.apply(o)
	}
	cur := strings.Fields(stacks(false))[1]
	delay := time.Microsecond
	var left []string
	for i := 0; i < 26; i++ {
		left = left[:0]
		for _, g := range strings.Split(stacks(true), "\n\n") {
			if strings.Fields(g)[1] == cur || o.ignored(g) {
				continue
			}
			left = append(left, g)
		}
		if len(left) == 0 {
			return nil
		}
		time.Sleep(delay)
		if delay < 100*time.Millisecond {
			delay *= 2
		}
	}
	return errors.New("found unexpected goroutines:\n" + strings.Join(left, "\n\n"))
}

func (o *opts) ignored(g string) bool {
	lines := strings.Split(g, "\n")
	if len(lines) < 2 {
		return true
	}
	state := lines[0][strings.Index(lines[0], "[")+1:]
	first := lines[1]
	if i := strings.LastIndex(first, "("); i > 0 {
		first = first[:i]
	}
	switch first {
	case "testing.RunTests", "testing.(*T).Run", "testing.(*T).Parallel", "testing.runFuzzing", "testing.runFuzzTests":
		if strings.HasPrefix(state, "chan receive") {
			return true
		}
	}
	for _, f := range o.ignoreAny {
		for _, l := range lines[1:] {
			if !strings.HasPrefix(l, "\t") && !strings.HasPrefix(l, "created by ") && strings.HasPrefix(l, f+"(") {
				return true
			}
		}
	}
	return false
}

func stacks(all bool) string {
	buf := make([]byte, 1<<20)
	for {
		n := runtime.Stack(buf, all)
		if n < len(buf) {
			return strings.TrimSpace(string(buf[:n]))
		}
		buf = make([]byte, 2*len(buf))
	}
}
