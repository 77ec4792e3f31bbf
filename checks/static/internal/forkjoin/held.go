package forkjoin

// On SSA: the locks a starter holds from a go statement until it waits
// (guardedby's fork-join under a lock).

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/interleave-dev/interleave/checks/static/internal/lockset"
)

// HeldAtWait returns the mutex fields held before instr in r and still held
// at a later wait of the same function (a channel receive, a blocking
// select, WaitGroup.Wait): the starter keeps the lock while it waits for
// the goroutine. A goroutine merely started under the lock outlives it.
func HeldAtWait(r *lockset.Result, instr ssa.Instruction) []*types.Var {
	st, ok := r.Before(instr)
	if !ok || st.Len() == 0 {
		return nil
	}
	var out []*types.Var
	fn := instr.Parent()
	for _, h := range st.Locks() {
		v := h.Lock.FieldVar()
		if v == nil {
			continue
		}
		waits := false
		for _, b := range fn.Blocks {
			// A wait the go statement dominates, or one every path from
			// it to a return passes (workers started in a loop, awaited
			// after it), in the same critical section.
			if !instr.Block().Dominates(b) && !passedBy(instr, b) {
				continue
			}
			for i, in := range b.Instrs {
				if b == instr.Block() && i <= indexIn(b, instr) || !WaitPoint(in) {
					continue
				}
				if later, ok := r.Before(in); ok {
					if lh, held := later.Holds(h.Lock); held && (lh.Pos == h.Pos || instr.Block().Dominates(b)) {
						waits = true
					}
				}
			}
		}
		if waits {
			out = append(out, v.Origin())
		}
	}
	return out
}

// passedBy reports whether every path from instr to a return of its
// function goes through block b (b later in instr's own block counts).
func passedBy(instr ssa.Instruction, b *ssa.BasicBlock) bool {
	from := instr.Block()
	if from == b {
		return true // the wait is checked to come after instr
	}
	seen := map[*ssa.BasicBlock]bool{b: true}
	stack := append([]*ssa.BasicBlock(nil), from.Succs...)
	if len(from.Succs) == 0 {
		return false
	}
	for len(stack) > 0 {
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[x] {
			continue
		}
		seen[x] = true
		if len(x.Succs) == 0 {
			return false // a return (or panic) without passing b
		}
		stack = append(stack, x.Succs...)
	}
	return true
}

func WaitPoint(instr ssa.Instruction) bool {
	switch i := instr.(type) {
	case *ssa.UnOp:
		return i.Op == token.ARROW
	case *ssa.Select:
		return i.Blocking
	case *ssa.Call:
		return lockset.CalleeIs(&i.Call, "sync", "WaitGroup", "Wait")
	}
	return false
}

// indexIn returns the index of instr in b.Instrs, or -1.
func indexIn(b *ssa.BasicBlock, instr ssa.Instruction) int {
	for i, in := range b.Instrs {
		if in == instr {
			return i
		}
	}
	return -1
}
