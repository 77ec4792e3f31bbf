package guardedby

import (
	"fmt"
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/analysis/passes/buildssa"
	"golang.org/x/tools/go/ssa"
)

// IL1009 (opt-in) is IL1008 confirmed: the unlocked read is in a method
// other components call through an interface, a locked write is made on
// a value already shared (sharedAt, the test IL1008's writes pass), the
// reading function calls no helper that takes the guard on values the
// lockset cannot follow (lockNodes(ns...), which locks n.mu of each), and
// something can call the reader.

// sharedWrite returns a write of f in counted that holds mu and is made
// on a value already shared (sharedAt). nil if there is none.
func sharedWrite(counted []*obs, mu, f *types.Var) *obs {
	for _, w := range counted {
		if w.write && w.holds(mu) && sharedAt(w, f) {
			return w
		}
	}
	return nil
}

// callsLockHelper reports whether fn (or the function it is a literal in)
// calls a function of the package that locks mu on some value and never
// unlocks mu: a lock helper, after which the lockset may not know that mu
// is held.
func (pc *passContext) callsLockHelper(fn *ssa.Function, mu *types.Var) bool {
	if pc.lockHelpers == nil {
		pc.lockHelpers = pc.findLockHelpers()
	}
	helpers := pc.lockHelpers[mu.Origin()]
	if len(helpers) == 0 {
		return false
	}
	top := topLevel(fn)
	body := funcBody(top)
	if body == nil {
		return true // no syntax to look at: do not confirm
	}
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok || found {
			return !found
		}
		var id *ast.Ident
		switch f := ast.Unparen(call.Fun).(type) {
		case *ast.Ident:
			id = f
		case *ast.SelectorExpr:
			id = f.Sel
		}
		if id != nil {
			if obj, ok := pc.pass.TypesInfo.Uses[id].(*types.Func); ok && helpers[obj.Origin()] {
				found = true
			}
		}
		return !found
	})
	return found
}

// funcBody returns the body of fn's declaration or literal, if it has one.
func funcBody(fn *ssa.Function) *ast.BlockStmt {
	switch s := fn.Syntax().(type) {
	case *ast.FuncDecl:
		return s.Body
	case *ast.FuncLit:
		return s.Body
	}
	return nil
}

// findLockHelpers maps each mutex field to the package's functions that
// call Lock or RLock on it (through any value) and call no Unlock or
// RUnlock of it.
func (pc *passContext) findLockHelpers() map[*types.Var]map[*types.Func]bool {
	out := map[*types.Var]map[*types.Func]bool{}
	for _, file := range pc.pass.Files {
		for _, decl := range file.Decls {
			fd, ok := decl.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			obj, ok := pc.pass.TypesInfo.Defs[fd.Name].(*types.Func)
			if !ok {
				continue
			}
			locked := map[*types.Var]bool{}
			unlocked := map[*types.Var]bool{}
			ast.Inspect(fd.Body, func(n ast.Node) bool {
				call, ok := n.(*ast.CallExpr)
				if !ok {
					return true
				}
				sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
				if !ok {
					return true
				}
				recv, ok := ast.Unparen(sel.X).(*ast.SelectorExpr)
				if !ok {
					return true
				}
				s := pc.pass.TypesInfo.Selections[recv]
				if s == nil || s.Kind() != types.FieldVal {
					return true
				}
				v, ok := s.Obj().(*types.Var)
				if !ok {
					return true
				}
				switch sel.Sel.Name {
				case "Lock", "RLock":
					locked[v.Origin()] = true
				case "Unlock", "RUnlock":
					unlocked[v.Origin()] = true
				}
				return true
			})
			for v := range locked {
				if unlocked[v] {
					continue
				}
				if out[v] == nil {
					out[v] = map[*types.Func]bool{}
				}
				out[v][obj.Origin()] = true
			}
		}
	}
	return out
}

// sharedReadMessage is IL1009's message: IL1008's, naming the shared
// write that confirms it.
func (pc *passContext) sharedReadMessage(field, lock string, o, w *obs, locked, others int) string {
	return fmt.Sprintf("field %s read without holding %s in exported method %s, while every write of it holds it and %s writes it on a shared value at line %d (held at %d of %d other accesses)",
		field, lock, o.fn.Name(), topLevel(w.fn).Name(), pc.pass.Fset.Position(w.pos).Line, locked, others)
}

// unreachableMethod reports whether fn is an exported method of an
// unexported type that nothing can call: the package never calls it nor
// takes it as a value, never embeds the type, and converts the type only
// to non-empty interfaces that lack the method. Such a reader (an unused
// getter) cannot race.
func (pc *passContext) unreachableMethod(fn *ssa.Function) bool {
	obj, ok := pc.packageOnlyMethod(fn)
	if !ok {
		return false
	}
	for _, used := range pc.pass.TypesInfo.Uses {
		if f, ok := used.(*types.Func); ok && f.Origin() == obj.Origin() {
			return false
		}
	}
	return true
}

