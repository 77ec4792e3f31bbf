package rt

import (
	"fmt"
	"os"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"
)

func cands(gs ...int) []Candidate {
	var out []Candidate
	for _, g := range gs {
		out = append(out, Candidate{G: g, Op: "Mutex.Lock", Site: fmt.Sprintf("x.go:%d", 10+g), Obj: uintptr(100 + g)})
	}
	return out
}

// drive feeds a strategy the same three candidates for n steps, the picked
// goroutine being last, and returns the goroutines picked.
func drive(s Strategy, seed int64, n int) []int {
	s.Reset(seed)
	var picks []int
	last := -1
	for step := 0; step < n; step++ {
		en := cands(0, 1, 2)
		last = en[s.Next(en, last, step)].G
		picks = append(picks, last)
	}
	return picks
}

func TestStrategiesDeterministic(t *testing.T) {
	for _, name := range []string{"random", "pct", "pos", "portfolio", "random,pos"} {
		for seed := int64(0); seed < 20; seed++ {
			a := drive(NewStrategy(name, nil), seed, 300)
			b := drive(NewStrategy(name, nil), seed, 300)
			if !reflect.DeepEqual(a, b) {
				t.Fatalf("%s seed %d: two runs differ:\n%v\n%v", name, seed, a, b)
			}
			// A strategy object reused for another schedule first decides
			// the same as a fresh one: no memory of earlier schedules.
			s := NewStrategy(name, nil)
			drive(s, seed+1, 50)
			if c := drive(s, seed, 300); !reflect.DeepEqual(a, c) {
				t.Fatalf("%s seed %d: reused strategy decides differently", name, seed)
			}
		}
	}
}

func TestPCTPriorities(t *testing.T) {
	// Depth 1: no change point, the highest-priority goroutine always runs.
	p := &PCT{Depth: 1}
	for seed := int64(0); seed < 20; seed++ {
		picks := drive(p, seed, pctStarve)
		for _, g := range picks {
			if g != picks[0] {
				t.Fatalf("seed %d: depth 1 switched goroutines: %v", seed, picks)
			}
		}
	}
	// Depth 3: two change points within the estimate; the goroutine that
	// runs switches exactly at change points, to the next priority.
	p = &PCT{Depth: 3}
	ks := map[int]bool{}
	for seed := int64(0); seed < 200; seed++ {
		picks := drive(p, seed, 3000)
		cps := p.ChangePoints()
		ks[p.Steps()] = true
		if len(cps) == 0 || len(cps) > 2 || cps[len(cps)-1] >= p.Steps() {
			t.Fatalf("seed %d: change points %v, estimate %d", seed, cps, p.Steps())
		}
		cp := map[int]bool{}
		for _, c := range cps {
			cp[c] = true
		}
		for i := 1; i < pctStarve; i++ {
			if (picks[i] != picks[i-1]) != cp[i] {
				t.Fatalf("seed %d: switch at step %d, change points %v: %v", seed, i, cps, picks[:min(len(picks), 40)])
			}
		}
	}
	if len(ks) < 5 {
		t.Errorf("step estimates drawn: %v, want a spread", ks)
	}
	// Nobody starves: a goroutine spinning on Gosched, or running on and
	// on while others could run, lets them.
	p = &PCT{Depth: 1}
	for seed := int64(0); seed < 20; seed++ {
		p.Reset(seed)
		spin := []Candidate{{G: 0, Op: "Gosched"}, {G: 1, Op: "Mutex.Lock", Obj: 1}}
		if spin[p.Next(spin, 0, 0)].G != 1 {
			t.Fatalf("seed %d: Gosched did not yield", seed)
		}
		picks := drive(p, seed, 3*pctStarve)
		if picks[0] == picks[len(picks)-1] && picks[0] == picks[pctStarve+1] {
			t.Fatalf("seed %d: g%d ran %d steps in a row", seed, picks[0], len(picks))
		}
	}
	// A lowered goroutine stays below the others.
	p = &PCT{Depth: 2}
	p.Reset(1)
	cp := p.ChangePoints()[0]
	en := cands(0, 1)
	var before, after int
	for step := 0; step <= cp+5; step++ {
		g := en[p.Next(en, -1, step)].G
		if step == cp-1 || cp == 0 && step == 0 {
			before = g
		}
		if step == cp+5 {
			after = g
		}
	}
	if cp > 0 && before == after {
		t.Errorf("change point %d: g%d ran before and after", cp, before)
	}
}

