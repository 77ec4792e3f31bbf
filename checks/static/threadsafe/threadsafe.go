package threadsafe

import (
	_ "embed"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/interleave-dev/interleave/checks/static/internal/lockregion"
	"github.com/interleave-dev/interleave/checks/static/internal/lockset"
	"github.com/interleave-dev/interleave/checks/static/internal/passdoc"
	"github.com/interleave-dev/interleave/checks/static/internal/passutil"
)

//go:embed doc.go
var doc string

// Analyzer reports types documented as safe for concurrent use whose
// exported fields or returned state defeat their lock (rules IL5001,
// IL5002).
var Analyzer = &analysis.Analyzer{
	Name: "threadsafe",
	Doc:  passdoc.MustExtract(doc, "threadsafe"),
	Run:  run,
}

// directive marks a type as safe for concurrent use without prose.
const directive = lockset.ThreadSafeDirective

// safePointees are types outside the package whose pointers are safe to
// share: an exported field holding one does not break the claim.
var safePointees = map[string]bool{
	"log.Logger":      true,
	"log/slog.Logger": true,
	"net/http.Client": true,
	"database/sql.DB": true,
	"regexp.Regexp":   true,
}

// safeType is one struct type that claims to be safe for concurrent use.
type safeType struct {
	obj     *types.TypeName
	spec    *ast.TypeSpec
	claim   string   // the phrase or directive, for the message
	quote   string   // the phrase with its qualifier (lockset.ClaimQuote)
	mutexes []string // names of its Mutex/RWMutex fields; "" for an embedded one
}

// fieldInfo is what the package does with one field of a safe type.
type fieldInfo struct {
	owner     *safeType
	lateWrite ast.Node // an assignment after construction
	guarded   ast.Node // an access under the owner's mutex
	guardLock string   // that mutex, as written
	mutation  ast.Node // an in-place mutation (m[k] = v, append, delete, p.x = v) after construction
	mutLock   string   // the mutex held at mutation, if any
	// overwrite is an in-place mutation other than append: an append
	// writes past the length of every slice handed out before it.
	overwrite ast.Node
}

type passContext struct {
	pass   *analysis.Pass
	types  map[*types.TypeName]*safeType
	fields map[*types.Var]*fieldInfo
	// ranged holds the expressions ranged over (the walker visits a
	// range statement's X, not the statement).
	ranged map[ast.Expr]bool
}

func run(pass *analysis.Pass) (any, error) {
	if !passutil.Imports(pass.Pkg, "sync") && !passutil.Imports(pass.Pkg, "sync/atomic") {
		return nil, nil // fast path: no lock to defeat
	}
	pc := &passContext{pass: pass, types: map[*types.TypeName]*safeType{}, fields: map[*types.Var]*fieldInfo{}, ranged: map[ast.Expr]bool{}}
	for _, f := range pass.Files {
		ast.Inspect(f, func(n ast.Node) bool {
			if r, ok := n.(*ast.RangeStmt); ok {
				pc.ranged[ast.Unparen(r.X)] = true
			}
			return true
		})
	}
	pc.findClaims() // types whose doc promises concurrent safety
	if len(pc.types) == 0 {
		return nil, nil
	}
	pc.collectAccesses() // writes, mutations and guarded accesses of their fields
	pc.checkFields()     // IL5001
	pc.checkReturns()    // IL5002
	return nil, nil
}

// findClaims records struct types whose doc comment claims safety for
// concurrent use or that carry the directive.
func (pc *passContext) findClaims() {
	for obj, c := range lockset.ThreadSafeTypes(pc.pass.Files, pc.pass.TypesInfo) {
		st := &safeType{obj: obj, spec: c.Spec, claim: c.Phrase, quote: c.Quote}
		strct := obj.Type().Underlying().(*types.Struct)
		for i := range strct.NumFields() {
			fv := strct.Field(i)
			if isMutex(fv.Type()) {
				name := fv.Name()
				if fv.Embedded() {
					name = ""
				}
				st.mutexes = append(st.mutexes, name)
			}
			pc.fields[fv] = &fieldInfo{owner: st}
		}
		pc.types[obj] = st
	}
}

// claimOf returns the phrase of a doc comment that claims safety for
// concurrent use, or "".
func claimOf(cg *ast.CommentGroup) string { return lockset.ThreadSafeClaim(cg) }