// packageOnlyMethod returns fn's object when fn is a method of an
// unexported type of the package that only the package can call: the
// type is never embedded, and converted only to non-empty interfaces
// that lack the method.
func (pc *passContext) packageOnlyMethod(fn *ssa.Function) (*types.Func, bool) {
	obj, ok := fn.Object().(*types.Func)
	if !ok || fn.Signature.Recv() == nil {
		return nil, false
	}
	t := fn.Signature.Recv().Type()
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	named, ok := t.(*types.Named)
	if !ok || named.Obj().Exported() || named.Obj().Pkg() != pc.pass.Pkg {
		return nil, false
	}
	for _, tv := range pc.pass.TypesInfo.Types {
		st, ok := tv.Type.(*types.Struct)
		if !ok {
			continue
		}
		for i := 0; i < st.NumFields(); i++ {
			if f := st.Field(i); f.Embedded() && embeds(f.Type(), named) {
				return nil, false
			}
		}
	}
	ssainfo := pc.pass.ResultOf[buildssa.Analyzer].(*buildssa.SSA)
	for _, f := range ssainfo.SrcFuncs {
		for _, b := range f.Blocks {
			for _, instr := range b.Instrs {
				mi, ok := instr.(*ssa.MakeInterface)
				if !ok || !embeds(mi.X.Type(), named) {
					continue
				}
				iface, ok := mi.Type().Underlying().(*types.Interface)
				if !ok || iface.NumMethods() == 0 {
					return nil, false // to any: a type assertion may find the method
				}
				for i := 0; i < iface.NumMethods(); i++ {
					if iface.Method(i).Name() == obj.Name() {
						return nil, false
					}
				}
			}
		}
	}
	return obj, true
}

// setupOnly reports whether fn, a method only the package can call
// (packageOnlyMethod), is called only on values their callers have not
// published yet (passutil.Publication.CalledUnpublished, for field f):
// no goroutine can run it beside another access (go-redis v6's
// ringShards.Add in NewRing, before the heartbeat starts).
func (pc *passContext) setupOnly(fn *ssa.Function, f *types.Var) bool {
	if _, ok := pc.packageOnlyMethod(fn); !ok {
		return false
	}
	fd, ok := fn.Syntax().(*ast.FuncDecl)
	return ok && fd.Body != nil && pc.publication().CalledUnpublished(fd, f)
}

// embeds reports whether t is named or a pointer to it.
func embeds(t types.Type, named *types.Named) bool {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := t.(*types.Named)
	return ok && n.Origin() == named.Origin()
}

// heldAtEveryWrite reports whether the read o holds a sibling mutex that
// every write in counted holds too (a second lock the writer takes with
// the guard, as go-datastructures' Disposed reads disposed under
// disposeLock while Dispose writes it holding lock and disposeLock): the
// read cannot race with any write.
func heldAtEveryWrite(o *obs, counted []*obs) bool {
	if o.write || len(o.held) == 0 {
		return false
	}
	common := o.held
	writes := 0
	for _, w := range counted {
		if w.write {
			common = intersect(common, w.held)
			writes++
		}
	}
	return writes > 0 && len(common) > 0
}

// interfaceMethod reports whether fn, a method of T, implements a method
// of an interface that T or *T implements, exported and declared in the
// package or in one it imports, or unexported and T converted to it (fmt.Stringer, http.Handler, the package's own plug-in
// interfaces): a method other components call through the interface,
// on their own goroutines, without knowing T's lock discipline.
func (pc *passContext) interfaceMethod(fn *ssa.Function) bool {
	if fn.Signature.Recv() == nil {
		return false
	}
	t := fn.Signature.Recv().Type()
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	pt := types.NewPointer(t)
	name := fn.Name()
	scopes := []*types.Scope{pc.pass.Pkg.Scope()}
	for _, imp := range pc.pass.Pkg.Imports() {
		scopes = append(scopes, imp.Scope())
	}
	for _, sc := range scopes {
		for _, n := range sc.Names() {
			tn, ok := sc.Lookup(n).(*types.TypeName)
			if !ok {
				continue
			}
			iface, ok := tn.Type().Underlying().(*types.Interface)
			if !ok || iface.NumMethods() == 0 {
				continue
			}
			has := false
			for i := 0; i < iface.NumMethods(); i++ {
				has = has || iface.Method(i).Name() == name
			}
			if !has || !types.Implements(t, iface) && !types.Implements(pt, iface) {
				continue
			}
			// An unexported interface is the package's own business: it
			// counts only if the package converts T to it (mgo's
			// possibleTimeout, for errors, fits ChangeStream by accident).
			if tn.Exported() || pc.convertedTo(t, tn.Type()) {
				return true
			}
		}
	}
	return false
}

// convertedTo reports whether the package converts a T or *T to iface.
func (pc *passContext) convertedTo(t, iface types.Type) bool {
	ssainfo := pc.pass.ResultOf[buildssa.Analyzer].(*buildssa.SSA)
	for _, f := range ssainfo.SrcFuncs {
		for _, b := range f.Blocks {
			for _, instr := range b.Instrs {
				if mi, ok := instr.(*ssa.MakeInterface); ok && types.Identical(mi.Type(), iface) {
					x := mi.X.Type()
					if p, ok := x.(*types.Pointer); ok {
						x = p.Elem()
					}
					if types.Identical(x, t) {
						return true
					}
				}
			}
		}
	}
	return false
}
