package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/interleave-dev/interleave/checks"
	"github.com/interleave-dev/interleave/checks/dynamic/explore"
	"github.com/interleave-dev/interleave/checks/dynamic/rt"
	"github.com/interleave-dev/interleave/internal/testctx"
	"github.com/interleave-dev/interleave/report"
)

const e2eBase = `package bank

import "sync"

// Account is a balance shared by goroutines.
type Account struct {
	mu  sync.Mutex
	bal int
	n   int
}

// Deposit adds v.
func (a *Account) Deposit(v int) {
	a.mu.Lock()
	a.bal += v
	a.n++
	a.mu.Unlock()
}

// Balance returns the balance.
func (a *Account) Balance() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.bal
}

// Reset empties the account.
func (a *Account) Reset() {
	a.mu.Lock()
	a.bal, a.n = 0, 0
	a.mu.Unlock()
}

// Ops returns the number of deposits.
func (a *Account) Ops() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.n
}

// Count is a pre-existing bug the pull request does not touch: n is read
// without the lock.
func (a *Account) Count() int {
	return a.n
}
`

// e2eHead adds a race (Withdraw writes bal without the lock) and a deadlock
// (Transfer locks the two accounts in argument order).
const e2eHead = e2eBase + `
// Withdraw takes v out.
func (a *Account) Withdraw(v int) {
	a.bal -= v
}

// Transfer moves v from a to b.
func Transfer(a, b *Account, v int) {
	a.mu.Lock()
	b.mu.Lock()
	a.bal -= v
	b.bal += v
	b.mu.Unlock()
	a.mu.Unlock()
}
`

const e2eBaseTest = `package bank

import "testing"

func TestDeposit(t *testing.T) {
	var a Account
	a.Deposit(2)
	if a.Balance() != 2 || a.Count() != 1 {
		t.Fatal("bad balance")
	}
}
`

const e2eHeadTest = e2eBaseTest + `
func TestWithdraw(t *testing.T) {
	var a Account
	done := make(chan bool)
	go func() { a.Deposit(1); done <- true }()
	a.Withdraw(1)
	<-done
}

func TestTransfer(t *testing.T) {
	var a, b Account
	done := make(chan bool)
	go func() { Transfer(&a, &b, 1); done <- true }()
	Transfer(&b, &a, 1)
	<-done
}
`

