//go:build heavy

package e2e

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/interleave-dev/interleave/checks"
	"github.com/interleave-dev/interleave/report"
)

// genConfirmHead adds two opt-in findings (IL3001: a plain read of a
// counter written atomically) on changed code that no test runs: Ops,
// exported, which the tests generated for Account call next to Deposit,
// and seen, unexported, which nothing calls.
var genConfirmHead = strings.Replace(confirmBase, "\tops int64\n", "\tops int64\n\thits int64\n", 1) + `
// Ops returns the number of deposits.
func (a *Account) Ops() int64 {
	return a.ops
}

// hit counts a lookup.
func (a *Account) hit() { atomic.AddInt64(&a.hits, 1) }

// seen returns the lookups.
func (a *Account) seen() int64 { return a.hits }
`

// TestPRGenConfirmsCandidate: a static candidate on changed code that no
// existing test reaches is confirmed by a generated test's schedule and
// posted with it, replaying; the candidate nothing reaches is only in the
// job summary. Fails without the confirmation of candidates by generated
// findings (prjob.addGenFindings), or with pr not generating for types
// that only hold a mutex (gen.Options.Guarded in prjob.genTests). Both
// also fail TestPRGenAccessPairs (its Pool and Chain claim nothing but
// hold a mutex, and its candidates are confirmed only by generated tests),
// which runs by default; this one is behind -tags heavy (scripts/heavy.sh).
func TestPRGenConfirmsCandidate(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("end-to-end: builds instrumented tests")
	}
	ch := newPullChange(t, map[string]string{
		"go.mod":            "module example.com/bank\n\ngo 1.22\n",
		"bank/bank.go":      confirmBase,
		"bank/bank_test.go": confirmBaseTest,
	}, map[string]string{"bank/bank.go": genConfirmHead})
	ops, seen := lineIn(t, genConfirmHead, "return a.ops"), lineIn(t, genConfirmHead, "return a.hits")

	sum := filepath.Join(ch.dir, "summary.md")
	rep, out, stderr := ch.prFindings(t, "-budget", "3m", "-gen-budget", "3m", "-count", prCount, "-workers", prWorkers, "-seed", "3", "-summary", sum, "-v")
	var confirmed *report.JSONFinding
	for i, f := range rep.Findings {
		t.Logf("finding %s %s %s:%d %s (%s)", f.Rule, f.Evidence, f.Pos.File, f.Pos.Line, f.Message, f.Replay)
		switch {
		case f.Rule == "IL3001" && f.Pos.Line == ops:
			confirmed = &rep.Findings[i]
		case f.Pos.Line == seen:
			t.Errorf("the candidate no schedule reaches is in the report: %s", f.Message)
		case f.Kind == checks.DataRace:
			t.Errorf("the race that confirms IL3001 is reported again on its own: %s", f.Message)
		}
	}
	if confirmed == nil || confirmed.Evidence != checks.Confirmed || !strings.Contains(confirmed.Test, "TestInterleaveGen_Account") ||
		confirmed.Schedule == "" || confirmed.Replay != "interleave replay "+confirmed.Schedule {
		t.Fatalf("IL3001 on Ops (bank.go:%d) not reported as confirmed by a generated test with a replay command: %+v", ops, confirmed)
	}
	ch.replays(t, confirmed)
	md, err := os.ReadFile(sum)
	if err != nil {
		t.Fatal(err)
	}
	if want := "| IL3001 | `bank/bank.go:" + strconv.Itoa(seen) + "` |"; !strings.Contains(string(md), want) {
		t.Errorf("summary lacks the unconfirmed %q:\n%s", want, md)
	}
	if !strings.Contains(stderr, "(1 by a generated test)") {
		t.Errorf("stderr (-v) does not say a generated test confirmed the candidate")
	}

	// Posted: one comment on Ops, with the replay command.
	var onOps int
	for _, c := range ch.post(t, out, "bank/bank.go", 6).ReviewComments("octo", "demo", 6) {
		t.Logf("review comment %s:%d:\n%s", c.GetPath(), c.GetLine(), c.GetBody())
		if c.GetLine() == seen {
			t.Errorf("the unconfirmed candidate was posted: %s", c.GetBody())
		}
		if c.GetPath() == "bank/bank.go" && c.GetLine() == ops {
			onOps++
			if !strings.Contains(c.GetBody(), "IL3001") || !strings.Contains(c.GetBody(), "replay -s "+confirmed.ReplayToken) {
				t.Errorf("the comment on Ops lacks the rule or the replay command:\n%s", c.GetBody())
			}
		}
	}
	if onOps != 1 {
		t.Errorf("%d review comments on bank/bank.go:%d, want 1", onOps, ops)
	}
}
