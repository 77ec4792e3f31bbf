package prjob

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/interleave-dev/interleave/affected"
	"github.com/interleave-dev/interleave/checks"
	"github.com/interleave-dev/interleave/checks/dynamic/explore"
)

func TestShardTestsPartition(t *testing.T) {
	var all []string
	tests := make([]affected.Test, 10)
	for i := range tests {
		tests[i].Name = string(rune('A' + i))
	}
	seen := map[string]int{}
	for i := 1; i <= 3; i++ {
		for _, tt := range shardTests(tests, i, 3) {
			seen[tt.Name]++
			all = append(all, tt.Name)
		}
	}
	if len(all) != 10 || len(seen) != 10 {
		t.Errorf("shards cover %v, want each of 10 tests once", all)
	}
	if got := shardTests(tests, 1, 3); got[0].Name != "A" || got[1].Name != "D" {
		t.Errorf("shard 1/3 = %v, want round robin from the best test", got)
	}
}

func TestConfirmFindings(t *testing.T) {
	dir := "/repo"
	guarded := checks.Finding{Rule: "IL1001", Severity: checks.Warning, Message: "field a.bal written without holding a.mu", Evidence: checks.Static,
		Pos: checks.Position{File: "/repo/bank.go", Line: 20}, Package: "example.com/bank", Func: "(*Account).Withdraw", Snippet: "a.bal -= v"}
	order := checks.Finding{Rule: "IL2101", Severity: checks.Error, Message: "lock order", Evidence: checks.Static,
		Pos: checks.Position{File: "/repo/bank.go", Line: 30}, Related: []checks.Related{{Position: checks.Position{File: "/repo/bank.go", Line: 31}}}}
	race := checks.Finding{Rule: checks.DynamicRuleID(checks.DataRace), Severity: checks.Error, Evidence: checks.Dynamic, Kind: checks.DataRace,
		Test: "TestWithdraw", Pos: checks.Position{File: "/repo/bank.go", Line: 12}, Related: []checks.Related{{Position: checks.Position{File: "bank.go", Line: 20}}},
		Schedule: "/repo/.interleave/schedules/x.json", Replay: "interleave replay .interleave/schedules/x.json"}
	deadlockElsewhere := checks.Finding{Rule: checks.DynamicRuleID(checks.Deadlock), Severity: checks.Error, Evidence: checks.Dynamic, Kind: checks.Deadlock,
		Test: "TestOther", Goroutines: []checks.Goroutine{{ID: "g1", Site: "/repo/bank.go:20"}}}
	deadlock := checks.Finding{Rule: checks.DynamicRuleID(checks.Deadlock), Severity: checks.Error, Evidence: checks.Dynamic, Kind: checks.Deadlock,
		Test: "TestTransfer", Goroutines: []checks.Goroutine{{ID: "g1", Site: "/repo/other.go:3"}, {ID: "g2", Site: "/repo/bank.go:31"}}, Schedule: "d.json"}

	raceFail := checks.Finding{Rule: checks.DynamicRuleID(checks.TestFailure), Severity: checks.Error, Evidence: checks.Dynamic, Kind: checks.TestFailure,
		Test: "TestWithdraw", Message: "TestWithdraw: test failed: testing.go:1712: race detected during execution of test"}
	got := confirm([]checks.Finding{guarded, order}, []checks.Finding{race, raceFail, deadlockElsewhere, deadlock}, dir)
	if len(got) != 3 {
		t.Fatalf("got %d findings, want 3 (two confirmed, one unrelated deadlock; the race's test failure dropped): %+v", len(got), got)
	}
	if got[0].Evidence != checks.Confirmed || got[0].Schedule != race.Schedule || got[0].Severity != checks.Error || got[0].Fingerprint() != guarded.Fingerprint() {
		t.Errorf("guarded-by finding not confirmed by the race: %+v", got[0])
	}
	if got[1].Evidence != checks.Confirmed || got[1].Schedule != "d.json" {
		t.Errorf("lock-order finding not confirmed by the deadlock at its related site: %+v", got[1])
	}
	// A deadlock does not confirm a guarded-by finding even at its site.
	if got[2].Test != "TestOther" || got[2].Evidence != checks.Dynamic {
		t.Errorf("third finding = %+v, want the unrelated deadlock kept as dynamic", got[2])
	}
}

