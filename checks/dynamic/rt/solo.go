// Solo runs: a goroutine that is alone able to run goes through its atomic operations without a decision each.

package rt

import "runtime"

// soloRun is how many atomic operations a goroutine granted a solo run
// (Decision.Solo) goes through before its next scheduling point. A lock-free
// map's single-goroutine test (haxmap's TestGrow2: 585,000 points, every
// one with no other goroutine able to run) took its steps, its time and
// the memory of their decisions from them; a bounded run keeps the
// scheduler's view (spin detection, the watchdog) once every soloRun.
const soloRun = 256

// soloOp: an operation a solo run goes through: an atomic one, which
// cannot block, wake a goroutine or start one.
func soloOp(op opKind) bool { return op == opAtomic || op == opAtomicLoad }

// soloGrant decides whether pick, about to run on from an atomic operation,
// runs its next atomic operations without a decision each. A replay does as
// its schedule did. Otherwise only when pick is the only goroutine that
// can run and nothing can join it before its next other operation: no
// timer pending (the clock moves only at a point), no goroutine outside
// control or met outside it (its return comes at a point), none held back
// or overlapping, the test not returned (the steps after it are counted).
//
//go:norace
func (s *sched) soloGrant(all []*gstate, pick *gstate) bool {
	if !soloOp(pick.req.op) {
		return false
	}
	if s.replay != nil {
		if s.diverged != "" || s.steps >= len(s.replay.Decisions) {
			return false
		}
		return s.replay.Decisions[s.steps].Solo
	}
	if len(all) != 1 || all[0] != pick || len(s.held) > 0 || len(s.overlapGs) > 0 || s.testDone ||
		s.fail != nil || s.aborting || s.steps+1 >= s.maxSteps ||
		len(s.outside) > 0 || s.foreignSeen || s.wasIO || s.ioOutside() || s.foreignOutside() {
		return false
	}
	_, pending := s.nextDeadline()
	return !pending
}

// soloTargets indexes targets for soloAtTarget; nil when there are none.
func soloTargets(targets []string) targetIndex {
	if len(targets) == 0 {
		return nil
	}
	return indexTargets(targets)
}

// soloAtTarget: with Config.Targets, is g's atomic operation, or a caller
// of it, at or near a target? Such an operation takes its decision, so
// that it counts as a hit there (targetCounts reads the same frames) and
// the targeted strategy sees it. Each goroutine keeps its own answers per
// call site: the scheduler's site cache is not read from here.
//
//go:norace
func (g *gstate) soloAtTarget() bool {
	s := active
	if s == nil || s.targets == nil {
		return false
	}
	var pcs [10]uintptr
	n := runtime.Callers(3, pcs[:]) // the frames call records in req.pcs
	for _, pc := range pcs[:n] {
		near, ok := g.nearTargets[pc]
		if !ok {
			if g.nearTargets == nil {
				g.nearTargets = map[uintptr]bool{}
			}
			if site := userSite(pc); site != "" {
				s.targets.match(site, func(string) { near = true })
			}
			g.nearTargets[pc] = near
		}
		if near {
			return true
		}
	}
	return false
}

// soloCut records that a target ends g's solo run here, at an atomic
// operation before soloRun of them: the decision that granted it says
// how many ran (Decision.SoloRun), none by no grant at all. A replay is
// given no targets and runs the same atomics solo. Before, go-redis's
// ConnStateMachine deadlocks that interleave pr found (its targets the
// changed lines) never replayed: the replay ran on through
// conn_state.go:199, where the recording had stopped ("decision 2:
// expected g0 at conn_state.go:199 (atomic), g0 is at
// conn_state_test.go:341 (WaitGroup.Add)").
//
//go:norace
func (g *gstate) soloCut() {
	s := active
	if s == nil || s.replay != nil || g.soloDec >= s.decisions.len() {
		return
	}
	d := s.decisions.at(g.soloDec)
	if ran := soloRun - g.soloLeft; ran == 0 {
		d.Solo = false
	} else {
		d.SoloRun = ran
	}
}