// collectAccesses walks every function and records, for each field of a
// safe type, a write after construction, an access under the owner's
// mutex, and an in-place mutation.
func (pc *passContext) collectAccesses() {
	info := pc.pass.TypesInfo
	setup := lockset.SetupMethods(pc.pass.Files, info, constructorName)
	for _, f := range pc.pass.Files {
		for _, decl := range f.Decls {
			fd, ok := decl.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			fn, _ := info.Defs[fd.Name].(*types.Func)
			inCtor := constructorName(fd.Name.Name) || setup[fn] || fn != nil && lockset.IsDecoder(fn)
			shared := sharedVars(info, fd)
			onceBodies := pc.onceBodies(fd.Body)
			// construction reports whether an access through x happens
			// while the value is being built: in a constructor or
			// initializer, in a sync.Once body, or through a local
			// variable (a value allocated here or just returned by a
			// constructor) rather than the receiver, a parameter or a
			// package variable.
			construction := func(x ast.Expr) bool {
				if inCtor {
					return true
				}
				for _, b := range onceBodies {
					if x.Pos() >= b.Pos() && x.End() <= b.End() {
						return true
					}
				}
				root := passutil.ElemRootIdent(x)
				return root == nil || !shared[info.Uses[root]]
			}
			w := &lockregion.Walker{Info: info, Visit: func(n ast.Node, held lockregion.Held) {
				pc.visit(n, held, construction)
			}}
			w.WalkFunc(fd.Body, lockregion.Held{})
		}
	}
}

// constructorName reports whether a function's name says it builds or
// initializes a value (NewX, newX, init, setDefaults, configure).
func constructorName(name string) bool {
	l := strings.ToLower(name)
	if strings.HasPrefix(l, "new") || strings.HasPrefix(l, "make") || strings.HasPrefix(l, "build") {
		return true
	}
	for _, k := range []string{"init", "setup", "configure", "default"} {
		if strings.Contains(l, k) {
			return true
		}
	}
	return false
}

// sharedVars returns the variables through which fd reaches values that
// other goroutines may hold: its receiver, its parameters and package
// variables it uses.
func sharedVars(info *types.Info, fd *ast.FuncDecl) map[types.Object]bool {
	out := passutil.ParamObjects(info, fd)
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			if v, ok := info.Uses[id].(*types.Var); ok && v.Pkg() != nil && v.Parent() == v.Pkg().Scope() {
				out[v] = true
			}
		}
		return true
	})
	return out
}

// onceBodies returns the function literals passed to sync.Once.Do.
func (pc *passContext) onceBodies(body *ast.BlockStmt) []ast.Node {
	var out []ast.Node
	ast.Inspect(body, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok || len(call.Args) != 1 {
			return true
		}
		fn, ok := typeutil.Callee(pc.pass.TypesInfo, call).(*types.Func)
		if !ok || fn.Pkg() == nil || fn.Pkg().Path() != "sync" || fn.Name() != "Do" {
			return true
		}
		if lit, ok := call.Args[0].(*ast.FuncLit); ok {
			out = append(out, lit)
		}
		return true
	})
	return out
}

func (pc *passContext) visit(n ast.Node, held lockregion.Held, construction func(ast.Expr) bool) {
	// A field's referent used under the owner's mutex (indexed, sliced,
	// ranged over, dereferenced, measured) is evidence that the mutex
	// guards it; a copy of the field's value taken under the lock is not
	// (kafka-go's Transport copies its TLS and MetadataTopics settings
	// into a pool while holding its mutex for the pool map).
	switch n := n.(type) {
	case *ast.IndexExpr:
		pc.usedInPlace(n.X, held)
	case *ast.SliceExpr:
		pc.usedInPlace(n.X, held)
	case *ast.StarExpr:
		pc.usedInPlace(n.X, held)
	case *ast.SelectorExpr:
		if pc.ranged[n] {
			pc.usedInPlace(n, held) // for _, x := range c.items
		}
		if _, isPtr := pc.pass.TypesInfo.TypeOf(n.X).Underlying().(*types.Pointer); isPtr {
			pc.usedInPlace(n.X, held) // c.Owner.name, c.Owner.Method()
		}
	}
	switch n := n.(type) {
	case *ast.AssignStmt:
		for _, l := range n.Lhs {
			pc.written(l, n, held, construction)
		}
		for i, r := range n.Rhs {
			// s.f = s.f[:0] truncates it: the next append overwrites
			// elements handed out before.
			if sl, ok := ast.Unparen(r).(*ast.SliceExpr); ok && len(n.Lhs) == len(n.Rhs) && types.ExprString(sl.X) == types.ExprString(n.Lhs[i]) {
				pc.mutated(sl.X, n, held, construction, false)
			}
			// s.f = append(s.f, x) extends the shared backing array.
			if call, ok := ast.Unparen(r).(*ast.CallExpr); ok && pc.isBuiltin(call, "append") && len(call.Args) > 0 {
				pc.mutated(call.Args[0], n, held, construction, true)
				pc.usedInPlace(call.Args[0], held)
			}
		}
	case *ast.IncDecStmt:
		pc.written(n.X, n, held, construction)
	case *ast.CallExpr:
		if (pc.isBuiltin(n, "delete") || pc.isBuiltin(n, "clear")) && len(n.Args) > 0 {
			pc.mutated(n.Args[0], n, held, construction, false)
		}
		if pc.isBuiltin(n, "len") || pc.isBuiltin(n, "cap") || pc.isBuiltin(n, "copy") {
			for _, a := range n.Args {
				pc.usedInPlace(a, held)
			}
		}
	}
}