// TestRunCouldNotRun: a job that cannot start returns the error, and the
// summary says why, so the pull request shows the reason.
func TestRunCouldNotRun(t *testing.T) {
	dir := t.TempDir() // not a repository
	var stdout, stderr strings.Builder
	res, err := Run(context.Background(), Options{Dir: dir, Config: Config{Base: "main", Head: "HEAD", Format: "text", Summary: "sum.md"}}, &stdout, &stderr)
	if err == nil || res != nil || !strings.Contains(err.Error(), "is not in a git repository") {
		t.Fatalf("Run = %v, %v; want no result and the error that %s is not a repository", res, err, dir)
	}
	if !strings.Contains(stderr.String(), "interleave pr: ") || stdout.Len() != 0 {
		t.Errorf("stdout %q, stderr %q: want the error logged on stderr only", stdout.String(), stderr.String())
	}
	md, rerr := os.ReadFile(filepath.Join(dir, "sum.md"))
	if rerr != nil || !strings.Contains(string(md), "## interleave could not run") || !strings.Contains(string(md), "is not in a git repository") {
		t.Errorf("summary %q (%v): want why the job could not run", md, rerr)
	}
}

// TestCheckPlainUnconfirmed (issue 21): a failure no base commit can
// confirm, whose search did not run plain go test, is run under plain go
// test before it is posted, and labelled with what it did; one the base
// decided, or already labelled, is left alone, and so is one whose base
// replay found no time left in the budget (its plain runs would run past
// it; it goes to the summary, not compared).
func TestCheckPlainUnconfirmed(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a test binary; skipped with -short")
	}
	dir, err := filepath.Abs("../../checks/dynamic/testdata/kernels")
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "fanin", "fanin_test.go")
	sum := checks.Finding{Kind: checks.TestFailure, Package: "kernels/fanin", Test: "TestSumWaitGroupAddInside",
		Message: "TestSumWaitGroupAddInside: test failed: fanin_test.go:58: sum = 0, want 6", Pos: checks.Position{File: file, Line: 56}}
	labelled := sum
	labelled.PlainGo = &checks.PlainGo{Runs: 3}
	dyn := []checks.Finding{sum, sum, labelled, sum}
	verdicts := []explore.BaseVerdict{{How: noBase, Unconfirmed: true}, {How: "its schedule passes on the base commit"}, {How: noBase, Unconfirmed: true},
		{How: "no time was left in the budget to replay it on the base commit", Unconfirmed: true, Uncompared: true, NoTime: true}}
	r := &job{opts: &Options{}, change: &affected.Change{ModuleDir: dir}}
	r.checkPlain(context.Background(), dyn, verdicts)
	if p := dyn[0].PlainGo; !p.Fails() || p.ExitCode != 1 {
		t.Errorf("unconfirmed: label %+v, want plain go test fails too (exit 1)", p)
	}
	if dyn[1].PlainGo != nil || dyn[2].PlainGo.Failed != 0 {
		t.Errorf("the base's verdict or an existing label was replaced: %+v, %+v", dyn[1].PlainGo, dyn[2].PlainGo)
	}
	if dyn[3].PlainGo != nil {
		t.Errorf("no time left, yet run under plain go test: %+v", dyn[3].PlainGo)
	}
	if len(r.notes) > 0 {
		t.Errorf("notes %q", r.notes)
	}
}

// TestUnsearchedBudgetStop (e2e TestPRCgoPackageLeftOut at load): a
// search whose budget ended before its test processes started a
// schedule, none seen hanging, is a note that the affected tests were not
// searched, as with no tests; a process that hung still fails the job.
func TestUnsearchedBudgetStop(t *testing.T) {
	r := &job{}
	stop := fmt.Errorf("%w:\nthe test process was stopped at the end of its share of the budget before its first schedule, 900ms after its last output: not seen hanging (the watchdog's limit is 5s); a larger budget gives it time to start; its last output:\n(none)", explore.ErrNoScheduleInBudget)
	if !r.unsearched(stop) || len(r.notes) != 1 || !strings.HasPrefix(r.notes[0], "the affected tests were not searched: "+explore.ErrNoScheduleInBudget.Error()+": the test process was stopped") || strings.Contains(r.notes[0], "\n") {
		t.Errorf("notes %q; want one line saying the affected tests were not searched", r.notes)
	}
	r = &job{}
	if r.unsearched(errors.New("the instrumented test binary ran no schedules:\nthe test process hung before its first schedule")) || len(r.notes) > 0 {
		t.Errorf("a hang became the notes %q; want the job to fail", r.notes)
	}
	if !r.unsearched(&explore.NoTestsError{What: "no Test functions"}) || len(r.notes) != 1 {
		t.Errorf("no tests: notes %q, want one", r.notes)
	}
}
