package main

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/interleave-dev/interleave/checks"
	"github.com/interleave-dev/interleave/checks/dynamic/explore"
	"github.com/interleave-dev/interleave/report"
	"github.com/interleave-dev/interleave/report/github/ghtest"
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
	if testing.Short() {
		t.Skip("end-to-end: builds instrumented tests")
	}
	r := newPRRepo(t)
	base := r.commit(map[string]string{
		"go.mod":            "module example.com/bank\n\ngo 1.22\n",
		"bank/bank.go":      confirmBase,
		"bank/bank_test.go": confirmBaseTest,
	})
	head := r.commit(map[string]string{"bank/bank.go": confirmHead, "bank/bank_test.go": confirmHeadTest})
	lineOf := func(s string) int {
		for i, l := range strings.Split(confirmHead, "\n") {
			if strings.Contains(l, s) {
				return i + 1
			}
		}
		t.Fatalf("%q not in bank.go", s)
		return 0
	}
	peek := lineOf("func (a *Account) Peek() int") + 1 // return a.bal
	ops := lineOf("return a.ops")

	out := filepath.Join(r.dir, "out.json")
	sum := filepath.Join(r.dir, "summary.md")
	code, _, stderr := r.runPR("-base", base, "-budget", "5s", "-seed", "3", "-format", "json", "-o", out, "-summary", sum, "-v")
	t.Logf("interleave pr stderr:\n%s", stderr)
	if code != exitFindings {
		t.Fatalf("exit code %d, want %d (findings)", code, exitFindings)
	}
	rep, err := report.ReadJSON(out)
	if err != nil {
		t.Fatal(err)
	}
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
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	rr, err := explore.Replay(ctx, filepath.Join(r.dir, filepath.FromSlash(confirmed.Schedule)), explore.ReplayOptions{Dir: r.dir})
	cancel()
	if err != nil || rr.Outcome != explore.Reproduced {
		t.Errorf("replay %s: %v, %v; want %s", confirmed.Schedule, rr, err, explore.Reproduced)
	}
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
	patch := r.git("diff", base, head, "--", "bank/bank.go")
	patch = patch[strings.Index(patch, "@@"):] + "\n"
	s := ghtest.New(t)
	s.AddToken("ghs_post", true)
	s.AddPull(ghtest.Pull{Owner: "octo", Repo: "demo", Number: 5, HeadSHA: head, BaseSHA: base,
		Files: []ghtest.File{{Filename: "bank/bank.go", Patch: patch}}})
	vars := map[string]string{"GITHUB_TOKEN": "ghs_post", "GITHUB_API_URL": s.URL()}
	pcode, _, perr := postRun(t, r.dir, vars, "-report", out, "-repo", "octo/demo", "-pr", "5", "-sha", head)
	if pcode != exitOK {
		t.Fatalf("post: exit %d\n%s", pcode, perr)
	}
	var onPeek int
	for _, c := range s.ReviewComments("octo", "demo", 5) {
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
