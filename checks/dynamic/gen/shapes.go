// The shapes of test a person writes first for a type: a restart, and a
// fresh value whose first calls are concurrent.

package gen

import (
	"fmt"
	"go/ast"
	"go/types"
	"math/rand"
	"regexp"
	"slices"
	"strings"
)

// Lifecycle methods, by name: a restart calls a start-like method and
// then a stop-like one, and again. The verbs are in order of preference:
// Run is last, it often runs a job once rather than starting anything.
var (
	startVerbs = []string{"Start", "Open", "Begin", "Connect", "Subscribe", "Enable", "Resume", "Listen", "Serve", "Run"}
	stopVerbs  = []string{"Stop", "Close", "Shutdown", "Disconnect", "Unsubscribe", "Disable", "Pause", "End", "Cancel", "Halt", "Quit"}
	startLike  = regexp.MustCompile(`^(` + strings.Join(startVerbs, "|") + `)`)
	stopLike   = regexp.MustCompile(`^(` + strings.Join(stopVerbs, "|") + `)`)
	// counterpart is the stop verb that undoes a start verb.
	counterpart = map[string]string{"Start": "Stop", "Open": "Close", "Begin": "End", "Connect": "Disconnect",
		"Subscribe": "Unsubscribe", "Enable": "Disable", "Resume": "Pause", "Listen": "Close", "Serve": "Shutdown", "Run": "Stop"}
)

// verb is the index in verbs of the verb name starts with (len(verbs) when none).
func verb(verbs []string, name string) int {
	for i, v := range verbs {
		if strings.HasPrefix(name, v) {
			return i
		}
	}
	return len(verbs)
}

// maxRestarts bounds the restart cases of a type (one per start/stop
// pair, the changed methods' pairs first).
const maxRestarts = 3

// Shapes returns the cases a test author writes first, named
// TestInterleaveGen_<T>_<from>, <from+1>, ...: for each start-like and
// stop-like pair of methods, a restart (the prefix calls start then stop,
// and each goroutine does the same again on the same value: Start, Stop,
// Start, Stop); and a fresh value whose first calls are concurrent (no
// prefix: state a method builds lazily is built by two goroutines), once
// with the same call, same arguments, in both goroutines and once with
// two mutators; and, in a pull request, first uses of a fresh value a
// changed deriver returned (derivedUses) and each other changed method
// against another on a fresh value (focusPairs); and callbacks handed to
// the value that call back into it (reentries). They draw from a stream
// of their own: Generate's cases stay those of the same seed.
func (g *Generator) Shapes(t *Target, from int) []*Case {
	sg := &Generator{rng: g.shapes, q: g.q}
	var out []*Case
	add := func(c *Case) {
		c.Name = fmt.Sprintf("TestInterleaveGen_%s_%d", t.Name.Name(), from+len(out))
		c.Shape = true
		out = append(out, c)
	}
	for _, c := range sg.accessPairs(t) {
		add(c)
	}
	for _, p := range lifecyclePairs(t) {
		add(sg.restart(t, p[0], p[1]))
	}
	// The first calls change state: the changed methods, else the
	// methods that return nothing, else any mutator. A changed deriver
	// is tested through the value it returns (derivedUses), not here.
	muts := mutators(t)
	first := t.Focus
	for _, d := range focusDerivers(t) {
		first = without(first, d)
	}
	if len(first) == 0 {
		first = commands(muts)
	}
	if len(first) == 0 {
		first = muts
	}
	if len(first) > 0 {
		for _, c := range []*Case{sg.freshFirst(t, first, true), sg.freshFirst(t, muts, false)} {
			if c != nil {
				add(c)
			}
		}
	}
	for _, c := range sg.derivedUses(t) {
		add(c)
	}
	for _, p := range focusPairs(t) {
		add(sg.pair(t, p[0], p[1]))
	}
	for _, c := range sg.reentries(t) {
		add(c)
	}
	return out
}

// maxDerivedUses bounds the cases on the value a changed deriver returns.
const maxDerivedUses = 8

// focusDerivers are the changed methods of t that derive a value of it.
func focusDerivers(t *Target) []Func {
	var ds []Func
	for _, d := range t.Derivers {
		if slices.ContainsFunc(t.Focus, func(f Func) bool { return f.Fn == d.Fn }) {
			ds = append(ds, d)
		}
	}
	return ds
}

