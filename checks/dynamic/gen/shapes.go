// The shapes of test a person writes first for a type: a restart, and a
// fresh value whose first calls are concurrent.

package gen

import (
	"fmt"
	"math/rand"
	"regexp"
	"slices"
	"strings"
)

// Lifecycle methods, by name: a restart calls a start-like method and
// then a stop-like one, and again.
var (
	startLike = regexp.MustCompile(`^(Start|Open|Run|Begin|Resume|Connect|Enable|Subscribe|Listen|Serve)`)
	stopLike  = regexp.MustCompile(`^(Stop|Close|Shutdown|End|Pause|Disconnect|Disable|Unsubscribe|Cancel|Halt|Quit)`)
)

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
// two mutators. They draw from a stream of their own: Generate's cases
// stay those of the same seed.
func (g *Generator) Shapes(t *Target, from int) []*Case {
	sg := &Generator{rng: g.shapes, q: g.q}
	var out []*Case
	add := func(c *Case) {
		c.Name = fmt.Sprintf("TestInterleaveGen_%s_%d", t.Name.Name(), from+len(out))
		out = append(out, c)
	}
	for _, p := range lifecyclePairs(t) {
		add(sg.restart(t, p[0], p[1]))
	}
	// The first calls change state: the changed methods, else the
	// methods that return nothing, else any mutator.
	muts := mutators(t)
	first := t.Focus
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
	return out
}

// lifecyclePairs are the start-like and stop-like method pairs of t
// callable on one value, those with a changed method (Target.Focus)
// first, at most maxRestarts.
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
	var first, rest [][2]Func
	for _, a := range starts {
		for _, b := range stops {
			if focused(a) || focused(b) {
				first = append(first, [2]Func{a, b})
			} else {
				rest = append(rest, [2]Func{a, b})
			}
		}
	}
	all := append(first, rest...)
	return all[:min(len(all), maxRestarts)]
}

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
