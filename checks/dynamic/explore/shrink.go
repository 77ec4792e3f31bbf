package explore

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/interleave-dev/interleave/checks"
	"github.com/interleave-dev/interleave/checks/dynamic/rt"
)

// maxShrinkRuns bounds the replays spent shrinking one failing schedule,
// and shrinkTime the wall time spent shrinking all the failures of a run:
// a schedule not shrunk in time is told as it is.
const (
	maxShrinkRuns = 8
	shrinkTime    = 10 * time.Second
)

// countPreemptions is the number of preemptions in ds (see preemptionsAt).
func countPreemptions(ds []rt.Decision, states []rt.GoroutineState) int {
	n := 0
	for _, p := range preemptionsAt(ds, states) {
		if p >= 0 {
			n++
		}
	}
	return n
}

// shrink looks for a schedule with fewer preemptions that fails the same
// way. For each preemption (goroutine A stops so that B runs), it tries
// the schedule in which A first runs on until its next switch; when its
// runs end first, it cuts the schedule before a preemption (A, preempted
// there, runs on unperturbed), the least kept found by bisection. Each is
// kept when a fresh replay reproduces the failure. Then, for each select
// that took another ready case than its first (rt.Decision.First), it
// tries the first case, kept the same way with no more preemptions and
// fewer such choices: what is left are the choices the failure hangs on.
// A try that leaves the recorded decisions (a goroutine that runs on
// reaches another operation first) goes on unperturbed, each select
// taking the case its goroutine took there before (rt.Schedule.Leave),
// and is kept when its own decisions, replayed once more, reproduce the
// failure on them.
// It returns the decisions, final goroutine states and early jumps of
// the shortest one found; ok is false when none was better.
func (r *replayer) shrink(ctx context.Context, sched *rt.Schedule, states0 []rt.GoroutineState) (ds []rt.Decision, states []rt.GoroutineState, moves []rt.EarlyMove, ok bool) {
	if sched.Failure == nil || sched.Failure.Kind == string(checks.Fatal) || len(sched.Decisions) == 0 {
		return nil, nil, nil, false
	}
	cur, curStates := sched.Decisions, states0
	best := countPreemptions(cur, curStates)
	// try replays cand, kept when it reproduces the failure and better
	// says its result is better; a run that left cand's decisions is kept
	// when its own decisions, replayed once more, reproduce it on them.
	runs := 0
	try := func(cand []rt.Decision, better func(res *ReplayResult) bool) (stop, kept bool) {
		leave := true
		for {
			if runs >= maxShrinkRuns || ctx.Err() != nil {
				return true, false
			}
			runs++
			s := *sched
			s.Decisions = cand
			if leave {
				// Once off cand, the unperturbed schedule's way: no
				// preemption, and each select takes the case its
				// goroutine took there in cur (rt.Schedule.Leave).
				s.Leave, s.Resync = true, selects(cur)
			}
			res, err := r.run(ctx, &s, "")
			if err != nil || res.Outcome != Reproduced || res.EarlierOff() != nil || len(res.Decisions) == 0 || !better(res) {
				return false, false
			}
			if res.Diverged != "" {
				if !leave {
					return false, false
				}
				cand, leave = res.Decisions, false
				continue
			}
			cur, curStates = res.Decisions, res.States
			ds, states, moves, ok = res.Decisions, res.States, res.EarlyMoves, true
			return false, true
		}
	}
	// A pass goes on after a better schedule from where it found it: the
	// decisions before are the same, and so are their preemptions, each
	// tried already (starting over spent the runs on them again: a lost
	// update of three depositors kept 4 of its 11 preemptions).
	outOfRuns := false
preemptions:
	for improved := true; improved && best > 0; {
		improved = false
		pre := preemptionsAt(cur, curStates)
		for i := 0; i < len(cur); i++ {
			if pre[i] < 0 {
				continue
			}
			cand := runOn(cur, i, pre[i])
			if cand == nil {
				continue
			}
			stop, kept := try(cand, func(res *ReplayResult) bool {
				return countPreemptions(res.Decisions, res.States) < best
			})
			if stop {
				outOfRuns = true
				break preemptions // the choices have runs of their own
			}
			if kept {
				best = countPreemptions(cur, curStates)
				improved = true
				pre = preemptionsAt(cur, curStates)
				i-- // the decision at i is another one now
			}
		}
	}
	// Preemptions the runs did not reach go all at once: the decisions
	// before preemption k, then the one preempted there runs on, for the
	// least k that still fails, found by bisection. A search's schedule of
	// a long test has tens of preemptions, most beside the point (httprc's
	// Shutdown kept 32 of 41 one at a time).
	runs = 0
	for lo, hi := 0, best; outOfRuns && lo < hi; {
		mid := (lo + hi) / 2
		cand := slices.Clone(cur[:nthPreemption(cur, curStates, mid)])
		stop, kept := try(cand, func(res *ReplayResult) bool {
			return countPreemptions(res.Decisions, res.States) < best
		})
		if stop {
			break
		}
		if kept {
			// The run after the cut may switch where preemptionsAt
			// counts one: the cut at mid is what is known to fail.
			best = countPreemptions(cur, curStates)
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	runs = 0 // the choices' own runs
	for i := 0; i < len(cur); i++ {
		if !chose(cur[i]) {
			continue
		}
		cand := slices.Clone(cur)
		first := *cur[i].First
		cand[i].Choice, cand[i].First = &first, nil
		n := countChosen(cur)
		stop, _ := try(cand, func(res *ReplayResult) bool {
			return countChosen(res.Decisions) < n && countPreemptions(res.Decisions, res.States) <= best
		})
		if stop {
			break
		}
	}
	return ds, states, moves, ok
}

// selects are the select decisions of ds.
func selects(ds []rt.Decision) []rt.Decision {
	var out []rt.Decision
	for _, d := range ds {
		if d.Op == "select" {
			out = append(out, d)
		}
	}
	return out
}

// nthPreemption is the index in ds of preemption n (from 0), len(ds) when
// there are not that many.
func nthPreemption(ds []rt.Decision, states []rt.GoroutineState, n int) int {
	for i, p := range preemptionsAt(ds, states) {
		if p >= 0 {
			if n == 0 {
				return i
			}
			n--
		}
	}
	return len(ds)
}

// countChosen is the number of selects in ds that took another ready
// case than their first.
func countChosen(ds []rt.Decision) int {
	n := 0
	for _, d := range ds {
		if chose(d) {
			n++
		}
	}
	return n
}

// runOn returns ds with goroutine a's next run of decisions (after the
// preemption at i) moved to i, so that a runs on instead of being
// preempted; nil when a does not run again.
func runOn(ds []rt.Decision, i, a int) []rt.Decision {
	j := i + 1
	for j < len(ds) && ds[j].G != a {
		j++
	}
	if j == len(ds) {
		return nil
	}
	e := j
	for e < len(ds) && ds[e].G == a {
		e++
	}
	out := make([]rt.Decision, 0, len(ds))
	out = append(out, ds[:i]...)
	out = append(out, ds[j:e]...)
	out = append(out, ds[i:j]...)
	return append(out, ds[e:]...)
}

// tellFinding tells the failure's schedule, shrunk in place first (the
// original kept in sched.Original) when shrink is set and time is left,
// and returns the early jumps of the schedule told.
// Findings are shrunk after every one was replayed alone (a finding not
// replayed is not reported; a shrunk schedule is optional).
func (s *search) tellFinding(ctx context.Context, f *failure, t *target, sched *rt.Schedule, shrink bool) (*checks.Interleaving, []rt.EarlyMove) {
	states, moves := f.states, f.moves
	original := 0
	if shrink {
		s.startShrinking()
	}
	end := s.shrinkUntil
	if !s.shrinkShare.IsZero() && s.shrinkShare.Before(end) {
		end = s.shrinkShare
	}
	if shrink && t.bin != "" && ctx.Err() == nil && time.Now().Before(end) {
		ctx, cancel := context.WithDeadline(ctx, end)
		defer cancel()
		if ds, st, mv, ok := s.replayer(t).shrink(ctx, sched, states); ok {
			original = countPreemptions(sched.Decisions, states)
			sched.Original = sched.Decisions
			sched.Decisions, states, moves = ds, st, mv
		}
	}
	it := tell(sched.Decisions, states, f.kind, s.sourceAt(t))
	if it != nil {
		it.Original = original
		it.End = endOf(f)
	}
	return it, moves
}

// startShrinking sets shrinkUntil, once: shrinkTime from now, within the
// budget, less what the caller keeps after the search (optionalBy): the
// search leaves shrinkReserve for it.
func (s *search) startShrinking() {
	if !s.shrinkUntil.IsZero() {
		return
	}
	s.shrinkUntil = time.Now().Add(shrinkTime)
	if by := s.optionalBy(); !by.IsZero() && s.shrinkUntil.After(by) {
		s.shrinkUntil = by
	}
}

// replayer replays t's schedules with the search's own test binary.
func (s *search) replayer(t *target) *replayer {
	return &replayer{
		opts: ReplayOptions{Timeout: time.Minute, StepTimeout: s.opts.StepTimeout},
		pkg:  t.pkg.ImportPath, race: s.opts.Race, tags: strings.Join(s.opts.Tags, ","), pkgDir: t.pkg.Dir,
		work: s.workDir, bin: t.bin, tests: map[string]bool{topTest(t.name): true}, fresh: &s.fresh,
	}
}

// firstReplay is what the first fresh replay of t's failure f takes, as
// replaysAlone gives each of its tries.
func (s *search) firstReplay(t *target, f *failure) time.Duration {
	if t == nil || f == nil {
		return 0
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	var cost time.Duration
	if t.stats != nil {
		cost = t.stats.Cost
	}
	return replayCost(cost, f.elapsed, s.fresh.recent())
}

// replayTries is how many fresh replays a failing schedule gets: it is
// reported when one reproduces it on the recorded schedule, labelled
// (checks.ReplayRate) when not every one does.
const replayTries = 2

// whyNoTime is replaysAlone's why when the budget ended before a replay
// of the schedule alone could finish (none had reproduced it).
const whyNoTime = "no time was left in the budget to replay its schedule alone in a fresh process"

// replaysAlone runs the finding's schedule alone in a fresh process,
// after the search (no other worker running),
// replayTries times. f is the finding's failure (nil: none known). It returns "" when a run reproduces the failure
// (fd.Replays set and its Replay line given -tries when not every run
// did; one that reproduces only off the recorded schedule is re-recorded)
// or when the finding needs no such check (a crash that confirmCrash
// replayed already, confirmed; a binary that cannot replay), else why the finding is
// none: what the last run did instead (the failure came from outside the
// schedule: another worker process holding a port or a file, state an
// earlier schedule left in the process, the machine's timing), or, with
// unchecked set, why the replay could not run (the budget's hard stop
// came first): every finding replays. kept says the failure ran beside
// goroutines earlier schedules of its process left (rt/leftover.go): they
// may have caused it, so it replays alone whatever its kind.
//
// A failure on a clock the stretch took ahead of real time (stretchAhead)
// that every try reproduced runs once more with the stretch off, when the
// time the causes after it need allows (stretchMade): why is then
// whyStretchMade when that run follows the same decisions to their end
// and passes. Not when plain go test fails the same way: the failure is
// the test's whatever the clock.
func (s *search) replaysAlone(ctx context.Context, t *target, fd *checks.Finding, f *failure) (why string, unchecked bool) {
	var kept, confirmed bool
	var took time.Duration
	if f != nil {
		kept, confirmed, took = f.kept && !f.confirmed, f.confirmed, f.elapsed
	}
	if kept && !s.noReplayCheck && (t.bin == "" || fd.Schedule == "") {
		return "it ran beside goroutines earlier schedules left in its process and has no schedule to replay alone", true
	}
	// Only a confirmed crash skips the check: a hang the watchdog called
	// (the tool's own hand-off stuck on a loaded machine, once), a
	// livelock or a misuse did not run again.
	if confirmed && !kept || t.bin == "" || fd.Schedule == "" || s.noReplayCheck {
		return "", false
	}
	path := fd.Schedule
	if !filepath.IsAbs(path) {
		path = filepath.Join(s.opts.Dir, path)
	}
	sched, err := ReadSchedule(path)
	if err != nil {
		return "its schedule file could not be read: " + err.Error(), true
	}
	if sched.Original != nil {
		// Shrinking kept it only when a replay reproduced it, and a
		// replay runs alone in a fresh process after the search: it
		// replayed alone already.
		return "", false
	}
	var cost time.Duration
	s.mu.Lock()
	stretchCheck := f != nil && f.stretchAhead() && fd.Kind != checks.DataRace && sched.Stretch && !t.plainSame[f.key()]
	if t.stats != nil {
		cost = t.stats.Cost
	}
	s.mu.Unlock()
	perTry := func() time.Duration { return replayCost(cost, took, s.fresh.recent()) }
	// Inside the budget: until its end (less what a process stopped then
	// takes to be gone: stopBy), or the end of this cause's part of the
	// replays' time when set. When what is left does not hold one replay,
	// the replay may run past the budget's end, to overrunEnd: a failure
	// found is not dropped for want of the time to confirm it.
	stopBy, overrun := s.stopBy(), false
	if !stopBy.IsZero() && time.Until(stopBy) < perTry() {
		end := s.overrunEnd()
		if !time.Now().Before(end) {
			return whyNoTime, true // and no process started past it
		}
		if f != nil && f.isHang() && time.Now().Add(max(took, s.opts.StepTimeout)).After(end) {
			// A watchdog's hang reproduces no sooner than its schedule
			// took or the watchdog waits (a hang's schedule may have no
			// time recorded): its replay could only be stopped at the
			// overrun's end, and a hang not replayed stays a note.
			return whyNoTime, true
		}
		stopBy, overrun = end, true
		defer func() {
			if past := time.Since(s.hardStop); past > 0 {
				s.note(fmt.Sprintf("%s: the budget had no time left to replay a failure it found (%s) alone in a fresh process, which every finding needs: the replays ran %v past the budget's end (at most %v allowed)",
					t.name, firstLine(fd.Message), past.Round(100*time.Millisecond), replayOverrun(s.opts.Budget)))
			}
		}()
	}
	until := time.Now().Add(2 * shrinkTime)
	ends := []time.Time{stopBy, s.replayUntil}
	if overrun {
		ends = ends[:1] // this cause's part of the replays' time is spent
	}
	for _, end := range ends {
		if !end.IsZero() && until.After(end) {
			until = end
		}
	}
	// Each replay gets a second and, per try, the test's cost or, when
	// longer, what the failing schedule itself took plus what fresh
	// processes take now outside their schedules (a leak still running
	// gets its thousands of decisions, a loaded machine starts a
	// race-built process slowly), from when it starts, but never past the
	// hard stop: the search kept that time for a failure found at its end
	// (searchReserve). One still running then is stopped, and the note
	// says so.
	r := s.replayer(t)
	// Every try runs: a schedule that reproduces only sometimes (yamux's,
	// over real TCP, 1 time of 2) is a true failure, labelled with its
	// rate, and its line replays until one run reproduces it.
	reproduced, tries := 0, 0
	parent := ctx
	for ; tries < replayTries; tries++ {
		// Each try's time follows the processes measured last, the
		// previous try's among them.
		per := perTry()
		if by := s.optionalBy(); reproduced > 0 && !by.IsZero() && time.Until(by)-s.replayKeep < per {
			break // reproduced; the rest is the first replays of the causes after it, and the caller's
		}
		res, stopped, err := replayWithin(parent, r, sched, path, replayDeadline(time.Now(), until, stopBy, per, replayTries-tries), stopBy)
		if stopped {
			if reproduced > 0 {
				break // the replays that had time reproduced it
			}
			return whyNoTime, true
		}
		if err != nil {
			return "its schedule could not be replayed alone in a fresh process: " + firstLine(err.Error()), true
		}
		if res.Outcome == Reproduced && res.Diverged == "" {
			reproduced++
			continue
		}
		if res.Outcome == Reproduced {
			// The same failure off the recorded schedule, which then does
			// not replay as printed: reported with the fresh run's own
			// schedule when that one replays (replay.go).
			// The re-recording gets a try's allowance again, from now
			// (the replay may have used its own and a retry's).
			rctx, cancel := context.WithDeadline(parent, replayDeadline(time.Now(), until, stopBy, per, replayTries-tries))
			defer cancel()
			rr, how := r.rerecord(rctx, sched, res)
			if rr == nil {
				why = "reproduced only after leaving the recorded schedule (diverged " + res.Diverged + "), and that run's own schedule did not replay: " + how
				continue
			}
			if err := s.rerecorded(rctx, t, fd, rr); err != nil {
				return "its schedule could not be re-recorded: " + err.Error(), true
			}
			return "", false
		}
		why = string(res.Outcome)
		if res.Finding != nil {
			why += ": " + string(res.Finding.Kind) + " at " + res.Finding.Pos.String()
		}
		if res.Diverged != "" {
			why += ", diverged " + res.Diverged
		}
	}
	if stretchCheck && why == "" && reproduced == replayTries && !overrun {
		if s.stretchMade(parent, r, sched, path, until, stopBy, perTry()) {
			return whyStretchMade, false
		}
	}
	if why != "" && reproduced == 0 && !kept && f != nil && len(f.prior) > 0 {
		// Not alone: the state the schedules before it in its process
		// left (a package variable, a default pool an earlier run
		// released) may be what it needs. Its replay then runs them
		// first: the last one, else all.
		tried, afterDid, ok, err := s.replaysAfter(ctx, r, t, fd, f, sched, path, until, stopBy, perTry())
		if err != nil {
			return "no time was left in the budget to replay it after the schedules its process ran before it", true
		} else if ok {
			return "", false
		}
		if failed, first := earlierFailures(f.prior); failed > 0 {
			why += fmt.Sprintf("; %d of the schedules its process ran before it failed, the first %s: a failure that follows another in one process may be that one's consequence", failed, first)
		}
		if tried == 0 && afterDid != "" {
			why += "; not replayed after the schedules its process ran before it: " + afterDid
			afterDid = ""
		} else if tried == len(f.prior) {
			why += fmt.Sprintf("; nor after the %d %s its process ran before it", tried, checks.Plural(tried, "schedule"))
		} else {
			why += fmt.Sprintf("; nor after the last of the %d schedules its process ran before it (all of them, about %v, did not fit in the time left)", len(f.prior), afterCost(perTry(), f.prior).Round(100*time.Millisecond))
		}
		if afterDid != "" {
			why += " (that replay: " + afterDid + ")"
		}
	}
	if why != "" && reproduced > 0 {
		fd.Replays = &checks.ReplayRate{Reproduced: reproduced, Tries: tries, Otherwise: why}
		if fd.Schedule != "" {
			fd.Replay = fmt.Sprintf("interleave replay -tries %d %s", fd.Replays.ReplayTries(), fd.Schedule)
		}
		return "", false
	}
	return why, false
}

// whyStretchMade is replaysAlone's why for a failure the stretch made.
const whyStretchMade = "the same decisions with the clock not stretched pass to their end"

// stretchAhead: did the stretch (rt's stretch.go) take the clock of f's
// own schedule ahead of real time, its stretched reads adding more than
// the whole schedule took? A loop that works until a time has passed
// reaches its end sooner so, but a clock only compared (entries stamped
// with time.Now and a time to live) then runs ahead of the work as no
// machine's does. A stretch that stayed behind real time is what a slow
// machine gives: a failure on it stands without a check.
func (f *failure) stretchAhead() bool {
	return f.elapsed > 0 && f.stretchedBy > f.elapsed
}

// stretchMade replays sched (file path) once with the stretch off, the
// same decisions, inside until and stopBy, when the time left before the
// causes after this one need theirs holds one run (per), as for a try
// after the first. True when that run follows every decision, the
// earlier runs the schedule carries too, and passes to its end: the
// failure came from the stretched clock. A run that fails, leaves the
// decisions, stops at a bound (a loop that works until a time has
// passed, unstretched, runs millions of turns) or finds no time says
// nothing: the failure stands. A run stopped at its deadline is not
// run again (replayWithin's retry would take the later causes' time).
func (s *search) stretchMade(ctx context.Context, r *replayer, sched *rt.Schedule, path string, until, stopBy time.Time, per time.Duration) bool {
	if by := s.optionalBy(); !by.IsZero() && time.Until(by)-s.replayKeep < per {
		return false
	}
	plain := *sched
	plain.Stretch = false
	d := replayDeadline(time.Now(), until, stopBy, per, 1)
	res, stopped, err := replayWithin(ctx, r, &plain, path, d, d)
	if stopped || err != nil || res == nil {
		return false
	}
	return res.Outcome == Passed && res.Diverged == "" && res.Inconclusive == "" && res.EarlierOff() == nil
}

// afterCost is how long a replay after the earlier schedules prior
// takes at most: a fresh process with one schedule (per) and, twice
// over, what they took when recorded (they run in that one process).
func afterCost(per time.Duration, prior []rt.Result) time.Duration {
	var took time.Duration
	for _, r := range prior {
		took += r.Elapsed
	}
	return per + 2*took
}

// earlierFailures counts the failing schedules of prior and says what
// the first was ("test-failure at x.go:12 (seed 5)").
func earlierFailures(prior []rt.Result) (int, string) {
	n, first := 0, ""
	for _, r := range prior {
		if r.Outcome == "" || r.Outcome == "pass" {
			continue
		}
		if n++; n == 1 {
			first = r.Outcome
			if r.Site != "" {
				first += " at " + r.Site
			}
			first += fmt.Sprintf(" (seed %d)", r.Seed)
		}
	}
	return n, first
}

// replaysAfter replays the finding's schedule sched (file path) in a
// fresh process after the last of the schedules its process ran before it
// (f.prior), then after all of them, each taking about per, until until,
// none past stopBy (the budget's, or overrunEnd for a first replay the
// budget had no time left for).
// When one reproduces it on the recorded schedule, the finding is that
// replay: f.afterPrior is set, the schedule file and the finding carry the
// schedules run first, and ok is true. tried is how many earlier schedules
// the last replay ran first, why what it did instead; err is set when no
// time was left.
func (s *search) replaysAfter(ctx context.Context, r *replayer, t *target, fd *checks.Finding, f *failure, sched *rt.Schedule, path string, until, stopBy time.Time, per time.Duration) (tried int, why string, ok bool, err error) {
	ns := []int{1}
	end := until
	if !stopBy.IsZero() && (end.IsZero() || stopBy.Before(end)) {
		end = stopBy
	}
	if n := len(f.prior); n > 1 && (end.IsZero() || time.Until(end) > afterCost(per, f.prior)) {
		// All of them, when the time left holds them (a process ran
		// two thousand of ants' schedules).
		ns = append(ns, n)
	}
	for k, n := range ns {
		if w := f.stoppedEarlier(t.name, n); w != "" {
			why = w
			continue
		}
		try := *sched
		f.withPriors(&try, t.name, n)
		s.fitPriors(&try, f)
		cost := afterCost(per, f.prior[len(f.prior)-n:])
		res, stopped, rerr := replayWithin(ctx, r, &try, path, replayDeadline(time.Now(), until, stopBy, cost, len(ns)-k), stopBy)
		if stopped {
			return n, "", false, rerr
		}
		tried = n
		// The earlier schedules must run as recorded: one that left its
		// schedule or ended otherwise (it ran on other state: schedules
		// before it) leaves other state, and a failure after it does not
		// replay.
		if why = afterWhy(res, rerr); why != "" {
			continue
		}
		// A second try, when it fits: one that does not reproduce it (the
		// race detector's history, real I/O) labels the rate, and the
		// replay line then tries again. Not past the budget's end: it
		// only gives the rate.
		var rate *checks.ReplayRate
		if (end.IsZero() || time.Until(end) > cost) && (s.hardStop.IsZero() || time.Now().Before(s.hardStop)) {
			cctx, cancel := context.WithDeadline(ctx, replayDeadline(time.Now(), until, stopBy, cost, 1))
			again, aerr := r.run(cctx, &try, path)
			cancel()
			if aerr == nil || cctx.Err() == nil {
				if w := afterWhy(again, aerr); w != "" {
					rate = &checks.ReplayRate{Reproduced: 1, Tries: 2, Otherwise: w}
				}
			}
		}
		if err := WriteSchedule(path, &try); err != nil {
			return n, "its schedule could not be written: " + err.Error(), false, nil
		}
		f.afterPrior = n
		fd.AfterEarlier = f.afterEarlier(n)
		if tok, err := EncodeToken(&try); err == nil {
			fd.ReplayToken = tok
		}
		if rate != nil {
			fd.Replays = rate
			fd.Replay = fmt.Sprintf("interleave replay -tries %d %s", rate.ReplayTries(), fd.Schedule)
		}
		return n, "", true, nil
	}
	return tried, why, false, nil
}

// stoppedEarlier says which of the last n schedules before f in its
// process the step bound stopped midway, "" when none did. What such a
// test left (a package variable it had yet to reset) is the tool's doing,
// no state go test reaches, so a failure that needs it is not the code's:
// ants' TestMultiPoolReleaseContext failed after an earlier schedule was
// stopped with its stopLongRunningFunc still set.
func (f *failure) stoppedEarlier(test string, n int) string {
	for j := max(len(f.prior)-n, 0); j < len(f.prior); j++ {
		r := f.prior[j]
		if !strings.HasPrefix(r.Inconclusive, rt.StepBoundPrefix) {
			continue
		}
		if j < len(f.priorTests) && f.priorTests[j] != "" {
			test = f.priorTests[j]
		}
		return fmt.Sprintf("an earlier schedule (%s, seed %d) the step bound stopped midway ran before it: what that left is the tool's doing, no state go test reaches", test, r.Seed)
	}
	return ""
}

// afterWhy is "" when res, a replay after earlier schedules (err its
// error), reproduced its failure with every earlier one as recorded, else
// what it did instead.
func afterWhy(res *ReplayResult, err error) string {
	switch {
	case err != nil:
		return "could not run: " + firstLine(err.Error())
	case res.EarlierOff() != nil:
		e := res.EarlierOff()
		return fmt.Sprintf("an earlier schedule (%s, seed %d) %s", e.Test, e.Seed, e.Off())
	case res.Outcome == Reproduced && res.Diverged == "":
		return ""
	}
	why := string(res.Outcome)
	if res.Finding != nil {
		why += ": " + string(res.Finding.Kind) + " at " + res.Finding.Pos.String()
	}
	if res.Diverged != "" {
		why += ", diverged " + res.Diverged
	}
	return why
}

// sourceAt returns a function giving the source line of a "file.go:12"
// site: a file of the test's package, else the one instrumented file of
// the module with that name. Each site is read once: tell asks for every
// decision's, and a schedule of 54,083 decisions (bigcache's
// TestAppendRandomly leak) opened and scanned its files 54,083 times, 7.4 s
// a telling at load 20, told three times after the search (12.3 s before
// the first replay, which then found no time left).
func (s *search) sourceAt(t *target) func(string) string {
	return eachSiteOnce(func(site string) string { return s.sourceLine(t, site) })
}

// eachSiteOnce is line remembering its answer for each site.
func eachSiteOnce(line func(site string) string) func(string) string {
	seen := map[string]string{}
	return func(site string) string {
		if l, ok := seen[site]; ok {
			return l
		}
		l := line(site)
		seen[site] = l
		return l
	}
}

// sourceLine is sourceAt's line of site, read from its file.
func (s *search) sourceLine(t *target, site string) string {
	pos, ok := parseSite(site)
	if !ok {
		return ""
	}
	name := filepath.Base(pos.File)
	if l := SourceLine(filepath.Join(t.pkg.Dir, name), pos.Line); l != "" {
		return l
	}
	if s.inst == nil {
		return ""
	}
	var found string
	for orig := range s.inst.Files {
		if filepath.Base(orig) == name {
			if found != "" {
				return "" // ambiguous
			}
			found = orig
		}
	}
	if found == "" {
		return ""
	}
	return SourceLine(found, pos.Line)
}

// endOf says how a told interleaving ends: the failure kind, and for a
// failure that is not goroutines stuck (shown as the last steps) its
// message.
func endOf(f *failure) string {
	kind := strings.ReplaceAll(string(f.kind), "-", " ")
	if f.kind == checks.Deadlock || f.kind == checks.Leak {
		return kind
	}
	msg := firstLine(f.message)
	if m, ok := strings.CutPrefix(msg, kind+": "); ok {
		msg = m
	}
	if msg == "" {
		return kind
	}
	return kind + ": " + msg
}

// replayRetryLeast is the least time a replay its estimated deadline
// stopped gets to run again (replayWithin).
const replayRetryLeast = time.Minute

// replayWithin runs one replay of sched by deadline, an estimate from the
// processes measured so far. One that deadline stopped while the budget
// still had time (end; zero: no end) runs once more with thrice that time
// or replayRetryLeast, whichever is longer, but not past end: a fresh
// process on a loaded machine runs slower than the search's did, and a
// failure found is not dropped for a guess of the time its replay takes.
// stopped says the last run was stopped by its deadline (or ctx ended);
// err is then that run's error.
func replayWithin(ctx context.Context, r *replayer, sched *rt.Schedule, path string, deadline, end time.Time) (res *ReplayResult, stopped bool, err error) {
	start := time.Now()
	run := func(by time.Time) {
		cctx, cancel := context.WithDeadline(ctx, by)
		defer cancel()
		res, err = r.run(cctx, sched, path)
		stopped = err != nil && cctx.Err() != nil
	}
	run(deadline)
	if !stopped || ctx.Err() != nil {
		return res, stopped, err
	}
	first := deadline.Sub(start)
	again := time.Now().Add(max(3*first, replayRetryLeast))
	if !end.IsZero() && again.After(end) {
		again = end
	}
	if time.Until(again) < first*3/2 {
		return res, stopped, err // the budget holds no longer run
	}
	run(again)
	return res, stopped, err
}
