package affected

import (
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// registered finds the closures a test package's init registers with
// another package (Ginkgo's `var _ = Describe("…", func() {…})`: the spec
// bodies are handed to the framework at init and run later, from a test
// that calls the framework's RunSpecs). It maps each such package to the
// closures handed to it. No call graph sees these runs: the framework
// keeps the closures in its own data structures.
func registered(sp *ssa.Package) map[*types.Package][]*ssa.Function {
	init := sp.Func("init")
	if init == nil {
		return nil
	}
	inits := []*ssa.Function{init}
	// func init() {…} bodies are init#1, init#2, …, called by init.
	for _, b := range init.Blocks {
		for _, instr := range b.Instrs {
			if c, ok := instr.(*ssa.Call); ok {
				if f := c.Common().StaticCallee(); f != nil && f.Pkg == sp && strings.HasPrefix(f.Name(), "init#") {
					inits = append(inits, f)
				}
			}
		}
	}
	out := map[*types.Package][]*ssa.Function{}
	for _, fn := range inits {
		for _, anon := range fn.AnonFuncs {
			var v ssa.Value = anon
			for _, b := range fn.Blocks { // a closure with free variables
				for _, instr := range b.Instrs {
					if mc, ok := instr.(*ssa.MakeClosure); ok && mc.Fn == anon {
						v = mc
					}
				}
			}
			for _, p := range handedTo(v, sp.Pkg, map[ssa.Value]bool{}) {
				if !containsFunc(out[p], anon) {
					out[p] = append(out[p], anon)
				}
			}
		}
	}
	return out
}

// handedTo follows v through conversions, variadic argument slices and
// struct fields to the calls it is an argument of, and returns the packages
// (other than own) of those calls' callees.
func handedTo(v ssa.Value, own *types.Package, seen map[ssa.Value]bool) []*types.Package {
	if v == nil || seen[v] || len(seen) > 64 {
		return nil
	}
	seen[v] = true
	refs := v.Referrers()
	if refs == nil {
		return nil
	}
	var out []*types.Package
	for _, r := range *refs {
		switch r := r.(type) {
		case ssa.CallInstruction:
			c := r.Common()
			arg := false
			for _, a := range c.Args {
				arg = arg || a == v
			}
			if !arg {
				continue
			}
			var p *types.Package
			if f := c.StaticCallee(); f != nil && f.Object() != nil {
				p = f.Object().Pkg()
			} else if c.Method != nil {
				p = c.Method.Pkg()
			}
			if p != nil && p != own {
				out = append(out, p)
			}
		case *ssa.MakeInterface, *ssa.ChangeType, *ssa.ChangeInterface, *ssa.Slice:
			out = append(out, handedTo(r.(ssa.Value), own, seen)...)
		case *ssa.Store:
			if r.Val != v {
				continue
			}
			switch a := r.Addr.(type) {
			case *ssa.IndexAddr: // a variadic argument's backing array
				out = append(out, handedTo(a.X, own, seen)...)
			case *ssa.FieldAddr: // a field of an options struct
				out = append(out, handedTo(a.X, own, seen)...)
			}
		case *ssa.UnOp: // a struct loaded from its address
			out = append(out, handedTo(r, own, seen)...)
		}
	}
	return out
}

func containsFunc(fs []*ssa.Function, f *ssa.Function) bool {
	for _, g := range fs {
		if g == f {
			return true
		}
	}
	return false
}

// callsInto reports whether fn, or a closure defined in it, calls a
// function or method of one of the packages.
func callsInto(fn *ssa.Function, pkgs map[*types.Package][]*ssa.Function) bool {
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			ci, ok := instr.(ssa.CallInstruction)
			if !ok {
				continue
			}
			c := ci.Common()
			var p *types.Package
			if f := c.StaticCallee(); f != nil {
				if o := f.Object(); o != nil {
					p = o.Pkg()
				} else if o := f.Origin(); o != nil && o.Object() != nil {
					p = o.Object().Pkg()
				}
			} else if c.Method != nil {
				p = c.Method.Pkg()
			}
			if p != nil && pkgs[p] != nil {
				return true
			}
		}
	}
	for _, anon := range fn.AnonFuncs {
		if callsInto(anon, pkgs) {
			return true
		}
	}
	return false
}
