package guardedby

// Joined workers: a goroutine registered with a WaitGroup field (started
// by wg.Go, or by go after wg.Add with a deferred wg.Done) is over once
// the same value's wg.Wait() returns, so it is no evidence against an
// access that follows the Wait on every path (close(s.stopCh);
// s.wg.Wait(); s.parts = nil).

import (
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/interleave-dev/interleave/checks/static/internal/lockset"
)

// wgField returns the WaitGroup struct field that v, a *sync.WaitGroup
// operand, selects (s.wg), nil for a local or a package variable.
func wgField(v ssa.Value) *types.Var {
	if !lockset.IsNamed(v.Type(), "sync", "WaitGroup") {
		return nil
	}
	if f := lockset.PathOf(v).FieldVar(); f != nil {
		return f.Origin()
	}
	return nil
}

// startWG returns the WaitGroup field the goroutine the go statement g
// starts is registered with: the started function defers wg.Done() on
// that field, and g's function calls wg.Add on it before g on every path.
func startWG(g *ssa.Go) *types.Var {
	f := funcOf(g.Call.Value)
	if f == nil {
		return nil
	}
	var done *types.Var
	for _, b := range f.Blocks {
		for _, instr := range b.Instrs {
			if d, ok := instr.(*ssa.Defer); ok && lockset.CalleeIs(d.Common(), "sync", "WaitGroup", "Done") && len(d.Call.Args) == 1 {
				done = wgField(d.Call.Args[0])
			}
		}
	}
	if done == nil {
		return nil
	}
	for _, in := range before(g) {
		if c, ok := in.(*ssa.Call); ok && lockset.CalleeIs(&c.Call, "sync", "WaitGroup", "Add") && wgField(c.Call.Args[0]) == done {
			return done
		}
	}
	return nil
}

// before returns the instructions that run before instr on every path
// through its function: those of the blocks dominating its block, and
// the earlier ones of its own block.
func before(instr ssa.Instruction) []ssa.Instruction {
	var out []ssa.Instruction
	b := instr.Block()
	for _, blk := range b.Parent().Blocks {
		if !blk.Dominates(b) {
			continue
		}
		for _, in := range blk.Instrs {
			if in == instr {
				break
			}
			out = append(out, in)
		}
	}
	return out
}

// joins returns the WaitGroup fields of o's own base that o's function
// waits for before o on every path (s.wg.Wait() before s.parts = nil).
func (o *obs) joins() map[*types.Var]bool {
	if o.r == nil || o.instr == nil || o.path.IsZero() {
		return nil
	}
	var out map[*types.Var]bool
	for _, in := range before(o.instr) {
		c, ok := in.(*ssa.Call)
		if !ok || !lockset.CalleeIs(&c.Call, "sync", "WaitGroup", "Wait") || len(c.Call.Args) != 1 {
			continue
		}
		f := wgField(c.Call.Args[0])
		if f == nil || o.r.Path(c.Call.Args[0]) != o.path.Child(f.Name()) {
			continue
		}
		if out == nil {
			out = map[*types.Var]bool{}
		}
		out[f] = true
	}
	return out
}

// joinedFor reports whether every goroutine that reaches fn is
// registered with a WaitGroup that o's function waits for before o.
func (c *concurrency) joinedFor(o *obs, fn *ssa.Function) bool {
	if len(c.bg[fn]) == 0 || c.loose[fn] {
		return false
	}
	j := o.joins()
	for wg := range c.wgs[fn] {
		if !j[wg] {
			return false
		}
	}
	return true
}

// joinedField reports whether o comes after the join of every goroutine
// that reaches another access of the field (and there is one): the
// inferred guard's evidence of sharing is gone.
func (c *concurrency) joinedField(o *obs, info *fieldInfo) bool {
	some := false
	for _, o2 := range info.obs {
		if o2.fn == o.fn || len(c.bg[o2.fn]) == 0 {
			continue
		}
		if !c.joinedFor(o, o2.fn) {
			return false
		}
		some = true
	}
	return some
}