// derivedUses are cases on a fresh value that a changed deriver returned
// (v := v0.D(...), Target.Derivers in Focus), with no prefix: each
// goroutine makes two first uses of it. A deriver that makes its value
// lazily (zap's WithLazy: the first With or Check replaces the embedded
// core inside a Once, which Level and Info read without it) races only
// there, between a use that makes the state and one that reads it. The
// uses are t's callable methods but D (its result would be another
// value), dealt from a shuffled deck: every method comes before any comes
// twice, so the cases cover them all.
func (g *Generator) derivedUses(t *Target) []*Case {
	ds := focusDerivers(t)
	if len(ds) == 0 {
		return nil
	}
	var out []*Case
	var deck []Func
	for i := 0; i < maxDerivedUses; i++ {
		d := ds[i%len(ds)]
		cs := &caseState{t: t}
		var uses []Func
		for _, m := range t.Methods {
			if m.Fn != d.Fn && cs.callable(m) {
				uses = append(uses, m)
			}
		}
		if len(uses) < 2 {
			return out
		}
		c := &Case{Target: t, Derived: d.Fn.Name()}
		c.Build = g.buildDerived(t, "v", "x", &d)
		deck = slices.DeleteFunc(deck, func(m Func) bool { return m.Fn == d.Fn })
		for th := 0; th < 2; th++ {
			var calls []Call
			for k := 0; k < maxCalls; k++ {
				if len(deck) == 0 {
					deck = slices.Clone(uses)
					g.rng.Shuffle(len(deck), func(a, b int) { deck[a], deck[b] = deck[b], deck[a] })
				}
				m := deck[0]
				deck = deck[1:]
				calls = append(calls, g.call(m, cs).render("v", false))
			}
			c.Threads = append(c.Threads, calls)
		}
		g.observe(c, cs)
		out = append(out, c)
	}
	return out
}

// maxPairs bounds the cases that pair a changed method with another.
const maxPairs = 4

// focusPairs are the changed methods of t (Target.Focus) each paired with
// another method, at most maxPairs, in turns: every changed method's best
// partner first, then their second ones. A method's partners are the
// readers first (a reader of what the change writes: puddle's Stat
// against Acquire's constructor), then the other changed methods, then
// the rest, each in the order of Methods.
func focusPairs(t *Target) [][2]Func {
	cs := &caseState{t: t}
	in := func(fs []Func, m Func) bool {
		return slices.ContainsFunc(fs, func(f Func) bool { return f.Fn == m.Fn })
	}
	rank := func(m Func) int {
		switch {
		case reader(t, m):
			return 0
		case in(t.Focus, m):
			return 1
		}
		return 2
	}
	var partners [][]Func
	most := 0
	focus := t.Focus
	for _, d := range focusDerivers(t) {
		focus = without(focus, d) // its value's uses: derivedUses
	}
	for _, f := range focus {
		var ps []Func
		if cs.callable(f) {
			for _, m := range t.Methods {
				if m.Fn != f.Fn && cs.callable(m) {
					ps = append(ps, m)
				}
			}
		}
		slices.SortStableFunc(ps, func(a, b Func) int { return rank(a) - rank(b) })
		partners = append(partners, ps)
		most = max(most, len(ps))
	}
	var out [][2]Func
	seen := map[[2]*types.Func]bool{} // a pair either way round is one case
	for _, p := range t.Pairs {
		seen[[2]*types.Func{p[0].Fn, p[1].Fn}] = true // accessPairs' case
		seen[[2]*types.Func{p[1].Fn, p[0].Fn}] = true
	}
	for j := 0; j < most; j++ {
		for i, f := range focus {
			if j >= len(partners[i]) || len(out) == maxPairs {
				continue
			}
			p := partners[i][j]
			if seen[[2]*types.Func{p.Fn, f.Fn}] {
				continue
			}
			seen[[2]*types.Func{f.Fn, p.Fn}] = true
			out = append(out, [2]Func{f, p})
		}
	}
	return out
}

// reader reports whether m of t reads state: it takes nothing, returns
// something but t itself (a fluent setter: gocron's Second returns its
// *Scheduler), and its name does not say it changes state. Unlike an
// observer its results need not be comparable: puddle's Stat returns a
// *Stat, a snapshot taken under the lock the change stopped taking.
func reader(t *Target, m Func) bool {
	return m.Sig.Params().Len() == 0 && m.Sig.Results().Len() > 0 && !changes(m.Fn.Name()) && !returnsTarget(m.Sig, t.Type)
}

