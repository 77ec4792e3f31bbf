package prjob

import (
	"fmt"
	"strings"
	"testing"

	"github.com/interleave-dev/interleave/checks"
	"github.com/interleave-dev/interleave/checks/static"
)

func TestPRStaticEnable(t *testing.T) {
	for _, tt := range []struct {
		enable, disable []string
		want            string
	}{
		{nil, nil, "all"},
		{[]string{"IL1001"}, []string{"IL6001"}, "IL1001 all"},
		{[]string{"IL1001"}, []string{"all"}, "IL1001"}, // started from none: no candidates
		{[]string{"all"}, nil, "all"},
	} {
		if got := strings.Join(staticEnable(tt.enable, tt.disable), " "); got != tt.want {
			t.Errorf("staticEnable(%q, %q) = %q, want %q", tt.enable, tt.disable, got, tt.want)
		}
	}
}

func TestPRSplitCandidates(t *testing.T) {
	fs := []checks.Finding{
		{Rule: "IL1001", Evidence: checks.Static}, // opt-in
		{Rule: "IL2001", Evidence: checks.Static}, // default, held-out precision 8/11: below the bar
		{Rule: "IL2002", Evidence: checks.Static}, // default, made to clear the bar below
		{Rule: "IL2003", Evidence: checks.Static}, // default, 2/2: too few to post
		{Rule: "IL1002", Evidence: checks.Static}, // default, not measured
		{Rule: "IL2101", Evidence: checks.Static}, // opt-in, enabled by slug below
		{Rule: "IL3002", Evidence: checks.Static}, // default, 6/11, enabled by ID below
		{Rule: "IL0002", Evidence: checks.Static}, // the tool's own
		{Rule: "IL9003", Evidence: checks.Dynamic},
	}
	clearBar(t, "IL2002")
	rep, cand := splitCandidates(fs, []string{"lock-order-inversion", "IL3002"})
	var r, c []string
	for _, f := range rep {
		r = append(r, f.Rule)
	}
	for _, f := range cand {
		c = append(c, f.Rule)
	}
	if strings.Join(r, " ") != "IL2002 IL2101 IL3002 IL0002 IL9003" || strings.Join(c, " ") != "IL1001 IL2001 IL2003 IL1002" {
		t.Errorf("reported %v, candidates %v", r, c)
	}
	if _, cand := splitCandidates(fs, []string{"all"}); len(cand) != 0 {
		t.Errorf("-enable all leaves candidates %v", cand)
	}
}

// Issue 24: what a pull request is shown follows measured precision. On
// changed lines, an IL2001 finding no schedule confirms goes to the
// summary only; one a data race confirms is reported (and so posted); an
// IL2002 finding is reported unconfirmed while its rule clears the bar.
func TestPRPostingFollowsPrecision(t *testing.T) {
	clearBar(t, "IL2002")
	dir := "/repo"
	pos := func(line int) checks.Position { return checks.Position{File: "/repo/cache.go", Line: line} }
	unconfirmed := checks.Finding{Rule: "IL2001", Severity: checks.Error, Message: "hits written under RLock", Evidence: checks.Static, Pos: pos(12)}
	confirmed := checks.Finding{Rule: "IL2001", Severity: checks.Error, Message: "misses written under RLock", Evidence: checks.Static, Pos: pos(30)}
	held := checks.Finding{Rule: "IL2002", Severity: checks.Error, Message: "c.mu still held at return", Evidence: checks.Static, Pos: pos(44)}
	race := checks.Finding{Rule: checks.DynamicRuleID(checks.DataRace), Severity: checks.Error, Evidence: checks.Dynamic, Kind: checks.DataRace,
		Test: "TestLookup", Pos: pos(30), Related: []checks.Related{{Position: pos(30)}}, Schedule: "/repo/s/race.json", Replay: "interleave replay s/race.json"}

	reported, candidates := splitCandidates([]checks.Finding{unconfirmed, confirmed, held}, nil)
	st := &confirmStats{searched: true}
	got := confirmAll(reported, candidates, []checks.Finding{race}, dir, st)
	var rep []string
	for _, f := range got {
		rep = append(rep, fmt.Sprintf("%s:%d:%s", f.Rule, f.Pos.Line, f.Evidence))
	}
	if want := "IL2002:44:static IL2001:30:confirmed"; strings.Join(rep, " ") != want {
		t.Errorf("report %v, want %s", rep, want)
	}
	sum := st.summary(dir)
	if !strings.Contains(sum, "| IL2001 | `cache.go:12` | hits written under RLock |") || strings.Contains(sum, "cache.go:44") {
		t.Errorf("summary does not list the unconfirmed IL2001 alone:\n%s", sum)
	}
}

