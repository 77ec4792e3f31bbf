package lockset

// Custom lock types decided by their method bodies: a module's own type
// with Lock and Unlock is a lock only when those methods are plain lock
// operations (LockMethods); the analyzer internal/locktype decides it in
// the declaring package and hands it on as a fact.

import (
	"go/ast"
	"go/token"
	"go/types"
	"runtime"
	"slices"
	"sync"
	"weak"

	"github.com/interleave-dev/interleave/checks/static/internal/passutil"
)

// lockTypes holds the custom lock types decided so far and their plain
// lock methods, by type name object: the locktype analyzer registers a
// package's own types and those its facts name before any pass that
// requires it runs on the package. Objects of different loads are
// different keys. The keys are weak and an entry goes with its object,
// so a long-running process (interleave serve) keeps no load alive.
var lockTypes = struct {
	sync.RWMutex
	m map[weak.Pointer[types.TypeName]][]string
}{m: map[weak.Pointer[types.TypeName]][]string{}}

// RegisterLockType records tn as a custom lock type whose methods named
// in methods are plain lock operations (LockMethods).
func RegisterLockType(tn *types.TypeName, methods []string) {
	k := weak.Make(tn)
	lockTypes.Lock()
	_, had := lockTypes.m[k]
	lockTypes.m[k] = slices.Clone(methods)
	lockTypes.Unlock()
	if !had {
		runtime.AddCleanup(tn, func(k weak.Pointer[types.TypeName]) {
			lockTypes.Lock()
			delete(lockTypes.m, k)
			lockTypes.Unlock()
		}, k)
	}
}

// lockMethods returns the plain lock methods registered for t (or *t).
func lockMethods(t types.Type) []string {
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := types.Unalias(t).(*types.Named)
	if !ok {
		return nil
	}
	lockTypes.RLock()
	defer lockTypes.RUnlock()
	return lockTypes.m[weak.Make(n.Origin().Obj())]
}

// lockOpNames are the method names a lock type may offer, each with the
// sync methods its plain body may call: RLock of a type built on a
// sync.Mutex locks it.
var lockOpNames = map[string][]string{
	"Lock":     {"Lock"},
	"Unlock":   {"Unlock"},
	"RLock":    {"RLock", "Lock"},
	"RUnlock":  {"RUnlock", "Unlock"},
	"TryLock":  {"TryLock"},
	"TryRLock": {"TryRLock", "TryLock"},
}

// inverse is the operation that undoes each one: a body that calls both
// (lock, count, unlock) holds nothing when it returns.
var inverse = map[string][]string{
	"Lock": {"Unlock"}, "RLock": {"RUnlock", "Unlock"},
	"Unlock": {"Lock", "TryLock"}, "RUnlock": {"RLock", "Lock", "TryRLock", "TryLock"},
	"TryLock": {"Unlock"}, "TryRLock": {"RUnlock", "Unlock"},
}

// LockMethods decides the custom lock types declared in files: named
// types with methods Lock() and Unlock() (CustomLock's shape) whose Lock
// and Unlock are plain lock operations. A method is plain when its body,
// on every path, makes the operation once on a sync.Mutex or
// sync.RWMutex reached by fields from the receiver (m.mu.Lock()), on
// every shard of a receiver slice or array (for i := range m { m[i].Lock() },
// or a counted loop over i),
// or on a field of another custom lock type whose method of that name is
// plain (known: registered, or decided here): a top-level statement of
// the body, no return before it, and no call of the inverse operation on
// the same value. TryLock is plain as `return m.mu.TryLock()`. A method
// promoted from an embedded sync mutex is plain; one promoted from an
// embedded custom lock type is plain when that type's is. A conditional
// Lock (if l.enabled { l.mu.Lock() }), a no-op, a try-lock named Lock, a
// file lock or a counter under its own mutex is not: such a type is no
// lock. known answers for types of other packages (their facts). It
// returns each decided type with its plain methods, Lock and Unlock
// among them.
func LockMethods(files []*ast.File, info *types.Info, pkg *types.Package, known func(*types.TypeName) []string) map[*types.TypeName][]string {
	decls := map[*types.TypeName]map[string]*ast.FuncDecl{}
	for _, f := range files {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Recv == nil || fd.Body == nil || lockOpNames[fd.Name.Name] == nil {
				continue
			}
			fn, ok := info.Defs[fd.Name].(*types.Func)
			if !ok {
				continue
			}
			sig := fn.Type().(*types.Signature)
			if sig.Params().Len() != 0 || sig.Results().Len() > 1 {
				continue
			}
			rt := sig.Recv().Type()
			if p, ok := types.Unalias(rt).(*types.Pointer); ok {
				rt = p.Elem()
			}
			n, ok := types.Unalias(rt).(*types.Named)
			if !ok {
				continue
			}
			tn := n.Origin().Obj()
			if decls[tn] == nil {
				decls[tn] = map[string]*ast.FuncDecl{}
			}
			decls[tn][fd.Name.Name] = fd
		}
	}
	// Types of the package with the shape, including those whose Lock or
	// Unlock is promoted.
	var cands []*types.TypeName
	sc := pkg.Scope()
	for _, name := range sc.Names() {
		tn, ok := sc.Lookup(name).(*types.TypeName)
		if ok && !tn.IsAlias() && lockShape(tn) {
			cands = append(cands, tn)
		}
	}
	out := map[*types.TypeName][]string{}
	lookup := func(tn *types.TypeName) []string {
		if tn.Pkg() == pkg {
			return out[tn]
		}
		return known(tn)
	}
	// A type delegating to another of the package is decided once that
	// one is: rounds until nothing changes.
	for changed := true; changed; {
		changed = false
		for _, tn := range cands {
			ms := typeLockMethods(info, tn, decls[tn], lookup)
			if !slices.Contains(ms, "Lock") || !slices.Contains(ms, "Unlock") {
				continue
			}
			if !slices.Equal(out[tn], ms) {
				out[tn] = ms
				changed = true
			}
		}
	}
	return out
}

