// t.Name() as go test names the test: the driver's subtest replaced by the schedule's test.

package rt

import (
	"strconv"
	"strings"
	"testing"
)

// TestName is tb.Name() (rewritten from it on a *testing.T, *testing.B,
// *testing.F or testing.TB). Under control the schedule's test runs as the
// driver's subtest ("TestInterleaveDriver/schedule-3"): that prefix is
// replaced by the test's own name, so a test that compares or keys by its
// name ("TestStop/queue") sees what go test gives it.
//
//go:norace
func TestName(tb testing.TB) string {
	full := tb.Name()
	if current() == nil {
		return full
	}
	s := active
	if s == nil || len(s.gs) == 0 || s.gs[0].tb == nil {
		return full
	}
	rel, ok := strings.CutPrefix(full, s.gs[0].tb.Name())
	if !ok || rel != "" && rel[0] != '/' {
		return full
	}
	test, _ := splitTest(s.cfg.Test)
	if rel != "" && len(s.groupNames) > 0 {
		// A name both the package and its external test package
		// declare: go test runs the second as "TestX#01".
		member, rest := rel[1:], ""
		if i := strings.IndexByte(member, '/'); i >= 0 {
			member, rest = member[:i], member[i:]
		}
		for i, n := range s.groupNames {
			if n == member {
				if i > 0 {
					test += "#" + strconv.Itoa(i/10) + strconv.Itoa(i%10)
				}
				return test + rest
			}
		}
	}
	return test + rel
}
