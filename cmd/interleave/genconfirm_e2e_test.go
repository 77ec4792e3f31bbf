package main

import (
	"context"
	"encoding/json"
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

// genConfirmHead adds two opt-in findings (IL3001: a plain read of a
// counter written atomically) on changed code that no test runs: Ops,
// exported, which the tests generated for Account call next to Deposit,
// and seen, unexported, which nothing calls.
const genConfirmHead = `package bank

import (
	"sync"
	"sync/atomic"
)

// Account is a balance shared by goroutines.
type Account struct {
	mu   sync.Mutex
	bal  int // guarded by mu
	ops  int64
	hits int64
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
// that only hold a mutex (gen.Options.Guarded in prjob.genTests).
func TestPRGenConfirmsCandidate(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end: builds instrumented tests")
	}
	r := newPRRepo(t)
	base := r.commit(map[string]string{
		"go.mod":            "module example.com/bank\n\ngo 1.22\n",
		"bank/bank.go":      confirmBase,
		"bank/bank_test.go": confirmBaseTest,
	})
	head := r.commit(map[string]string{"bank/bank.go": genConfirmHead})
	lineOf := func(s string) int {
		for i, l := range strings.Split(genConfirmHead, "\n") {
			if strings.Contains(l, s) {
				return i + 1
			}
		}
		t.Fatalf("%q not in bank.go", s)
		return 0
	}
	ops, seen := lineOf("return a.ops"), lineOf("return a.hits")

	out := filepath.Join(r.dir, "out.json")
	sum := filepath.Join(r.dir, "summary.md")
	code, _, stderr := r.runPR("-base", base, "-budget", "5s", "-gen-budget", "20s", "-seed", "3", "-format", "json", "-o", out, "-summary", sum, "-v")
	t.Logf("interleave pr stderr:\n%s", stderr)
	if code != exitFindings {
		t.Fatalf("exit code %d, want %d (findings)", code, exitFindings)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var rep report.JSONReport
	if err := json.Unmarshal(b, &rep); err != nil {
		t.Fatal(err)
	}
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
	if want := "| IL3001 | `bank/bank.go:" + strconv.Itoa(seen) + "` |"; !strings.Contains(string(md), want) {
		t.Errorf("summary lacks the unconfirmed %q:\n%s", want, md)
	}
	if !strings.Contains(stderr, "(1 by a generated test)") {
		t.Errorf("stderr (-v) does not say a generated test confirmed the candidate")
	}

	// Posted: one comment on Ops, with the replay command.
	patch := r.git("diff", base, head, "--", "bank/bank.go")
	patch = patch[strings.Index(patch, "@@"):] + "\n"
	s := ghtest.New(t)
	s.AddToken("ghs_post", true)
	s.AddPull(ghtest.Pull{Owner: "octo", Repo: "demo", Number: 6, HeadSHA: head, BaseSHA: base,
		Files: []ghtest.File{{Filename: "bank/bank.go", Patch: patch}}})
	vars := map[string]string{"GITHUB_TOKEN": "ghs_post", "GITHUB_API_URL": s.URL()}
	if pcode, _, perr := postRun(t, r.dir, vars, "-report", out, "-repo", "octo/demo", "-pr", "6", "-sha", head); pcode != exitOK {
		t.Fatalf("post: exit %d\n%s", pcode, perr)
	}
	var onOps int
	for _, c := range s.ReviewComments("octo", "demo", 6) {
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
