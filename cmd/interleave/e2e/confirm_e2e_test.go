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

const confirmBase = `package bank

import (
	"sync"
	"sync/atomic"
)

// Account is a balance shared by goroutines.
type Account struct {
	mu  sync.Mutex
	bal int // guarded by mu
	ops int64
}

// Deposit adds v.
func (a *Account) Deposit(v int) {
	a.mu.Lock()
	a.bal += v
	a.mu.Unlock()
	atomic.AddInt64(&a.ops, 1)
}

// Balance returns the balance.
func (a *Account) Balance() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.bal
}
`

// confirmHead adds two findings of opt-in rules on changed lines: Peek
// reads bal without the lock (IL1006: no goroutine of the package reaches it, so not IL1004), and a test runs it next to a
// Deposit, so a schedule confirms it as a data race; opCount reads the atomic
// counter plainly (IL3001), but its only test runs after every write and,
// unexported, no generated test calls it, so nothing confirms it.
const confirmHead = confirmBase + `
// Peek returns the balance without waiting for the lock.
func (a *Account) Peek() int {
	return a.bal
}

// opCount returns the number of deposits.
func (a *Account) opCount() int64 {
	return a.ops
}
`

const confirmBaseTest = `package bank

import "testing"

func TestDeposit(t *testing.T) {
	var a Account
	a.Deposit(2)
	if a.Balance() != 2 {
		t.Fatal("bad balance")
	}
}
`

const confirmHeadTest = confirmBaseTest + `
func TestPeek(t *testing.T) {
	var a Account
	done := make(chan bool)
	go func() { a.Deposit(1); done <- true }()
	_ = a.Peek()
	<-done
}

func TestOps(t *testing.T) {
	var a Account
	a.Deposit(1)
	if a.opCount() != 1 {
		t.Fatal("bad count")
	}
}
`

// TestPRConfirmsOptIn runs interleave pr with the default rules on a change
// that adds two opt-in findings: the one a schedule confirms is reported
// (evidence confirmed, its rule ID, a schedule and a replay command) and
// posted as a review comment carrying the replay command; the other is only
// in the job summary, as unconfirmed.
func TestPRConfirmsOptIn(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("end-to-end: builds instrumented tests")
	}
	ch := newPullChange(t, map[string]string{
		"go.mod":            "module example.com/bank\n\ngo 1.22\n",
		"bank/bank.go":      confirmBase,
		"bank/bank_test.go": confirmBaseTest,
	}, map[string]string{"bank/bank.go": confirmHead, "bank/bank_test.go": confirmHeadTest})
	peek := lineIn(t, confirmHead, "func (a *Account) Peek() int") + 1 // return a.bal
	ops := lineIn(t, confirmHead, "return a.ops")

	// Not about generated tests (TestPRGenConfirmsCandidate is): -gen-budget 0.
	sum := filepath.Join(ch.dir, "summary.md")
	rep, out, stderr := ch.prFindings(t, "-budget", "3m", "-count", prCount, "-gen-budget", "0", "-seed", "3", "-summary", sum, "-v")
	var confirmed *report.JSONFinding
	for i, f := range rep.Findings {
		t.Logf("finding %s %s %s:%d %s (%s)", f.Rule, f.Evidence, f.Pos.File, f.Pos.Line, f.Message, f.Replay)
		if f.Rule == "IL3001" {
			t.Errorf("the unconfirmed opt-in finding is in the report: %s", f.Message)
		}
		if f.Rule == "IL1006" && f.Pos.Line == peek {
			confirmed = &rep.Findings[i]
		}
		if f.Kind == checks.DataRace {
			t.Errorf("the race that confirms IL1006 is reported again on its own: %s", f.Message)
		}
	}
	if confirmed == nil || confirmed.Evidence != checks.Confirmed || confirmed.Schedule == "" || confirmed.Replay != "interleave replay "+confirmed.Schedule {
		t.Fatalf("IL1006 on Peek (bank.go:%d) not reported as confirmed with a replay command: %+v", peek, confirmed)
	}
	ch.replays(t, confirmed)
	md, err := os.ReadFile(sum)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"static findings targeted by the search, 1 confirmed by a schedule", "Unconfirmed: 1 finding of opt-in rules or rules below the posting bar, not posted", "| IL3001 | `bank/bank.go:" + strconv.Itoa(ops) + "` |"} {
		if !strings.Contains(string(md), want) {
			t.Errorf("summary lacks %q:\n%s", want, md)
		}
	}
	if !strings.Contains(stderr, "1 finding unconfirmed") || !strings.Contains(stderr, "unconfirmed IL3001 at bank/bank.go:"+strconv.Itoa(ops)) {
		t.Errorf("stderr (-v) does not count and list the unconfirmed finding")
	}

	// Posted: the review comment on Peek carries the replay command.
	var onPeek int
	for _, c := range ch.post(t, out, "bank/bank.go", 5).ReviewComments("octo", "demo", 5) {
		t.Logf("review comment %s:%d:\n%s", c.GetPath(), c.GetLine(), c.GetBody())
		if strings.Contains(c.GetBody(), "IL3001") {
			t.Errorf("the unconfirmed IL3001 finding was posted: %s", c.GetBody())
		}
		if c.GetPath() == "bank/bank.go" && c.GetLine() == peek {
			onPeek++
			// The comment's command carries the schedule (replay -s TOKEN).
			if confirmed.ReplayToken == "" || !strings.Contains(c.GetBody(), "replay -s "+confirmed.ReplayToken) || !strings.Contains(c.GetBody(), "IL1006") {
				t.Errorf("the comment on Peek lacks the rule or the replay command with token %q:\n%s", confirmed.ReplayToken, c.GetBody())
			}
		}
	}
	if onPeek != 1 {
		t.Errorf("%d review comments on bank/bank.go:%d, want 1", onPeek, peek)
	}
}
