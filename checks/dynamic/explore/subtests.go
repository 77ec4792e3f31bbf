// Subtests searched alone: with Options.Targets, a top-level subtest that starts goroutines after sibling subtests ran is searched on its own too, so it meets the state it would build first.

package explore

import (
	"context"
	"fmt"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/interleave-dev/interleave/checks"
	"github.com/interleave-dev/interleave/checks/dynamic/rt"
)

// A test's subtests often share what the test function made (a client, a
// cache, a registry). An earlier, sequential subtest then builds the
// lazily made parts (map entries, a first connection) and a later
// subtest's goroutines only read them: a check-then-act on that state
// never runs concurrently in the whole test, but does in `go test -run
// 'TestX/Sub'`. So with Options.Targets (a change to aim at), after the
// unperturbed runs, each top-level subtest that started goroutines and
// is not the first subtest becomes a test of its own ("TestX/Sub":
// rt.Config.Test runs only that top-level subtest), with an unperturbed
// run and a share of the search like any other; its findings replay
// under that name.

// maxAlonePerTest and maxAlone bound the subtests searched alone: per
// test (those that started the most goroutines first) and in all.
const (
	maxAlonePerTest = 8
	maxAlone        = 16
)

// topTest is the test function of a target's name ("TestX" of "TestX/Sub").
func topTest(name string) string {
	test, _, _ := strings.Cut(name, "/")
	return test
}

// scheduleName is the schedule file of t's failure f.
func scheduleName(t *target, f *failure) string {
	return fmt.Sprintf("%s-%s-%s.json", strings.ReplaceAll(t.name, "/", "_"), f.kind, f.fingerprint())
}

// plainRunPattern is the -test.run pattern of the plain wrapper for test
// name: the wrapper, and under it what runPatterns selects of the test.
func plainRunPattern(name string, run *rt.RunFilter) string {
	const wrapper = "^TestInterleavePlainX?$"
	alts := runPatterns(name, run)
	if len(alts) == 1 && !strings.Contains(name, "/") && !strings.Contains(alts[0], "/") {
		return wrapper // the environment names the test
	}
	for i, a := range alts {
		alts[i] = wrapper + "/^plain$/" + a
	}
	return strings.Join(alts, "|")
}

// plainSkipPattern is the -test.skip pattern of the plain wrapper for
// skip, -skip's pattern with elements for subtests: each alternative under
// the wrapper, so that it skips what it skips of the test below it.
func plainSkipPattern(skip *rt.RunFilter) string {
	alts := skip.Alternatives()
	for i, a := range alts {
		alts[i] = "^TestInterleavePlainX?$/^plain$/" + a
	}
	return strings.Join(alts, "|")
}

// skipFlag is the -skip a printed go test command adds when the search
// skipped subtests, else "".
func (s *search) skipFlag() string {
	if s.subSkip == "" {
		return ""
	}
	return " -skip '" + s.subSkip + "'"
}

// runPatterns is what go test's -run takes to run test name ("TestX", or
// "TestX/Sub": Sub alone) as the search ran it: its elements anchored,
// then, when run (-run's pattern) selects among their subtests, one
// alternative for each of run's that selects them.
func runPatterns(name string, run *rt.RunFilter) []string {
	elems := strings.Split(name, "/")
	anchored := make([]string, len(elems))
	for i, e := range elems {
		anchored[i] = "^" + regexp.QuoteMeta(e) + "$"
	}
	base := strings.Join(anchored, "/")
	if run == nil {
		return []string{base}
	}
	rest, all := run.Under(elems...)
	if all || len(rest) == 0 {
		return []string{base}
	}
	out := make([]string, len(rest))
	for i, r := range rest {
		out[i] = base + "/" + r
	}
	return out
}

// subtestsAlone is the new targets, one per top-level subtest of targets'
// unperturbed runs to search alone (above); none without Options.Targets.
func (s *search) subtestsAlone(targets []*target) []*target {
	if len(s.opts.Targets) == 0 {
		return nil
	}
	have := map[string]bool{}
	for _, t := range targets {
		have[t.pkg.ImportPath+"."+t.name] = true
	}
	var out []*target
	for _, t := range targets {
		if t.plainStopped || strings.Contains(t.name, "/") {
			continue
		}
		var subs []rt.SubtestRun
		for i, sub := range t.subtests {
			if i > 0 && sub.Goroutines > 0 && !strings.Contains(sub.Name, "/") && !have[t.pkg.ImportPath+"."+t.name+"/"+sub.Name] {
				subs = append(subs, sub)
			}
		}
		sort.SliceStable(subs, func(i, j int) bool { return subs[i].Goroutines > subs[j].Goroutines })
		for _, sub := range subs[:min(len(subs), maxAlonePerTest)] {
			if len(out) == maxAlone {
				return out
			}
			name := t.name + "/" + sub.Name
			have[t.pkg.ImportPath+"."+name] = true
			out = append(out, &target{pkg: t.pkg, name: name, weight: t.weight, bin: t.bin, relDir: t.relDir})
		}
	}
	return out
}

// searchSubtestsAlone adds the subtests to search alone to targets: each
// gets its stats and its unperturbed run, within a quarter of what is
// left of the search, and goes just before its test. It returns the
// targets to search.
func (s *search) searchSubtestsAlone(ctx context.Context, targets []*target) []*target {
	subs := s.subtestsAlone(targets)
	if len(subs) == 0 {
		return targets
	}
	s.mu.Lock()
	for _, t := range subs {
		// startClock left room: no earlier target's stats move.
		s.stats.Tests = append(s.stats.Tests, TestStats{Package: t.pkg.ImportPath, Test: t.name})
		t.stats = &s.stats.Tests[len(s.stats.Tests)-1]
		t.plainStopped = true
	}
	s.mu.Unlock()
	endStage := s.stage(fmt.Sprintf("unperturbed runs of %d top-level subtests alone (they start goroutines after their siblings ran)", len(subs)))
	s.setProbe(subs, true)
	s.plainPass(ctx, subs, time.Now().Add(time.Until(s.deadline)/4), nil)
	s.setProbe(subs, false)
	ran, failed := 0, 0
	for _, t := range subs {
		switch {
		case t.aloneFailed != "":
			// Alone it fails with no interleaving at all: it needs what
			// its siblings do first, which is no finding of the change.
			t.plainStopped = true
			failed++
			s.note(fmt.Sprintf("%s: not searched alone: its unperturbed run alone failed (%s), so it needs what its sibling subtests do first", t.name, t.aloneFailed))
		case !t.plainStopped:
			ran++
		}
	}
	endStage(fmt.Sprintf("%d ran, %d failed alone", ran, failed))
	var out []*target
	for _, t := range targets {
		for _, sub := range subs {
			if sub.pkg.ImportPath == t.pkg.ImportPath && topTest(sub.name) == t.name {
				out = append(out, sub)
			}
		}
		out = append(out, t)
	}
	return out
}

// setProbe sets aloneProbe of ts.
func (s *search) setProbe(ts []*target, on bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, t := range ts {
		t.aloneProbe = on
	}
}

// aloneFails reports whether f, a failure of t, is one of the unperturbed
// run of a subtest searched alone other than a data race (which does not
// depend on the order the siblings would have set): it is not recorded,
// and t is not searched. s.mu is held.
func (s *search) aloneFails(t *target, f *failure) bool {
	if !t.aloneProbe || f.kind == checks.DataRace {
		return false
	}
	if t.aloneFailed == "" {
		t.aloneFailed = f.kind
	}
	return true
}