// lockShape reports whether tn's pointer method set has Lock() and
// Unlock() and tn is declared outside package sync.
func lockShape(tn *types.TypeName) bool {
	if tn.Pkg() == nil || tn.Pkg().Path() == "sync" {
		return false
	}
	ms := types.NewMethodSet(types.NewPointer(tn.Type()))
	for _, name := range []string{"Lock", "Unlock"} {
		sel := ms.Lookup(tn.Pkg(), name)
		if sel == nil {
			return false
		}
		sig := sel.Obj().Type().(*types.Signature)
		if sig.Params().Len() != 0 || sig.Results().Len() != 0 {
			return false
		}
	}
	return true
}

// typeLockMethods returns the plain lock methods of tn, sorted: declared
// ones by their bodies (decls), promoted ones by their origin.
func typeLockMethods(info *types.Info, tn *types.TypeName, decls map[string]*ast.FuncDecl, lookup func(*types.TypeName) []string) []string {
	ms := types.NewMethodSet(types.NewPointer(tn.Type()))
	var out []string
	for name := range lockOpNames {
		sel := ms.Lookup(tn.Pkg(), name)
		if sel == nil {
			continue
		}
		fn, ok := sel.Obj().(*types.Func)
		if !ok {
			continue
		}
		if len(sel.Index()) > 1 {
			// Promoted from an embedded field.
			if plainMethod(fn, lookup) {
				out = append(out, name)
			}
			continue
		}
		if fd := decls[name]; fd != nil && plainBody(info, fd, name, lookup) {
			out = append(out, name)
		}
	}
	slices.Sort(out)
	return out
}

// plainMethod reports whether fn, a method of package sync's mutexes or
// of a decided custom lock type, is a plain lock operation.
func plainMethod(fn *types.Func, lookup func(*types.TypeName) []string) bool {
	recv := fn.Type().(*types.Signature).Recv()
	if recv == nil || fn.Pkg() == nil {
		return false
	}
	if fn.Pkg().Path() == "sync" {
		return IsMutex(recv.Type())
	}
	t := recv.Type()
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := types.Unalias(t).(*types.Named)
	return ok && slices.Contains(lookup(n.Origin().Obj()), fn.Name())
}

