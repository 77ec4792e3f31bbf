package rt

import (
	"fmt"
	"strings"
	"testing"
)

// Late is the receiver of a test's Error, Errorf, Fail, FailNow, Fatal and
// Fatalf calls (rewritten). Called by a controlled goroutine after the test
// (or a subtest it belongs to) returned, it panics as the testing package
// does for a test that has completed: under the scheduler the test's
// goroutines run on after its function returns, before its subtest of the
// driver completes, so the testing package would not notice.
func Late(tb testing.TB) testing.TB {
	if name := lateName(tb, false); name != "" {
		lateAfterEarly()
		panic("Fail in goroutine after " + name + " has completed")
	}
	return tb
}

// lateAfterEarly notes a late failure after an early timer (earlyTime): the
// test's own timeout, most likely, as a failure before it returned would be.
//
//go:norace
func lateAfterEarly() {
	if s := active; s != nil && s.earlyFires > 0 {
		s.earlyLate = true
	}
}

// LateLog is the receiver of a test's Log and Logf calls (rewritten): after
// the whole test returned, they panic as the testing package's do when no
// test is left to take the line.
func LateLog(tb testing.TB) testing.TB {
	if name := lateName(tb, true); name != "" {
		return lateLogger{tb, name}
	}
	return tb
}

type lateLogger struct {
	testing.TB
	name string
}

func (l lateLogger) Log(args ...any) { l.panic(fmt.Sprintln(args...)) }

func (l lateLogger) Logf(format string, args ...any) { l.panic(fmt.Sprintf(format, args...)) }

func (l lateLogger) panic(s string) {
	panic("Log in goroutine after " + l.name + " has completed: " + strings.TrimSuffix(s, "\n"))
}

// lateName returns the name of the test tb is, or is a subtest of, that
// has returned, as go test names it (the driver's subtest replaced by the
// test's own name), or "" when none has or tb is not under control. A
// failure names the outermost such test, as testing.(*common).Fail does;
// with top, only the schedule's test itself counts, and the name is tb's.
//
//go:norace
func lateName(tb testing.TB, top bool) string {
	if current() == nil || tb == nil {
		return ""
	}
	s := active
	if s == nil || len(s.gs) == 0 || s.gs[0].tb == nil {
		return ""
	}
	root := s.gs[0].tb.Name()
	full := tb.Name()
	rel, ok := strings.CutPrefix(full, root)
	if !ok || rel != "" && rel[0] != '/' {
		return ""
	}
	user := func(n string) string { return s.cfg.Test + strings.TrimPrefix(n, root) }
	if top {
		if s.gs[0].exited {
			return user(full)
		}
		return ""
	}
	best := ""
	for _, o := range s.gs {
		if o.tb == nil || !o.exited {
			continue
		}
		n := o.tb.Name()
		if (n == full || strings.HasPrefix(full, n+"/")) && (best == "" || len(n) < len(best)) {
			best = n
		}
	}
	if best == "" {
		return ""
	}
	return user(best)
}
