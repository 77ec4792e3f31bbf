package explore

import (
	"strings"
	"testing"

	"github.com/interleave-dev/interleave/checks"
)

// TestLogSubtestFailedFirst: go test -v writes parallel subtests' entries
// as they are logged, under === NAME lines; the failure is named after the
// subtest of the first failing entry, not the first subtest that failed.
func TestLogSubtestFailedFirst(t *testing.T) {
	t.Parallel()
	p := &stdoutParser{cur: -1, logs: map[int][]string{}, subs: map[int][]string{}, indent: -1, seen: &activity{}}
	p.Write([]byte(strings.Join([]string{
		"=== RUN   TestInterleaveDriver/schedule-3",
		"=== RUN   TestInterleaveDriver/schedule-3/late",
		"=== PAUSE TestInterleaveDriver/schedule-3/late",
		"=== RUN   TestInterleaveDriver/schedule-3/early",
		"=== CONT  TestInterleaveDriver/schedule-3/early",
		"    x_test.go:56: early: n = 1, want 2",
		"=== NAME  TestInterleaveDriver/schedule-3/late/inner",
		"    x_test.go:43: late: n = 1, want 2",
		"",
	}, "\n")))
	if got := strings.Join(p.subs[3], ","); got != "early,late" {
		t.Fatalf("subtests of the entries %q, want early,late (logs %q)", got, p.logs[3])
	}
	f := &failure{kind: checks.TestFailure, message: "test failed", subtest: "late"}
	withLog(f, p.logs[3], p.subs[3], t.TempDir())
	if f.subtest != "early" || !strings.Contains(f.message, "early: n = 1") {
		t.Errorf("failure of %q: %q; want early's", f.subtest, f.message)
	}
}