// plainBody reports whether fd, the method name of a would-be lock type,
// makes its operation on every path (LockMethods).
func plainBody(info *types.Info, fd *ast.FuncDecl, name string, lookup func(*types.TypeName) []string) bool {
	if len(fd.Recv.List) != 1 || len(fd.Recv.List[0].Names) != 1 {
		return false
	}
	recv, ok := info.Defs[fd.Recv.List[0].Names[0]].(*types.Var)
	if !ok {
		return false
	}
	// op reports the value a call makes an operation of names on, by its
	// text, when it is rooted at the receiver (index: the shard variable
	// of an enclosing range over the receiver, or nil).
	op := func(e ast.Expr, names []string, index types.Object) (string, bool) {
		call, ok := ast.Unparen(e).(*ast.CallExpr)
		if !ok || len(call.Args) != 0 {
			return "", false
		}
		sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
		if !ok || !slices.Contains(names, sel.Sel.Name) {
			return "", false
		}
		fn, ok := info.Uses[sel.Sel].(*types.Func)
		if !ok || !plainMethod(fn, lookup) || !fromRecv(info, sel.X, recv, index) {
			return "", false
		}
		return types.ExprString(sel.X), true
	}
	var made string
	found := false
	for _, st := range fd.Body.List {
		switch st := st.(type) {
		case *ast.ExprStmt:
			if v, ok := op(st.X, lockOpNames[name], nil); ok && !found {
				made, found = v, true
			}
		case *ast.RangeStmt:
			// for i := range m { m[i].Lock() }: every shard.
			key, ok := st.Key.(*ast.Ident)
			if !ok || st.Value != nil || len(st.Body.List) != 1 || !isRecv(info, st.X, recv) {
				break
			}
			es, ok := st.Body.List[0].(*ast.ExprStmt)
			if !ok {
				break
			}
			if v, ok := op(es.X, lockOpNames[name], info.Defs[key]); ok && !found {
				made, found = v, true
			}
		case *ast.ForStmt:
			// for i := len(m) - 1; i >= 0; i-- { m[i].Unlock() }: every
			// shard, in any order.
			init, ok := st.Init.(*ast.AssignStmt)
			if !ok || init.Tok != token.DEFINE || len(init.Lhs) != 1 || len(st.Body.List) != 1 {
				break
			}
			key, ok := init.Lhs[0].(*ast.Ident)
			if !ok {
				break
			}
			es, ok := st.Body.List[0].(*ast.ExprStmt)
			if !ok {
				break
			}
			if v, ok := op(es.X, lockOpNames[name], info.Defs[key]); ok && !found {
				made, found = v, true
			}
		case *ast.ReturnStmt:
			if !found && (name == "TryLock" || name == "TryRLock") && len(st.Results) == 1 {
				if v, ok := op(st.Results[0], lockOpNames[name], nil); ok {
					made, found = v, true
				}
			}
			if !found {
				return false // returns before the operation
			}
		}
	}
	if !found {
		return false
	}
	// No early return, goto or inverse operation anywhere in the body.
	clean := true
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt:
			if name != "TryLock" && name != "TryRLock" {
				clean = false
			}
		case *ast.BranchStmt:
			if n.Tok == token.GOTO {
				clean = false
			}
		case *ast.CallExpr:
			if sel, ok := ast.Unparen(n.Fun).(*ast.SelectorExpr); ok && slices.Contains(inverse[name], sel.Sel.Name) {
				if fn, ok := info.Uses[sel.Sel].(*types.Func); ok && plainMethod(fn, lookup) && sameRoot(info, sel.X, made, recv) {
					clean = false
				}
			}
		}
		return clean
	})
	return clean
}

// fromRecv reports whether x is a field path from the receiver recv
// (m.mu, m.a.b) or a shard of it (m[0].mu); with index, the receiver
// indexed by it (m[i]).
func fromRecv(info *types.Info, x ast.Expr, recv *types.Var, index types.Object) bool {
	for {
		switch e := ast.Unparen(x).(type) {
		case *ast.SelectorExpr:
			if s, ok := info.Selections[e]; !ok || s.Kind() != types.FieldVal {
				return false
			}
			x = e.X
		case *ast.StarExpr:
			x = e.X
		case *ast.IndexExpr:
			// A shard: m[i] in the loop over m, or one shard (m[0]).
			id, ok := ast.Unparen(e.Index).(*ast.Ident)
			if index != nil && (!ok || info.Uses[id] != index) {
				return false
			}
			return isRecv(info, e.X, recv)
		case *ast.Ident:
			return index == nil && info.Uses[e] == recv
		default:
			return false
		}
	}
}

// isRecv reports whether x is the receiver recv itself.
func isRecv(info *types.Info, x ast.Expr, recv *types.Var) bool {
	id, ok := ast.Unparen(x).(*ast.Ident)
	return ok && info.Uses[id] == recv
}

// sameRoot reports whether x, rooted at the receiver, names the value
// the operation was made on (its text made), or a value of its shard
// loop: an inverse call on it undoes the operation.
func sameRoot(info *types.Info, x ast.Expr, made string, recv *types.Var) bool {
	if types.ExprString(x) == made {
		return true
	}
	// m[j].Unlock() after m[i].Lock(): the same shards.
	_, indexed := ast.Unparen(x).(*ast.IndexExpr)
	root := passutil.ElemRootIdent(x)
	return indexed && root != nil && isRecv(info, root, recv)
}