// pair is a case with no prefix whose goroutines call a and b, one each,
// on a value nothing used yet.
func (g *Generator) pair(t *Target, a, b Func) *Case {
	c := &Case{Target: t}
	cs := &caseState{t: t}
	c.Build = g.build(t, "v", "x")
	for _, m := range []Func{a, b} {
		c.Threads = append(c.Threads, []Call{g.call(m, cs).render("v", false)})
	}
	g.observe(c, cs)
	return c
}

// lifecyclePairs are the start-like and stop-like method pairs of t
// callable on one value, at most maxRestarts, best first: those with a
// changed method (Target.Focus), then a stop verb that undoes the start
// verb (Start/Stop, Open/Close, ...), then by the verbs' preference, then
// the fewer parameters (gocron's StartAsync before StartAt(time.Time),
// and both before RunAll).
func lifecyclePairs(t *Target) [][2]Func {
	cs := &caseState{t: t}
	var starts, stops []Func
	for _, m := range t.Methods {
		if !cs.callable(m) || strings.Contains(m.Fn.Name(), "Blocking") {
			continue // StartBlocking blocks for good
		}
		switch name := m.Fn.Name(); {
		case startLike.MatchString(name):
			starts = append(starts, m)
		case stopLike.MatchString(name):
			stops = append(stops, m)
		}
	}
	focused := func(m Func) bool {
		return slices.ContainsFunc(t.Focus, func(f Func) bool { return f.Fn == m.Fn })
	}
	type ranked struct {
		p   [2]Func
		key [5]int
	}
	var all []ranked
	b2i := func(b bool) int {
		if b {
			return 0
		}
		return 1
	}
	for _, a := range starts {
		for _, b := range stops {
			sv, ev := verb(startVerbs, a.Fn.Name()), verb(stopVerbs, b.Fn.Name())
			undoes := sv < len(startVerbs) && counterpart[startVerbs[sv]] == stopVerbs[min(ev, len(stopVerbs)-1)]
			all = append(all, ranked{[2]Func{a, b}, [5]int{
				b2i(focused(a) || focused(b)), b2i(undoes), sv, ev,
				a.Sig.Params().Len() + b.Sig.Params().Len()}})
		}
	}
	slices.SortStableFunc(all, func(x, y ranked) int { return slices.Compare(x.key[:], y.key[:]) })
	var out [][2]Func
	for _, r := range all[:min(len(all), maxRestarts)] {
		out = append(out, r.p)
	}
	return out
}

// prefixCall matches a method call on v or w in a prefix statement.
var prefixCall = regexp.MustCompile(`(?:^|[^\w.])[vw]\.(\w+)\(`)

// stops are the calls that end what c started, made after its observers
// in every run (genCase.stop), as a test author defers Close: for each
// start-like method c calls (in its prefix or its goroutines), the
// stop-like method without parameters that undoes it (its counterpart
// verb first, then in the order of stopVerbs), on v, and on w when there
// are two; and Close when c's value comes from a constructor that starts
// goroutines (statsd.New's sender and watchers). Without them a test that
// opens a pump returns with the pump's loop still waiting: a leak the
// test made, on every schedule, which also makes every schedule after it
// start a fresh process.
func stops(c *Case) []Call {
	t := c.Target
	var called []string
	for _, s := range c.Prefix {
		for _, m := range prefixCall.FindAllStringSubmatch(s, -1) {
			called = append(called, m[1])
		}
	}
	for _, th := range c.Threads {
		for _, call := range th {
			called = append(called, call.Method)
		}
	}
	var ends []Func
	for _, name := range called {
		sv := verb(startVerbs, name)
		if sv == len(startVerbs) || strings.Contains(name, "Blocking") {
			continue
		}
		var best *Func
		rank := func(m Func) []int {
			ev := verb(stopVerbs, m.Fn.Name())
			return []int{b2i(counterpart[startVerbs[sv]] != stopVerbs[ev]), ev}
		}
		for _, m := range t.Methods {
			if !stopLike.MatchString(m.Fn.Name()) || m.Sig.Params().Len() > 0 || strings.Contains(m.Fn.Name(), "Blocking") {
				continue
			}
			if best == nil || slices.Compare(rank(m), rank(*best)) < 0 {
				best = &m
			}
		}
		if best != nil && !slices.ContainsFunc(ends, func(f Func) bool { return f.Fn == best.Fn }) {
			ends = append(ends, *best)
		}
	}
	if closer := t.closer(); closer != nil && t.startsGoroutines(c.Build) && !slices.ContainsFunc(ends, func(f Func) bool { return f.Fn == closer.Fn }) {
		ends = append(ends, *closer)
	}
	var out []Call
	for _, m := range ends {
		tm := callTmpl{m: m}
		out = append(out, tm.render("v", c.Two))
		if c.Two {
			out = append(out, tm.render("w", true))
		}
	}
	return out
}

