package gen

import (
	"go/types"
	"slices"
)

// Access pairs. A static candidate (an unguarded access of a field another
// method writes under a lock, a plain read of an atomically updated field)
// names two places: the access and the other side. A schedule confirms it
// only when the race detector fires at them, so the generated test worth
// running first calls the method holding one side against the method
// holding the other, on the same value (Options.AccessPairs, Target.Pairs):
// geth's LegacyPool.Add (reads pool.all) against Clear (replaces it under
// pool.mu).

// maxAccessPairs bounds the cases made from Target.Pairs.
const maxAccessPairs = 4

// setPairs fills t.Pairs from pairs (the method names of each candidate's
// two sides), keeping the methods t has, and adds their methods to
// t.Focus: the cases that call them come first (focusFirst).
func setPairs(t *Target, pairs func(t *Target) [][2]string) {
	byName := func(name string) (Func, bool) {
		i := slices.IndexFunc(t.Methods, func(m Func) bool { return m.Fn.Name() == name })
		if i < 0 {
			return Func{}, false
		}
		return t.Methods[i], true
	}
	seen := map[[2]*types.Func]bool{}
	for _, p := range pairs(t) {
		a, okA := byName(p[0])
		b, okB := byName(p[1])
		if !okA || !okB || seen[[2]*types.Func{a.Fn, b.Fn}] || seen[[2]*types.Func{b.Fn, a.Fn}] {
			continue
		}
		seen[[2]*types.Func{a.Fn, b.Fn}] = true
		t.Pairs = append(t.Pairs, [2]Func{a, b})
		for _, m := range []Func{a, b} {
			if !slices.ContainsFunc(t.Focus, func(f Func) bool { return f.Fn == m.Fn }) {
				t.Focus = append(t.Focus, m)
			}
		}
	}
}

// accessPairs are the cases of t.Pairs whose methods the generator can
// call on a fresh value, at most maxAccessPairs: each side in a goroutine
// of its own, the arguments drawn from one pool (the same key or handle
// in both when their types match).
func (g *Generator) accessPairs(t *Target) []*Case {
	var out []*Case
	cs := &caseState{t: t}
	for _, p := range t.Pairs {
		if len(out) == maxAccessPairs {
			break
		}
		if cs.callable(p[0]) && cs.callable(p[1]) {
			out = append(out, g.pair(t, p[0], p[1]))
		}
	}
	return out
}