// usedInPlace records e, if it selects a safe type's field, as used under
// the owner's mutex when that mutex is held.
func (pc *passContext) usedInPlace(e ast.Expr, held lockregion.Held) {
	sel, ok := ast.Unparen(e).(*ast.SelectorExpr)
	if !ok {
		return
	}
	if _, fi := pc.field(sel); fi != nil && fi.guarded == nil {
		if lock := pc.ownerLockHeld(fi.owner, sel.X, held); lock != "" {
			fi.guarded, fi.guardLock = sel, lock
		}
	}
}

// written records an assignment to lhs: a direct field write (s.F = v), or
// an in-place mutation of the value a field refers to (s.m[k] = v,
// s.p.x = v, *s.p = v).
func (pc *passContext) written(lhs ast.Expr, stmt ast.Node, held lockregion.Held, construction func(ast.Expr) bool) {
	lhs = ast.Unparen(lhs)
	if sel, ok := lhs.(*ast.SelectorExpr); ok {
		if _, fi := pc.field(sel); fi != nil && !construction(sel) && !pc.copyField(sel) && fi.lateWrite == nil {
			fi.lateWrite = stmt
		}
	}
	// Through the value: the innermost field of a safe type below an index,
	// a dereference or a field of the pointed-to value.
	var inner ast.Expr
	switch x := lhs.(type) {
	case *ast.IndexExpr:
		inner = x.X
	case *ast.StarExpr:
		inner = x.X
	case *ast.SelectorExpr:
		if _, isPtr := pc.pass.TypesInfo.TypeOf(x.X).Underlying().(*types.Pointer); isPtr {
			inner = x.X
		}
	}
	if inner != nil {
		pc.mutated(inner, stmt, held, construction, false)
	}
}

// copyField reports whether sel selects a field of a struct value held
// in a local variable or parameter (d.F = v in func f(d T)): the write
// changes the caller's copy, not a value others share.
func (pc *passContext) copyField(sel *ast.SelectorExpr) bool {
	id, ok := ast.Unparen(sel.X).(*ast.Ident)
	if !ok {
		return false
	}
	v, ok := pc.pass.TypesInfo.Uses[id].(*types.Var)
	if !ok || v.Pkg() == nil || v.Parent() == v.Pkg().Scope() {
		return false // a package variable is shared
	}
	_, isStruct := v.Type().Underlying().(*types.Struct)
	return isStruct
}

// mutated records an in-place mutation of the value in field expression e.
func (pc *passContext) mutated(e ast.Expr, stmt ast.Node, held lockregion.Held, construction func(ast.Expr) bool, isAppend bool) {
	sel, ok := ast.Unparen(e).(*ast.SelectorExpr)
	if !ok {
		return
	}
	_, fi := pc.field(sel)
	if fi == nil || construction(sel) {
		return
	}
	if fi.overwrite == nil && !isAppend {
		fi.overwrite = stmt
		if fi.mutation != nil {
			fi.mutation, fi.mutLock = stmt, pc.ownerLockHeld(fi.owner, sel.X, held)
		}
	}
	if fi.mutation != nil {
		return
	}
	fi.mutation = stmt
	fi.mutLock = pc.ownerLockHeld(fi.owner, sel.X, held)
}

