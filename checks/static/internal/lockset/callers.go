package lockset

import (
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// Caller locksets: the locks every call of a function holds, named by
// the mutex field they are (a Class), so that a lock survives calls that
// do not pass its owner (s.device.dispatchMu held around
// d.rings[i].SetAddr(v)) and meets the same mutex reached through a
// pointer field (r.dispatchMu, every store into which is
// &d.dispatchMu).
//
// A function's callers are all visible when it is not used as a value nor
// called through an interface, is called at least once outside _test.go
// files (for a function declared outside them), and is unexported, or
// exported in a main package or in an internal package. The last rule is
// a choice: an exported function of an internal package can be called
// only from its module's tree, whose authors share the package's locking
// protocol, but those callers are in other packages this analysis does
// not see (facts flow only from a package to its importers); any other
// exported function has unknown callers and no caller classes.
//
// Classes only ever exclude (two accesses that both hold one class, one
// of them exclusively, do not race): two values of one type, each with
// its own mutex, are not told apart, which is why a pass uses them only to
// drop the other side of a race, not to prove a guard held.

// Class is a lock named by the mutex field it is, and the mode it is held
// in.
type Class struct {
	Field *types.Var
	Mode  Mode
}

// CallerClasses returns the lock classes held at every call of r's
// function, through every chain of callers (nil when some caller is not
// visible).
func (r *Result) CallerClasses() []Class { return r.callerClasses }

// ClassesAt returns the lock classes held at instr: its own locks (and
// those its entry state gives it) and its callers'.
func (r *Result) ClassesAt(instr ssa.Instruction) []Class {
	out := r.ownClassesAt(instr)
	for _, c := range r.callerClasses {
		out = addClass(out, c)
	}
	return out
}

// Excluded returns a class both sets hold, one of them exclusively: the
// two places cannot run at once.
func Excluded(a, b []Class) (*types.Var, bool) {
	for _, x := range a {
		for _, y := range b {
			if x.Field == y.Field && (x.Mode == Exclusive || y.Mode == Exclusive) {
				return x.Field, true
			}
		}
	}
	return nil, false
}

// addClass adds c to cs, keeping the stronger mode of a class held twice.
func addClass(cs []Class, c Class) []Class {
	for i, x := range cs {
		if x.Field == c.Field {
			if c.Mode > x.Mode {
				cs[i].Mode = c.Mode
			}
			return cs
		}
	}
	return append(cs, c)
}

// meetClasses keeps the classes held in both a and b, in the weaker mode.
func meetClasses(a, b []Class) []Class {
	var out []Class
	for _, x := range a {
		for _, y := range b {
			if x.Field == y.Field {
				out = append(out, Class{x.Field, min(x.Mode, y.Mode)})
			}
		}
	}
	return out
}

func equalClasses(a, b []Class) bool {
	if len(a) != len(b) {
		return false
	}
	for _, x := range a {
		found := false
		for _, y := range b {
			if x == y {
				found = true
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// classOf names the held lock h by its mutex field, through the pointer
// field it was loaded from when every store into that field takes the
// address of one mutex field.
func (r *Result) classOf(h Held) (Class, bool) {
	f := h.Lock.FieldVar()
	if g, ok := h.Lock.Root.(*ssa.Global); ok && h.Lock.Fields == "" {
		f, _ = g.Object().(*types.Var) // a package-level mutex
	}
	if f == nil {
		return Class{}, false
	}
	f = f.Origin()
	if r.targets != nil {
		if t, ok := r.targets[f]; ok && t != nil {
			f = t
		}
	}
	return Class{f, h.Mode}, true
}

// pointerTargets maps each unexported struct field of pointer type that
// the package stores into to the mutex field every such store takes the address of
// (&d.dispatchMu), or to nil when the stores disagree or store anything
// else.
func pointerTargets(fns []*ssa.Function) map[*types.Var]*types.Var {
	out := map[*types.Var]*types.Var{}
	var visit func(fn *ssa.Function)
	visit = func(fn *ssa.Function) {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				st, ok := instr.(*ssa.Store)
				if !ok {
					continue
				}
				fa, ok := st.Addr.(*ssa.FieldAddr)
				if !ok {
					continue
				}
				if _, ok := fa.Type().Underlying().(*types.Pointer).Elem().Underlying().(*types.Pointer); !ok {
					continue // the field is no pointer
				}
				f := FieldOf(fa).Origin()
				if f.Exported() {
					continue // importers may store into it too
				}
				var t *types.Var
				if src, ok := st.Val.(*ssa.FieldAddr); ok {
					t = FieldOf(src).Origin()
				}
				if prev, seen := out[f]; seen && prev != t {
					t = nil
				}
				out[f] = t
			}
		}
		for _, anon := range fn.AnonFuncs {
			visit(anon)
		}
	}
	for _, fn := range fns {
		if fn.Parent() == nil {
			visit(fn)
		}
	}
	return out
}

// visibleCallers reports whether every caller of the top-level function
// fn can be among sites (see the package comment on caller locksets).
func visibleCallers(fn *ssa.Function, escapes bool, invoked []*types.Interface, sites []callSite) bool {
	if escapes || viaInterface(fn, invoked) || len(sites) == 0 {
		return false
	}
	if !token.IsExported(fn.Name()) {
		return !(fn.Signature.Recv() == nil && (IsInitName(fn.Name()) || fn.Name() == "main"))
	}
	if fn.Pkg == nil {
		return false
	}
	p := fn.Pkg.Pkg
	if p.Name() == "main" {
		return true
	}
	for _, elem := range strings.Split(p.Path(), "/") {
		if elem == "internal" {
			return true
		}
	}
	return false
}

// maxClassRounds bounds the rounds of inferCallerClasses; caller classes
// only shrink from a function's first value, so a package needs few.
const maxClassRounds = 32

// inferCallerClasses sets the caller classes of every top-level function
// whose callers are all visible: the classes held at every call, its own
// locks there and its callers' (a greatest fixpoint: a caller not
// computed yet is skipped).
func inferCallerClasses(results []*Result, sites map[*ssa.Function][]callSite, escapes map[*ssa.Function]bool, invoked map[string][]*types.Interface, targets map[*types.Var]*types.Var) {
	byFn := map[*ssa.Function]*Result{}
	for _, r := range results {
		r.targets = targets
		if r.Fn.Parent() == nil {
			byFn[r.Fn] = r
		}
	}
	// Inlined literals share their parent's Result.
	resultOf := func(r *Result) *Result {
		if r == nil {
			return nil
		}
		if byFn[r.Fn] == r {
			return r
		}
		return nil
	}
	eligible := map[*ssa.Function]bool{}
	for fn := range byFn {
		eligible[fn] = visibleCallers(fn, escapes[fn], invoked[fn.Name()], sites[fn])
	}
	done := map[*ssa.Function]bool{}
	for round := 0; ; round++ {
		if round == maxClassRounds {
			for _, r := range byFn {
				r.callerClasses = nil // not settled: claim nothing
			}
			return
		}
		changed := false
		for fn, r := range byFn {
			if !eligible[fn] {
				continue
			}
			var in []Class
			first := true
			for _, s := range sites[fn] {
				if s.r == nil {
					in, first = nil, false // a package initializer holds nothing
					continue
				}
				var here []Class
				switch s.call.(type) {
				case *ssa.Go, *ssa.Defer:
					// A goroutine holds nothing; a deferred call runs at
					// return, after unlocks this state does not show.
				default:
					here = s.r.ownClassesAt(s.call)
				}
				if caller := resultOf(s.r); caller != nil && caller.Fn != fn && eligible[caller.Fn] {
					if !done[caller.Fn] {
						continue // not computed yet: optimistic
					}
					for _, c := range caller.callerClasses {
						here = addClass(here, c)
					}
				}
				if first {
					in, first = here, false
				} else {
					in = meetClasses(in, here)
				}
			}
			if first {
				continue
			}
			if !done[fn] || !equalClasses(in, r.callerClasses) {
				r.callerClasses = in
				done[fn] = true
				changed = true
			}
		}
		if !changed {
			break
		}
	}
}

// ownClassesAt returns the lock classes of the locks held at instr in r,
// without r's callers'.
func (r *Result) ownClassesAt(instr ssa.Instruction) []Class {
	var out []Class
	if st, ok := r.Before(instr); ok {
		for _, h := range st.held {
			if c, ok := r.classOf(h); ok {
				out = addClass(out, c)
			}
		}
	}
	return out
}
