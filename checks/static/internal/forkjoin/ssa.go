package forkjoin

// On SSA: goroutines registered with a WaitGroup field, and the waits on
// such fields before an instruction.

import (
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/interleave-dev/interleave/checks/static/internal/lockset"
)

// WGField returns the WaitGroup struct field that v, a *sync.WaitGroup
// operand, selects (s.wg), nil for a local or a package variable.
func WGField(v ssa.Value) *types.Var {
	if !lockset.IsNamed(v.Type(), "sync", "WaitGroup") {
		return nil
	}
	if f := lockset.PathOf(v).FieldVar(); f != nil {
		return f.Origin()
	}
	return nil
}

// StartWG returns the WaitGroup field that the goroutine g starts, running
// f, is registered with: f defers wg.Done() on that field, and g's
// function calls wg.Add on it before g on every path. Nil otherwise.
func StartWG(g *ssa.Go, f *ssa.Function) *types.Var {
	if f == nil {
		return nil
	}
	var done *types.Var
	for _, b := range f.Blocks {
		for _, instr := range b.Instrs {
			if d, ok := instr.(*ssa.Defer); ok && lockset.CalleeIs(d.Common(), "sync", "WaitGroup", "Done") && len(d.Call.Args) == 1 {
				done = WGField(d.Call.Args[0])
			}
		}
	}
	if done == nil {
		return nil
	}
	for _, in := range before(g) {
		if c, ok := in.(*ssa.Call); ok && lockset.CalleeIs(&c.Call, "sync", "WaitGroup", "Add") && WGField(c.Call.Args[0]) == done {
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

// A Wait is a wg.Wait() on a WaitGroup struct field.
type Wait struct {
	Field *types.Var // the WaitGroup field (s.wg's wg)
	WG    ssa.Value  // the call's operand (&s.wg)
}

// Waits returns the waits on WaitGroup fields that run before instr on
// every path (s.wg.Wait() before s.parts = nil), in instruction order.
func Waits(instr ssa.Instruction) []Wait {
	var out []Wait
	for _, in := range before(instr) {
		c, ok := in.(*ssa.Call)
		if !ok || !lockset.CalleeIs(&c.Call, "sync", "WaitGroup", "Wait") || len(c.Call.Args) != 1 {
			continue
		}
		if f := WGField(c.Call.Args[0]); f != nil {
			out = append(out, Wait{Field: f, WG: c.Call.Args[0]})
		}
	}
	return out
}
