package lockpair

// Exit hooks: package-level func variables that only ever hold functions
// that never return (var OsExit = os.Exit).

import (
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis/passes/buildssa"
	"golang.org/x/tools/go/ssa"
)

// findExitHooks returns the package-level variables of func type of this
// package that a call through ends the path: every store of the variable
// in the package's non-test files (its initializer included) is a named
// function that never returns (os.Exit, log.Fatal, a function of this
// package that calls them on every path), there is at least one, and the
// variable is used only by those stores and by loads (its address is
// not handed out, so no store hides behind a pointer).
//
// Stores in _test.go files are not counted: a test that swaps the hook
// for a recorder runs the code after it only under that test. Stores by
// other packages are not seen; an importer that replaces an exported hook
// with a function that returns breaks the contract the default value sets
// (klog: "the function should not simply return"), so the path is ended
// there too — precision before recall.
func (pc *passContext) findExitHooks(ssainfo *buildssa.SSA) map[*ssa.Global]bool {
	fns := append([]*ssa.Function(nil), ssainfo.SrcFuncs...)
	if init := ssainfo.Pkg.Func("init"); init != nil {
		fns = append(fns, init) // package-level initializers
	}
	stores := map[*ssa.Global]int{}
	bad := map[*ssa.Global]bool{}
	isHook := func(v ssa.Value) (*ssa.Global, bool) {
		g, ok := v.(*ssa.Global)
		if !ok || g.Pkg != ssainfo.Pkg {
			return nil, false
		}
		_, isFunc := g.Type().(*types.Pointer).Elem().Underlying().(*types.Signature)
		return g, isFunc
	}
	seen := map[*ssa.Function]bool{}
	var visit func(fn *ssa.Function)
	visit = func(fn *ssa.Function) {
		if seen[fn] {
			return
		}
		seen[fn] = true
		for _, anon := range fn.AnonFuncs {
			visit(anon)
		}
		inTest := strings.HasSuffix(pc.pass.Fset.Position(fn.Pos()).Filename, "_test.go")
		var ops []*ssa.Value
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				switch i := instr.(type) {
				case *ssa.Store:
					if g, ok := isHook(i.Addr); ok {
						if !inTest && !pc.noReturnValue(i.Val) {
							bad[g] = true
						}
						stores[g]++
						continue
					}
				case *ssa.UnOp:
					if i.Op == token.MUL {
						continue // a load
					}
				}
				for _, op := range instr.Operands(ops[:0]) {
					if op == nil {
						continue
					}
					if g, ok := isHook(*op); ok {
						bad[g] = true // &hook handed out, compared, converted
					}
				}
			}
		}
	}
	for _, fn := range fns {
		visit(fn)
	}
	hooks := map[*ssa.Global]bool{}
	for g, n := range stores {
		if n > 0 && !bad[g] {
			hooks[g] = true
			if v, ok := g.Object().(*types.Var); ok && v.Exported() {
				pc.pass.ExportObjectFact(v, &noReturnFact{}) // importers call it too (klog.OsExit(1))
			}
		}
	}
	return hooks
}

// noReturnValue reports whether v is a named function that never returns.
func (pc *passContext) noReturnValue(v ssa.Value) bool {
	fn, ok := v.(*ssa.Function)
	if !ok {
		return false
	}
	obj, ok := fn.Object().(*types.Func)
	return ok && pc.noReturn(obj)
}

// exitHookCall reports whether c calls through an exit hook: of this
// package, or of another whose pass exported noReturnFact for it.
func (pc *passContext) exitHookCall(c *ssa.CallCommon) bool {
	u, ok := c.Value.(*ssa.UnOp)
	if !ok || u.Op != token.MUL {
		return false
	}
	g, ok := u.X.(*ssa.Global)
	if !ok {
		return false
	}
	if v, ok := g.Object().(*types.Var); ok && g.Pkg != nil && g.Pkg.Pkg != pc.pass.Pkg {
		return pc.pass.ImportObjectFact(v, new(noReturnFact))
	}
	return pc.exitHooks[g]
}

// findHookExits returns the functions and methods of this package that
// never return because every path from their entry reaches a call that
// does not return — through an exit hook (klog's FlushAndExit ends in
// OsExit(code)), to a function ctrlflow or an imported fact says never
// returns, or to another such function of the package — before any
// return. ctrlflow does not follow calls of func values, so it says these
// return. A function with a recover block is left out (a deferred
// recover may turn a panic into a return).
func (pc *passContext) findHookExits(ssainfo *buildssa.SSA) map[*types.Func]bool {
	exits := map[*types.Func]bool{}
	if len(pc.exitHooks) == 0 && !importsHooks(pc) {
		return exits
	}
	var fns []*ssa.Function
	for _, fn := range ssainfo.SrcFuncs {
		if obj, ok := fn.Object().(*types.Func); ok && len(fn.Blocks) > 0 && fn.Recover == nil && !(pc.cfgs != nil && pc.cfgs.NoReturn(obj)) {
			fns = append(fns, fn)
		}
	}
	pc.hookExits = exits // noReturn sees the ones found so far
	ends := func(c *ssa.CallCommon) bool {
		if callee := c.StaticCallee(); callee != nil {
			obj, ok := callee.Object().(*types.Func)
			return ok && pc.noReturn(obj)
		}
		return pc.exitHookCall(c)
	}
	for changed := true; changed; {
		changed = false
		for _, fn := range fns {
			obj := fn.Object().(*types.Func)
			if !exits[obj] && !returnsPast(fn, ends) {
				exits[obj] = true
				changed = true
			}
		}
	}
	return exits
}

// importsHooks reports whether a dependency exported noReturnFact (for
// an exit hook, or a function that ends in one or never returns).
func importsHooks(pc *passContext) bool {
	for _, f := range pc.pass.AllObjectFacts() {
		if _, ok := f.Fact.(*noReturnFact); ok {
			return true
		}
	}
	return false
}

// returnsPast reports whether a path from fn's entry reaches a return
// without passing a call for which ends holds.
func returnsPast(fn *ssa.Function, ends func(*ssa.CallCommon) bool) bool {
	seen := make([]bool, len(fn.Blocks))
	stack := []*ssa.BasicBlock{fn.Blocks[0]}
	seen[0] = true
	for len(stack) > 0 {
		b := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		stopped := false
		for _, instr := range b.Instrs {
			if call, ok := instr.(*ssa.Call); ok && ends(call.Common()) {
				stopped = true
				break
			}
			if _, ok := instr.(*ssa.Return); ok {
				return true
			}
		}
		if stopped {
			continue
		}
		for _, succ := range b.Succs {
			if !seen[succ.Index] {
				seen[succ.Index] = true
				stack = append(stack, succ)
			}
		}
	}
	return false
}