// TestPREndToEnd runs interleave pr on a repository whose head commit adds
// a race and a deadlock reached by tests, next to an old bug it leaves
// alone.
func TestPREndToEnd(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("end-to-end: builds instrumented tests")
	}
	r := newPRRepo(t)
	base := r.commit(map[string]string{
		"go.mod":            "module example.com/bank\n\ngo 1.22\n",
		"bank/bank.go":      e2eBase,
		"bank/bank_test.go": e2eBaseTest,
	})
	r.commit(map[string]string{"bank/bank.go": e2eHead, "bank/bank_test.go": e2eHeadTest})

	lineOf := func(file, s string) int {
		b, _ := os.ReadFile(filepath.Join(r.dir, file))
		for i, l := range strings.Split(string(b), "\n") {
			if strings.Contains(l, s) {
				return i + 1
			}
		}
		t.Fatalf("%q not in %s", s, file)
		return 0
	}
	oldBug := lineOf("bank/bank.go", "func (a *Account) Count() int") + 1 // return a.n
	firstNew := lineOf("bank/bank.go", "// Withdraw takes v out.")
	newBankLines := strings.Count(e2eHead, "\n") // bank.go lines [firstNew, newBankLines] are added
	firstNewTest := lineOf("bank/bank_test.go", "func TestWithdraw")
	onChanged := func(file string, line int) bool {
		switch filepath.ToSlash(file) {
		case "bank/bank.go":
			return line >= firstNew && line <= newBankLines
		case "bank/bank_test.go":
			return line >= firstNewTest
		}
		return false
	}

	out := filepath.Join(r.dir, "out.json")
	sum := filepath.Join(r.dir, "summary.md")
	code, _, stderr := r.runPR("-enable", "IL1001", "-base", base, "-budget", "3m", "-count", prCount, "-gen-budget", "0", "-format", "json", "-o", out, "-summary", sum, "-v")
	t.Logf("interleave pr stderr:\n%s", stderr)
	if code != exitFindings {
		t.Fatalf("exit code %d, want %d (findings)", code, exitFindings)
	}
	for _, stage := range []string{"diff ", "load ", "static ", "affected ", "dynamic ", "report "} {
		if !strings.Contains(stderr, stage) {
			t.Errorf("-v output lacks the %q stage timing", stage)
		}
	}
	if !strings.Contains(stderr, "example.com/bank/bank TestTransfer: the test itself changed at bank/bank_test.go:") {
		t.Errorf("TestTransfer not listed as an affected test")
	}
	rep, err := report.ReadJSON(out)
	if err != nil {
		t.Fatal(err)
	}
	// The race confirms the guarded-by finding on Withdraw (IL1001 is opt-in,
	// enabled above); the deadlock is
	// found on Transfer's second Lock. Each replays in a fresh process.
	withdrawLine := lineOf("bank/bank.go", "a.bal -= v")
	var race, deadlock *report.JSONFinding
	for i, f := range rep.Findings {
		t.Logf("finding %s %s %s:%d %s (%s)", f.Rule, f.Evidence, f.Pos.File, f.Pos.Line, f.Message, f.Schedule)
		if filepath.ToSlash(f.Pos.File) == "bank/bank.go" && f.Pos.Line == oldBug {
			t.Errorf("pre-existing bug at bank.go:%d reported under the default scope: %s", oldBug, f.Message)
		}
		if !onChanged(f.Pos.File, f.Pos.Line) && !relatedOnChanged(f.Finding, onChanged) {
			t.Errorf("finding %s at %s:%d is not on a changed line", f.Rule, f.Pos.File, f.Pos.Line)
		}
		if f.Kind == checks.TestFailure && strings.Contains(f.Message, raceFailure) {
			t.Errorf("the race is reported twice, again as the test failure it causes: %s", f.Message)
		}
		switch {
		case f.Rule == "IL1001" && f.Pos.Line == withdrawLine:
			race = &rep.Findings[i]
		case f.Kind == checks.Deadlock:
			deadlock = &rep.Findings[i]
		}
	}
	if race == nil || race.Evidence != checks.Confirmed || race.Schedule == "" {
		t.Errorf("the race on Withdraw is not reported once as confirmed with a schedule: %+v", race)
	}
	if deadlock == nil || deadlock.Schedule == "" {
		t.Errorf("the deadlock in Transfer is not reported with a schedule: %+v", deadlock)
	}
	// Both schedules are of one package: replayed with one build.
	var replayed []*report.JSONFinding
	var scheds []*rt.Schedule
	for _, f := range []*report.JSONFinding{race, deadlock} {
		if f == nil || f.Schedule == "" {
			continue
		}
		if want := "interleave replay " + f.Schedule; f.Replay != want {
			t.Errorf("replay command %q, want %q", f.Replay, want)
		}
		sched, err := explore.ReadSchedule(filepath.Join(r.dir, filepath.FromSlash(f.Schedule)))
		if err != nil {
			t.Errorf("replay %s: %v", f.Schedule, err)
			continue
		}
		replayed, scheds = append(replayed, f), append(scheds, sched)
	}
	results, errs := explore.ReplayMany(testctx.New(t), scheds, explore.ReplayOptions{Dir: r.dir})
	for i, f := range replayed {
		if errs[i] != nil {
			t.Errorf("replay %s: %v", f.Schedule, errs[i])
			continue
		}
		if results[i].Outcome != explore.Reproduced {
			t.Errorf("replay %s: %s, want %s", f.Schedule, results[i].Outcome, explore.Reproduced)
		}
	}
	md, err := os.ReadFile(sum)
	if err != nil || !strings.Contains(string(md), "Affected tests, in search order") {
		t.Errorf("summary lacks the affected tests: %v\n%s", err, md)
	}

	// Sharded: each shard searches its own test and writes JSON; merge
	// reports every finding once.
	var shards []string
	for i := 1; i <= 2; i++ {
		name := filepath.Join(r.dir, fmt.Sprintf("shard%d.json", i))
		// Not about generated tests (shard 1/2 would run them): -gen-budget 0.
		code, _, stderr := r.runPR("-enable", "IL1001", "-base", base, "-budget", "3m", "-count", prCount, "-gen-budget", "0", "-seed", "7", "-shard", fmt.Sprintf("%d/2", i), "-o", name)
		if code != exitOK || !strings.Contains(stderr, "dynamic search: 1 test,") {
			t.Fatalf("shard %d/2: exit %d, want %d and one test searched:\n%s", i, code, exitOK, stderr)
		}
		shards = append(shards, name)
	}
	env, mstdout, mstderr := testEnv(t, r.dir)
	if code := runMain(context.Background(), env, append([]string{"merge", "-format", "json"}, shards...)); code != exitFindings {
		t.Fatalf("merge: exit %d, want %d\n%s", code, exitFindings, mstderr)
	}
	var merged report.JSONReport
	if err := json.Unmarshal(mstdout.Bytes(), &merged); err != nil {
		t.Fatal(err)
	}
	seenFP := map[string]bool{}
	withdrawReported := 0
	for _, f := range merged.Findings {
		if seenFP[f.Fingerprint] {
			t.Errorf("merge reports %s twice", f.Fingerprint)
		}
		seenFP[f.Fingerprint] = true
		if f.Rule == "IL1001" && f.Pos.Line == withdrawLine {
			withdrawReported++
		}
	}
	if withdrawReported != 1 {
		t.Errorf("merged report has the Withdraw finding %d times, want once: %s", withdrawReported, mstdout)
	}

	// The old bug is there to be found: -scope package reports it (static
	// only, to keep this quick). Count's unlocked read in an exported
	// method is IL1001's part IL1008.
	code, stdout, stderr := r.runPR("-enable", "IL1001,IL1008", "-base", base, "-budget", "0", "-scope", "package", "-format", "json")
	var all report.JSONReport
	if err := json.Unmarshal([]byte(stdout), &all); err != nil {
		t.Fatalf("-scope package: %v (exit %d)\n%s", err, code, stderr)
	}
	found := false
	for _, f := range all.Findings {
		found = found || filepath.ToSlash(f.Pos.File) == "bank/bank.go" && f.Pos.Line == oldBug
	}
	if !found {
		t.Errorf("-scope package does not report the old bug at bank.go:%d, so the default-scope check proves nothing; findings: %v", oldBug, all.Findings)
	}
}

func relatedOnChanged(f checks.Finding, on func(string, int) bool) bool {
	for _, r := range f.Related {
		if on(r.File, r.Line) {
			return true
		}
	}
	for _, g := range f.Goroutines {
		if file, line, ok := splitSite(g.Site); ok && on(file, line) {
			return true
		}
	}
	return false
}

// raceFailure is how the testing package fails a test in which the race
// detector reported a race (testing.go, tRunner).
const raceFailure = "race detected during execution of test"

// splitSite splits a goroutine's site, "file:line" or "file:line:col".
func splitSite(site string) (string, int, bool) {
	rest, last, ok := cutLast(site)
	if !ok {
		return "", 0, false
	}
	n, err := strconv.Atoi(last)
	if err != nil {
		return "", 0, false
	}
	if file, line, ok := cutLast(rest); ok {
		if l, err := strconv.Atoi(line); err == nil {
			return file, l, true // file:line:col
		}
	}
	return rest, n, true
}

func cutLast(s string) (before, after string, ok bool) {
	i := strings.LastIndexByte(s, ':')
	if i < 0 {
		return s, "", false
	}
	return s[:i], s[i+1:], true
}