// field returns the safe-type field that sel selects.
func (pc *passContext) field(sel *ast.SelectorExpr) (*types.Var, *fieldInfo) {
	s := pc.pass.TypesInfo.Selections[sel]
	if s == nil || s.Kind() != types.FieldVal {
		return nil, nil
	}
	fv, ok := s.Obj().(*types.Var)
	if !ok {
		return nil, nil
	}
	return fv, pc.fields[fv.Origin()]
}

// ownerLockHeld returns the mutex of owner held on value x ("c.mu"), or "".
func (pc *passContext) ownerLockHeld(owner *safeType, x ast.Expr, held lockregion.Held) string {
	base := types.ExprString(x)
	for _, mu := range owner.mutexes {
		key := base
		if mu != "" {
			key = base + "." + mu
		}
		if _, ok := held[key]; ok {
			return key
		}
	}
	return ""
}

func (pc *passContext) isBuiltin(call *ast.CallExpr, name string) bool {
	return passutil.IsBuiltinCall(pc.pass.TypesInfo, call, name)
}

// checkFields reports exported fields of safe types that the package
// treats as shared mutable state: written or modified after construction,
// or (for maps, slices and pointers) accessed under the type's mutex
// (IL5001). Configuration fields only set while the value is built are
// left alone, as in http.Client.
func (pc *passContext) checkFields() {
	for _, st := range pc.sortedTypes() {
		strct := st.spec.Type.(*ast.StructType)
		for _, fld := range strct.Fields.List {
			for _, name := range fld.Names { // embedded fields are not reported
				if !name.IsExported() {
					continue
				}
				fv, ok := pc.pass.TypesInfo.Defs[name].(*types.Var)
				if !ok || isSyncValue(fv.Type()) {
					continue
				}
				fi := pc.fields[fv]
				if fi == nil {
					continue
				}
				typ := types.TypeString(fv.Type(), types.RelativeTo(pc.pass.Pkg))
				head := fmt.Sprintf("%s is documented as %s, but its exported field %s (%s)", st.obj.Name(), describe(st.claim, st.quote), name.Name, typ)
				var msg, rel string
				var at ast.Node
				switch kind := pc.mutableKind(fv.Type()); {
				case fi.lateWrite != nil:
					at, rel = fi.lateWrite, "written after construction here"
					msg = fmt.Sprintf("%s is written after construction (line %d) while callers read it without the type's lock", head, pc.line(at))
				case fi.mutation != nil:
					at, rel = fi.mutation, "modified in place here"
					msg = fmt.Sprintf("%s is modified in place after construction (line %d) while callers use it without the type's lock", head, pc.line(at))
				case kind != "" && fi.guarded != nil:
					at, rel = fi.guarded, "accessed under "+fi.guardLock+" here"
					msg = fmt.Sprintf("%s is a %s accessed under %s (line %d) that callers can change without the lock", head, kind, fi.guardLock, pc.line(at))
				default:
					continue
				}
				pc.pass.Report(analysis.Diagnostic{
					Pos: name.Pos(), End: name.End(), Category: RuleThreadsafeExportedField, Message: msg,
					Related: []analysis.RelatedInformation{{Pos: at.Pos(), End: at.End(), Message: rel}},
				})
			}
		}
	}
}

func (pc *passContext) line(n ast.Node) int { return pc.pass.Fset.Position(n.Pos()).Line }

// mutableKind returns "map", "slice" or "pointer" for field types whose
// referent callers can change in place, or "".
func (pc *passContext) mutableKind(t types.Type) string {
	switch u := t.Underlying().(type) {
	case *types.Map:
		return "map"
	case *types.Slice:
		return "slice"
	case *types.Pointer:
		if isSyncValue(u.Elem()) {
			return ""
		}
		if n, ok := types.Unalias(u.Elem()).(*types.Named); ok {
			obj := n.Origin().Obj()
			if pc.types[obj] != nil {
				return "" // points to another type that claims safety
			}
			if obj.Pkg() != nil && safePointees[obj.Pkg().Path()+"."+obj.Name()] {
				return ""
			}
		}
		return "pointer"
	}
	return ""
}

// checkReturns reports exported methods of safe types that return a
// guarded, mutated map, slice or pointer field itself (IL5002).
func (pc *passContext) checkReturns() {
	info := pc.pass.TypesInfo
	for _, f := range pc.pass.Files {
		for _, decl := range f.Decls {
			fd, ok := decl.(*ast.FuncDecl)
			if !ok || fd.Body == nil || fd.Recv == nil || !fd.Name.IsExported() || len(fd.Recv.List[0].Names) == 0 {
				continue
			}
			recv := info.Defs[fd.Recv.List[0].Names[0]]
			if recv == nil || pc.types[namedOf(recv.Type())] == nil {
				continue
			}
			ast.Inspect(fd.Body, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.FuncLit:
					return false
				case *ast.ReturnStmt:
					for _, r := range n.Results {
						pc.checkReturned(fd, recv, r)
					}
				}
				return true
			})
		}
	}
}