func TestPOSResetsRacingEvents(t *testing.T) {
	p := &POS{}
	p.Reset(7)
	// g0 and g1 lock the same mutex; g2 locks another; g3 RLocks a lock
	// that g4 also RLocks.
	en := []Candidate{
		{G: 0, Op: "Mutex.Lock", Site: "a.go:1", Obj: 1},
		{G: 1, Op: "Mutex.Lock", Site: "a.go:2", Obj: 1},
		{G: 2, Op: "Mutex.Lock", Site: "a.go:3", Obj: 2},
		{G: 3, Op: "RWMutex.RLock", Site: "a.go:4", Obj: 3, Read: true},
		{G: 4, Op: "RWMutex.RLock", Site: "a.go:5", Obj: 3, Read: true},
	}
	i := p.Next(en, -1, 0)
	ran := en[i]
	old := map[int]float64{}
	for g, v := range p.prio {
		old[g] = v
	}
	// The one that ran is now at its next event.
	next := append([]Candidate(nil), en...)
	next[i] = Candidate{G: ran.G, Op: "Mutex.Unlock", Site: "a.go:9", Obj: ran.Obj, Read: false}
	p.Next(next, ran.G, 1)
	for _, c := range en {
		if c.G == ran.G {
			if p.prio[c.G] == old[c.G] {
				t.Errorf("g%d ran but kept its priority", c.G)
			}
			continue
		}
		changed := p.prio[c.G] != old[c.G]
		if want := races(&ran, &c); changed != want {
			t.Errorf("ran %+v: g%d (%s) priority changed = %v, want %v", ran, c.G, c.Op, changed, want)
		}
	}
	if races(&en[3], &en[4]) || !races(&en[0], &en[1]) || races(&en[0], &en[2]) {
		t.Error("races: RLock/RLock must commute, Lock/Lock on one mutex must not, different mutexes never race")
	}
	sel := Candidate{Op: "select", Objs: []uintptr{5, 1}}
	if !races(&sel, &en[0]) || races(&sel, &en[2]) {
		t.Error("a select races with operations on its channels only")
	}
}

func TestPortfolioRotates(t *testing.T) {
	p := NewStrategy("portfolio", nil).(*Portfolio)
	seen := map[string]bool{}
	for seed := int64(10); seed < 13; seed++ {
		p.Reset(seed)
		seen[fmt.Sprintf("%T", p.Current())] = true
	}
	if len(seen) != 3 {
		t.Fatalf("three consecutive seeds ran %v, want all three members", seen)
	}
	p = NewStrategy("pct, pos", nil).(*Portfolio)
	if len(p.Members) != 2 {
		t.Fatalf("list portfolio: %d members", len(p.Members))
	}
	if !ValidStrategy("pct,pos") || ValidStrategy("pct,dfs") || !ValidStrategy("") || ValidStrategy("PCT") {
		t.Error("ValidStrategy")
	}
}

// StrategyOf names the member a portfolio runs for a seed, and that member
// alone decides the same.
func TestStrategyOf(t *testing.T) {
	for _, name := range []string{"portfolio", "", "pct,pos", "random", "pos"} {
		for seed := int64(0); seed < 9; seed++ {
			m := StrategyOf(name, seed)
			if !knownStrategy(m) || m == StratPortfolio {
				t.Fatalf("StrategyOf(%q, %d) = %q", name, seed, m)
			}
			if a, b := drive(NewStrategy(name, nil), seed, 200), drive(NewStrategy(m, nil), seed, 200); !reflect.DeepEqual(a, b) {
				t.Errorf("%q seed %d: member %s decides differently", name, seed, m)
			}
		}
	}
}

