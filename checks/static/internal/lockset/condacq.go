package lockset

import (
	"go/constant"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// A conditional lock helper returns with a lock held exactly on the
// paths that report success through its last result: a nil error
// (func (w *W) lock() error) or true (func (w *W) tryLock() bool, the
// TryLock shape). Its caller holds the lock on the edge of the test of
// that result that means success (err == nil, ok).

// condAcquires returns the locks fn holds, relative to its parameters,
// on every return that reports success and on no return that reports
// failure; nil when fn is not such a helper. A return whose status is
// not a constant (return err) with a lock held makes fn no helper.
func (a *Analysis) condAcquires(fn *ssa.Function) []effect {
	res := fn.Signature.Results()
	if res.Len() == 0 || !statusType(res.At(res.Len()-1).Type()) || !locksDirectly(fn) {
		return nil
	}
	r := &Result{Fn: fn, before: map[ssa.Instruction]State{}, subst: map[*ssa.FreeVar]Path{}}
	run := &funcRun{a: a, res: r, record: true}
	run.analyze(fn, State{}, 0)
	var ok *State
	var failed []State
	for _, b := range fn.Blocks {
		ret, isRet := b.Instrs[len(b.Instrs)-1].(*ssa.Return)
		if !isRet || len(ret.Results) == 0 {
			continue
		}
		st, reached := r.Before(ret)
		if !reached {
			continue
		}
		st = dropDeferred(st)
		switch status(ret.Results[len(ret.Results)-1]) {
		case statusOK:
			if ok == nil {
				ok = &st
			} else {
				m := meet(*ok, st)
				ok = &m
			}
		case statusFailed:
			failed = append(failed, st)
		default:
			if st.Len() > 0 {
				return nil
			}
			failed = append(failed, st)
		}
	}
	if ok == nil || len(failed) == 0 {
		return nil
	}
	var out []effect
	for _, h := range ok.held {
		i := paramIndex(fn, h.Lock.Root)
		if i < 0 {
			continue
		}
		released := true
		for _, f := range failed {
			if _, held := f.Holds(h.Lock); held {
				released = false
			}
		}
		if released {
			out = append(out, effect{i, h.Lock.Fields, h.Mode})
		}
	}
	return out
}

// statusType reports whether t is error or bool.
func statusType(t types.Type) bool {
	if b, ok := t.Underlying().(*types.Basic); ok {
		return b.Kind() == types.Bool || b.Kind() == types.UntypedBool
	}
	return types.Identical(t, types.Universe.Lookup("error").Type())
}

// locksDirectly reports whether fn itself calls Lock, RLock, TryLock or
// TryRLock.
func locksDirectly(fn *ssa.Function) bool {
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if c, ok := instr.(ssa.CallInstruction); ok {
				switch op, _ := Classify(c.Common()); op {
				case OpLock, OpRLock, OpTryLock, OpTryRLock:
					return true
				}
			}
		}
	}
	return false
}

const (
	statusUnknown = iota
	statusOK
	statusFailed
)

// status classifies a returned status value: nil error or true is
// success; false, a boxed value or errors.New/fmt.Errorf is failure.
func status(v ssa.Value) int {
	if _, ok := v.(*ssa.MakeInterface); ok {
		return statusFailed // a boxed value is never a nil error
	}
	k, ok := v.(*ssa.Const)
	if !ok {
		if c, isCall := v.(*ssa.Call); isCall {
			if f := c.Call.StaticCallee(); f != nil && f.Pkg != nil && f.Pkg.Pkg.Path() == "errors" && f.Name() == "New" {
				return statusFailed
			}
			if f := c.Call.StaticCallee(); f != nil && f.Pkg != nil && f.Pkg.Pkg.Path() == "fmt" && f.Name() == "Errorf" {
				return statusFailed
			}
		}
		return statusUnknown
	}
	if k.Value == nil {
		if k.IsNil() {
			return statusOK
		}
		return statusUnknown
	}
	if k.Value.Kind() == constant.Bool {
		if constant.BoolVal(k.Value) {
			return statusOK
		}
		return statusFailed
	}
	return statusUnknown
}

// condLocks is what a call to a conditional lock helper holds on success.
type condLocks struct {
	held []Held
}

// edgeLocks is the lock acquired on one edge of an if: the true edge of a
// TryLock condition, or the success edge of a conditional helper's status.
type edgeLocks struct {
	edge int
	held []Held
}

// condEdge returns the locks held on one edge of an if on cond, when
// cond tests the status of a call to a conditional lock helper: v, !v,
// v == nil, v != nil (v the call, or its last result).
func (r *Result) condEdge(cond ssa.Value) *edgeLocks {
	if len(r.condFns) == 0 {
		return nil
	}
	okEdge := 0
	switch c := cond.(type) {
	case *ssa.UnOp:
		if c.Op != token.NOT {
			return nil
		}
		cond, okEdge = c.X, 1
	case *ssa.BinOp:
		if c.Op != token.EQL && c.Op != token.NEQ {
			return nil
		}
		x := c.X
		if k, ok := x.(*ssa.Const); ok && k.IsNil() {
			x = c.Y
		} else if k, ok := c.Y.(*ssa.Const); !ok || !k.IsNil() {
			return nil
		}
		cond = x
		if c.Op == token.NEQ {
			okEdge = 1
		}
	}
	if e, ok := cond.(*ssa.Extract); ok {
		if tup, isTuple := e.Tuple.Type().(*types.Tuple); !isTuple || e.Index != tup.Len()-1 {
			return nil
		}
		cond = e.Tuple
	}
	cl, ok := r.condFns[cond]
	if !ok {
		return nil
	}
	return &edgeLocks{edge: okEdge, held: cl.held}
}