func (pc *passContext) checkReturned(fd *ast.FuncDecl, recv types.Object, r ast.Expr) {
	info := pc.pass.TypesInfo
	e := ast.Unparen(r)
	if s, ok := e.(*ast.SliceExpr); ok {
		e = ast.Unparen(s.X) // s.items[:n] shares the backing array
	}
	sel, ok := e.(*ast.SelectorExpr)
	if !ok {
		return
	}
	if id, ok := ast.Unparen(sel.X).(*ast.Ident); !ok || info.Uses[id] != recv {
		return
	}
	fv, fi := pc.field(sel)
	if fi == nil || fi.guarded == nil || fi.mutation == nil {
		return // not guarded, or immutable after construction
	}
	kind := pc.mutableKind(fv.Type())
	if kind == "" || kind == "slice" && fi.overwrite == nil {
		return // an append-only slice: its elements up to any length handed out never change
	}
	fix := map[string]string{"map": "maps.Clone", "slice": "slices.Clone", "pointer": "a copy of the value"}[kind]
	lock := fi.mutLock
	if lock == "" {
		lock = pc.ownerLockHeld(fi.owner, sel.X, pc.anyMutex(fi.owner, sel.X))
	}
	mpos := pc.pass.Fset.Position(fi.mutation.Pos())
	pc.pass.Report(analysis.Diagnostic{
		Pos: r.Pos(), End: r.End(), Category: RuleThreadsafeLeakedState,
		Message: fmt.Sprintf("%s returns %s, a %s guarded by %s and modified in place (line %d), so callers use it without the lock; return a copy (%s)",
			fd.Name.Name, types.ExprString(r), kind, lock, mpos.Line, fix),
		Related: []analysis.RelatedInformation{{Pos: fi.mutation.Pos(), End: fi.mutation.End(), Message: "modified in place here"}},
	})
}

// anyMutex returns a lock state naming the owner's first mutex on x, for
// messages.
func (pc *passContext) anyMutex(owner *safeType, x ast.Expr) lockregion.Held {
	if len(owner.mutexes) == 0 {
		return lockregion.Held{}
	}
	key := types.ExprString(x)
	if owner.mutexes[0] != "" {
		key += "." + owner.mutexes[0]
	}
	return lockregion.Held{key: token.NoPos}
}

func (pc *passContext) sortedTypes() []*safeType {
	var out []*safeType
	for _, st := range pc.types {
		out = append(out, st)
	}
	// Report in source order.
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && out[j].spec.Pos() < out[j-1].spec.Pos(); j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}

// describe names a claim for a message; quote keeps its qualifier.
func describe(claim, quote string) string {
	if claim == directive {
		return "thread-safe (" + directive + ")"
	}
	if quote == "" {
		quote = claim
	}
	if strings.HasPrefix(strings.ToLower(quote), "safe for concurrent use") {
		return fmt.Sprintf("%q", quote)
	}
	return fmt.Sprintf("safe for concurrent use (%q)", quote)
}

func namedOf(t types.Type) *types.TypeName {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	if n, ok := types.Unalias(t).(*types.Named); ok {
		return n.Origin().Obj()
	}
	return nil
}

// isMutex reports whether t is sync.Mutex or sync.RWMutex.
func isMutex(t types.Type) bool {
	n, ok := types.Unalias(t).(*types.Named)
	if !ok || n.Obj().Pkg() == nil || n.Obj().Pkg().Path() != "sync" {
		return false
	}
	return n.Obj().Name() == "Mutex" || n.Obj().Name() == "RWMutex"
}

// isSyncValue reports whether t (or *t) is a synchronization value that
// is safe to expose: a sync or sync/atomic type, a channel or a function.
func isSyncValue(t types.Type) bool {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	switch t.Underlying().(type) {
	case *types.Chan, *types.Signature:
		return true
	}
	n, ok := types.Unalias(t).(*types.Named)
	if !ok || n.Obj().Pkg() == nil {
		return false
	}
	path := n.Obj().Pkg().Path()
	return path == "sync" || path == "sync/atomic"
}