// An opt-in finding a schedule confirms is reported as confirmed with the
// schedule; one nothing confirms is dropped from the report and kept for
// the summary; a deadlock whose stacks pass through a lock-order finding's
// two acquisition sites confirms it even though the goroutines block
// elsewhere.
func TestPRConfirmAll(t *testing.T) {
	clearBar(t, "IL2002")
	dir := "/repo"
	pos := func(file string, line int) checks.Position { return checks.Position{File: file, Line: line} }
	held := checks.Finding{Rule: "IL2002", Severity: checks.Error, Message: "lock held at return", Evidence: checks.Static, Pos: pos("/repo/ledger.go", 41)}
	unguarded := checks.Finding{Rule: "IL1001", Severity: checks.Warning, Message: "read without lock", Evidence: checks.Static, Pos: pos("/repo/account.go", 51),
		Related: []checks.Related{{Position: pos("/repo/account.go", 31)}}}
	order := checks.Finding{Rule: "IL2101", Severity: checks.Error, Message: "lock order", Evidence: checks.Static, Pos: pos("/repo/bank.go", 36), Snippet: "b.ledger.Record(e)",
		Related: []checks.Related{{Position: pos("/repo/ledger.go", 58)}, {Position: pos("/repo/bank.go", 29)}}}
	mixed := checks.Finding{Rule: "IL3001", Severity: checks.Warning, Message: "mixed atomic", Evidence: checks.Static, Pos: pos("/repo/bank.go", 79)}
	race := checks.Finding{Rule: checks.DynamicRuleID(checks.DataRace), Severity: checks.Error, Evidence: checks.Dynamic, Kind: checks.DataRace,
		Test: "TestInterest", Pos: pos("account.go", 31), Related: []checks.Related{{Position: pos("account.go", 51)}},
		Schedule: "/repo/s/race.json", Replay: "interleave replay s/race.json"}
	deadlock := checks.Finding{Rule: checks.DynamicRuleID(checks.Deadlock), Severity: checks.Error, Evidence: checks.Dynamic, Kind: checks.Deadlock,
		Test: "TestAudit", Schedule: "/repo/s/dl.json", Replay: "interleave replay s/dl.json", Goroutines: []checks.Goroutine{
			{ID: "g1", Site: "/repo/ledger.go:28", Stack: []checks.Frame{{File: "/repo/ledger.go", Line: 28}, {File: "/repo/bank.go", Line: 36}}},
			{ID: "g2", Site: "/repo/bank.go:49", Stack: []checks.Frame{{File: "/repo/bank.go", Line: 49}, {File: "/repo/ledger.go", Line: 58}}},
		}}
	// A deadlock that passes through only one of the finding's sites
	// confirms nothing.
	other := checks.Finding{Rule: checks.DynamicRuleID(checks.Deadlock), Severity: checks.Error, Evidence: checks.Dynamic, Kind: checks.Deadlock,
		Test: "TestOther", Goroutines: []checks.Goroutine{{ID: "g1", Site: "/repo/bank.go:62", Stack: []checks.Frame{{File: "/repo/bank.go", Line: 62}, {File: "/repo/bank.go", Line: 36}}}}}

	st := &confirmStats{searched: true}
	got := confirmAll([]checks.Finding{held}, []checks.Finding{unguarded, order, mixed}, []checks.Finding{other, race, deadlock}, dir, st)
	byRule := map[string]checks.Finding{}
	for _, f := range got {
		byRule[f.Rule] = f
	}
	if len(got) != 4 {
		t.Fatalf("got %d findings, want 4 (IL2002, IL1001 and IL2101 confirmed, the other deadlock): %+v", len(got), got)
	}
	if f := byRule["IL1001"]; f.Evidence != checks.Confirmed || f.Replay != race.Replay || f.Test != "TestInterest" {
		t.Errorf("IL1001 not confirmed by the race: %+v", f)
	}
	if f := byRule["IL2101"]; f.Evidence != checks.Confirmed || f.Replay != deadlock.Replay || f.Fingerprint() != order.Fingerprint() {
		t.Errorf("IL2101 not confirmed by the deadlock through both acquisitions: %+v", f)
	}
	if f := byRule["IL2002"]; f.Evidence != checks.Static {
		t.Errorf("IL2002 (posted rule, unconfirmed) must stay reported as static: %+v", f)
	}
	if f := byRule["IL9003"]; f.Test != "TestOther" {
		t.Errorf("the unrelated deadlock must stay: %+v", got)
	}
	if _, ok := byRule["IL3001"]; ok {
		t.Error("the unconfirmed opt-in IL3001 is in the report")
	}
	if st.targeted != 4 || st.confirmed != 2 || len(st.unconfirmed) != 1 || st.unconfirmed[0].Rule != "IL3001" {
		t.Errorf("stats: targeted %d confirmed %d unconfirmed %v, want 4, 2, [IL3001]", st.targeted, st.confirmed, st.unconfirmed)
	}
	sum := st.summary(dir)
	for _, want := range []string{"4 static findings targeted by the search, 2 confirmed by a schedule", "Unconfirmed: 1 finding of opt-in rules or rules below the posting bar, not posted", "| IL3001 | `bank.go:79` | mixed atomic |"} {
		if !strings.Contains(sum, want) {
			t.Errorf("summary lacks %q:\n%s", want, sum)
		}
	}
	if l := st.logLine(); !strings.Contains(l, "4 static findings targeted") || !strings.Contains(l, "1 finding unconfirmed") {
		t.Errorf("log line %q", l)
	}

	// Without a search nothing is targeted and no candidate is reported.
	st = &confirmStats{}
	got = confirmAll([]checks.Finding{held}, []checks.Finding{unguarded}, nil, dir, st)
	if len(got) != 1 || got[0].Rule != "IL2002" || st.targeted != 0 || len(st.unconfirmed) != 1 {
		t.Errorf("no search: got %+v, stats %+v", got, st)
	}
}

// clearBar gives rule a measured precision that clears the posting bar
// for the test: the mechanism is tested, not today's figures (no rule may
// clear it on a given day).
func clearBar(t *testing.T, rule string) {
	old, had := static.Precision[rule]
	static.Precision[rule] = static.Measured{True: static.PostMinSample, Of: static.PostMinSample}
	t.Cleanup(func() {
		if had {
			static.Precision[rule] = old
		} else {
			delete(static.Precision, rule)
		}
	})
}