func TestTargetedPreemptsAtTargets(t *testing.T) {
	for _, name := range []string{"random", "pct", "pos", "portfolio"} {
		s := NewStrategy(name, []string{"/src/pkg/x.go:41"}).(*Targeted)
		if !s.AtTarget("x.go:42") || !s.AtTarget("x.go:39") || s.AtTarget("x.go:44") || s.AtTarget("y.go:41") {
			t.Fatalf("AtTarget window wrong")
		}
		at := []Candidate{{G: 0, Op: "Mutex.Lock", Site: "x.go:41", Obj: 1}, {G: 1, Op: "Mutex.Lock", Site: "y.go:7", Obj: 2}}
		pre := 0
		const n = 1000
		for seed := int64(0); seed < n; seed++ {
			s.Reset(2 * seed) // even seeds are the targeted schedules
			if at[s.Next(at, 0, 3)].G != 0 {
				pre++
			}
		}
		if pre < n*8/10 {
			t.Errorf("%s: preempted at the target %d of %d times, want about 9/10", name, pre, n)
		}
	}
	// A target on a caller's line counts: the lock is taken in a callee.
	s0 := NewStrategy("pos", []string{"x.go:41"}).(*Targeted)
	via := []Candidate{{G: 0, Op: "Mutex.Lock", Site: "lock.go:7", Obj: 1, Frames: []string{"x.go:41", "main_test.go:9"}}, {G: 1, Site: "y.go:7"}}
	pre := 0
	for seed := int64(0); seed < 1000; seed++ {
		s0.Reset(2 * seed)
		if via[s0.Next(via, 0, 3)].G != 0 {
			pre++
		}
	}
	if pre < 800 {
		t.Errorf("preempted %d/1000 times below a target caller, want about 9/10", pre)
	}
	// Away from targets the random walk mostly keeps the goroutine.
	s := NewStrategy("random", []string{"x.go:41"})
	away := []Candidate{{G: 0, Site: "x.go:90"}, {G: 1, Site: "y.go:7"}}
	kept := 0
	for seed := int64(0); seed < 1000; seed++ {
		s.Reset(2 * seed)
		if away[s.Next(away, 0, 3)].G == 0 {
			kept++
		}
	}
	if kept < 750 {
		t.Errorf("kept the running goroutine %d of 1000 times away from targets, want about 7/8", kept)
	}
}

// lostUpdate: two goroutines increment under split critical sections; the
// final count is wrong only when one runs between the other's read and
// write (a bug of depth 2).
func lostUpdate(t *testing.T) {
	var mu sync.Mutex
	var wg sync.WaitGroup
	n := 0
	for i := 0; i < 2; i++ {
		WaitGroupAdd(&wg, 1)
		Go(func() {
			defer WaitGroupDone(&wg)
			Lock(&mu)
			v := n
			Unlock(&mu)
			Lock(&mu)
			n = v + 1
			Unlock(&mu)
		})
	}
	WaitGroupWait(&wg)
	if n != 2 {
		panic(fmt.Sprintf("lost update: n = %d, want 2", n))
	}
}

// TestStrategiesFindAndReplay: every strategy finds the AB-BA deadlock and
// the lost update, and each failing schedule replays under another
// strategy's name (replay follows decisions, not the strategy).
func TestStrategiesFindAndReplay(t *testing.T) {
	kernels := []struct {
		name string
		body func(*testing.T)
		want string
	}{{"abba", abba, "deadlock"}, {"lostUpdate", lostUpdate, "panic"}}
	for _, name := range []string{"random", "pct", "pos", "portfolio"} {
		for _, k := range kernels {
			cfg := Config{Strategy: name, Seed: 1, Schedules: 300, StepTimeout: 5 * time.Second, StopOnFail: true}
			var rs []Result
			t.Run(name+"/"+k.name, func(t *testing.T) {
				rs = RunSchedules(t, cfg, k.body, nil)
			})
			last := rs[len(rs)-1]
			if last.Outcome != k.want {
				t.Errorf("%s: %s not found in %d schedules (%v)", name, k.want, len(rs), outcomes(rs))
				continue
			}
			t.Logf("%s: %s found after %d schedules", name, k.name, len(rs))
			sch := &Schedule{Version: ScheduleVersion, Test: k.name, Strategy: name, Seed: last.Seed, Decisions: last.Decisions}
			var r Result
			t.Run(name+"/"+k.name+"/replay", func(t *testing.T) {
				r = RunSchedule(t, Config{Strategy: "random", StepTimeout: 5 * time.Second}, 0, nil, sch, k.body)
			})
			if r.Outcome != k.want || r.Diverged != "" || !reflect.DeepEqual(r.Decisions, last.Decisions) {
				t.Errorf("%s: replay of %s: %s (diverged %q), want %s with the same decisions", name, k.name, r.Outcome, r.Diverged, k.want)
			}
		}
	}
}