// closer is t's Close method without parameters, nil when it has none.
func (t *Target) closer() *Func {
	for _, m := range t.Methods {
		if m.Fn.Name() == "Close" && m.Sig.Params().Len() == 0 {
			return &m
		}
	}
	return nil
}

// startsGoroutines reports whether build (a case's Build) calls one of t's
// constructors that starts a goroutine: a go statement in its body or in a
// function of the package it reaches.
func (t *Target) startsGoroutines(build []string) bool {
	if t.starters == nil {
		t.starters = map[string]bool{}
		goes := map[*types.Func]bool{}
		for fn, fd := range packageFuncs(t.Pkg) {
			ast.Inspect(fd.Body, func(n ast.Node) bool {
				_, ok := n.(*ast.GoStmt)
				goes[fn] = goes[fn] || ok
				return !goes[fn]
			})
		}
		calls := packageCalls(t.Pkg)
		for _, c := range t.Ctors {
			if calls.reachesAny(c.Fn, goes) {
				t.starters[c.Fn.Name()] = true
			}
		}
	}
	for _, s := range build {
		for _, m := range ctorCall.FindAllStringSubmatch(s, -1) {
			if t.starters[m[1]] {
				return true
			}
		}
	}
	return false
}

// ctorCall matches a call of a package function in a Build statement
// ("statsd.New(", "puddle.NewPool[string](").
var ctorCall = regexp.MustCompile(`\.(\w+)(?:\[[^\]]*\])?\(`)

// restart is a case whose prefix calls start then stop on v, and whose
// goroutines each call them again, with the same arguments.
func (g *Generator) restart(t *Target, start, stop Func) *Case {
	c := &Case{Target: t}
	cs := &caseState{t: t}
	c.Build = g.build(t, "v", "x")
	a, b := g.call(start, cs), g.call(stop, cs)
	for _, tm := range []callTmpl{a, b} {
		c.Prefix = append(c.Prefix, prefixStmt(tm))
	}
	for th := 0; th < 2; th++ {
		c.Threads = append(c.Threads, []Call{a.render("v", false), b.render("v", false)})
	}
	g.observe(c, cs)
	return c
}

// freshFirst is a case with no prefix: each goroutine's first call is on a
// value nothing used yet; same gives both goroutines the same call (nil
// when no method of ms can be called so).
func (g *Generator) freshFirst(t *Target, ms []Func, same bool) *Case {
	c := &Case{Target: t}
	cs := &caseState{t: t}
	c.Build = g.build(t, "v", "x")
	var first Call
	for th := 0; th < 2; th++ {
		if th == 1 && same {
			c.Threads = append(c.Threads, []Call{first})
			continue
		}
		if len(ms) == 0 {
			return nil
		}
		m, ok := g.pick(ms[g.rng.Intn(len(ms))], t.Methods, cs)
		if !ok {
			return nil
		}
		first = g.call(m, cs).render("v", false)
		c.Threads = append(c.Threads, []Call{first})
	}
	g.observe(c, cs)
	return c
}

// observe adds t's observers, called on v after the goroutines.
func (g *Generator) observe(c *Case, cs *caseState) {
	for _, m := range c.Target.Observers {
		c.Observers = append(c.Observers, g.call(m, cs).render("v", false))
	}
}

// prefixStmt writes a call of the prefix on v, its results dropped.
func prefixStmt(tm callTmpl) string {
	call := "v." + tm.m.Fn.Name() + "(" + tm.code + ")"
	if n := tm.m.Sig.Results().Len(); n > 0 {
		return strings.TrimSuffix(strings.Repeat("_, ", n), ", ") + " = " + call
	}
	return call
}

// shapeSeed is what the shapes' stream adds to the generator's seed.
const shapeSeed = 7919

func newShapeRand(seed int64) *rand.Rand { return rand.New(rand.NewSource(seed + shapeSeed)) }