// orderBug deadlocks only when the second goroutine takes b between the
// first one's two locks, after a stretch of unrelated steps.
func orderBug(t *testing.T) {
	var a, b, other sync.Mutex
	var wg sync.WaitGroup
	WaitGroupAdd(&wg, 2)
	Go(func() {
		defer WaitGroupDone(&wg)
		for i := 0; i < 10; i++ {
			Lock(&other)
			Unlock(&other)
		}
		Lock(&a)
		Lock(&b) // target: orderBug second lock
		Unlock(&b)
		Unlock(&a)
	})
	Go(func() {
		defer WaitGroupDone(&wg)
		for i := 0; i < 10; i++ {
			Lock(&other)
			Unlock(&other)
		}
		Lock(&b)
		Lock(&a) // target: orderBug second lock
		Unlock(&a)
		Unlock(&b)
	})
	WaitGroupWait(&wg)
}

// TestTargetsRaiseHits: with the two inner acquisitions as targets, every
// strategy hits the deadlock in more schedules than without them, and a
// targeted finding replays without the targets.
func TestTargetsRaiseHits(t *testing.T) {
	src, err := os.ReadFile("strategy_test.go")
	if err != nil {
		t.Fatal(err)
	}
	var targets []string
	for i, l := range strings.Split(string(src), "\n") {
		if strings.Contains(l, "// target: orderBug") && !strings.Contains(l, "strings.Contains") {
			targets = append(targets, fmt.Sprintf("rt/strategy_test.go:%d", i+1))
		}
	}
	if len(targets) != 2 {
		t.Fatalf("targets %v", targets)
	}
	const n = 200
	for _, name := range []string{"random", "pct", "pos"} {
		count := func(targets []string) (int, *Result) {
			var rs []Result
			t.Run(name, func(t *testing.T) {
				rs = RunSchedules(t, Config{Strategy: name, Seed: 1, Schedules: n, Targets: targets, StepTimeout: 5 * time.Second}, orderBug, nil)
			})
			hits := 0
			var first *Result
			for i := range rs {
				if rs[i].Outcome == "deadlock" {
					hits++
					if first == nil {
						first = &rs[i]
					}
				}
			}
			return hits, first
		}
		plain, _ := count(nil)
		aimed, first := count(targets)
		t.Logf("%s: deadlock in %d/%d schedules untargeted, %d/%d targeted", name, plain, n, aimed, n)
		if aimed <= plain || first == nil {
			t.Errorf("%s: targeted %d/%d, untargeted %d/%d: targets do not help", name, aimed, n, plain, n)
			continue
		}
		sch := &Schedule{Version: ScheduleVersion, Test: "orderBug", Seed: first.Seed, Decisions: first.Decisions}
		var r Result
		t.Run(name+"/replay", func(t *testing.T) {
			r = RunSchedule(t, Config{StepTimeout: 5 * time.Second}, 0, nil, sch, orderBug)
		})
		if r.Outcome != "deadlock" || r.Diverged != "" {
			t.Errorf("%s: replay: %s (diverged %q)", name, r.Outcome, r.Diverged)
		}
	}
}

// Every other schedule (odd seeds) is left to the inner strategy, so
// aiming at targets never takes away what the plain search finds.
func TestTargetedEveryOtherSchedule(t *testing.T) {
	for _, name := range []string{"random", "pct", "pos"} {
		tg := NewStrategy(name, []string{"x.go:41"})
		plain := NewStrategy(name, nil)
		at := []Candidate{{G: 0, Op: "Mutex.Lock", Site: "x.go:41", Obj: 1}, {G: 1, Op: "Mutex.Lock", Site: "y.go:7", Obj: 2}}
		same, targeted := 0, 0
		for seed := int64(1); seed < 400; seed += 2 {
			tg.Reset(seed)
			plain.Reset(seed)
			if tg.Next(at, 0, 3) == plain.Next(at, 0, 3) {
				same++
			}
		}
		for seed := int64(0); seed < 400; seed += 2 {
			tg.Reset(seed)
			if at[tg.Next(at, 0, 3)].G != 0 {
				targeted++
			}
		}
		if same != 200 {
			t.Errorf("%s: %d of 200 odd-seed schedules decided like the untargeted strategy, want all", name, same)
		}
		if targeted < 160 {
			t.Errorf("%s: even seeds preempted at the target %d of 200 times, want about 9/10", name, targeted)
		}
	}
}
