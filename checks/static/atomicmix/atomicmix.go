package atomicmix

import (
	_ "embed"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"path/filepath"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/interleave-dev/interleave/checks/claim"
	"github.com/interleave-dev/interleave/checks/static/internal/lockregion"
	"github.com/interleave-dev/interleave/checks/static/internal/lockset"
	"github.com/interleave-dev/interleave/checks/static/internal/locktype"
	"github.com/interleave-dev/interleave/checks/static/internal/passdoc"
	"github.com/interleave-dev/interleave/checks/static/internal/passutil"
	"github.com/interleave-dev/interleave/checks/static/internal/syncarg"
)

//go:embed doc.go
var doc string

// Analyzer reports plain accesses to variables that are accessed with
// sync/atomic elsewhere (rule IL3001).
var Analyzer = &analysis.Analyzer{
	Name:      "atomicmix",
	Doc:       passdoc.MustExtract(doc, "atomicmix"),
	Run:       run,
	FactTypes: []analysis.Fact{(*atomicFact)(nil)},
	Requires:  []*analysis.Analyzer{locktype.Analyzer, syncarg.Analyzer},
}

// atomicFact marks an exported field or package variable whose address is
// passed to a sync/atomic function in its own package.
type atomicFact struct {
	Func string // the sync/atomic function, e.g. "AddInt64"
	Pos  string // base file name and line of that call, e.g. "stats.go:12"
}

// AFact implements analysis.Fact.AFact.
func (*atomicFact) AFact() {}

func (f *atomicFact) String() string { return "atomic(" + f.Func + ")" }

// atomicUse is one atomic access of a variable in this package.
type atomicUse struct {
	call    *ast.CallExpr
	operand ast.Expr // X in &X
	fn      string   // "AddInt64"
	owner   string   // lockKey of the operand
	slot    *types.Var
	reader  bool // a lock-free read: Load, Swap, CompareAndSwap, a used Add
	decl    *ast.FuncDecl
	held    lockregion.Held // the mutexes held at the access
}

// slotKey is a variable reached through one struct-valued field (the
// seq of first in x.first.seq; slot nil: not known to be inside one).
// Two accesses of one variable through different slots (x.first.seq and
// y.last.seq) never touch the same memory.
type slotKey struct {
	v    *types.Var
	slot *types.Var
}

type passContext struct {
	pass *analysis.Pass
	// options holds the construction options (options.go), built on
	// first use.
	options map[*types.Named]bool
	// called holds the package's functions called directly in non-test
	// files (options.go), built on first use.
	called map[*types.Func]bool
	// diags are the findings in order; IL3002's are one per variable and
	// owner path: later plain writes are related positions of the first
	// (group), more[i] counts them.
	diags []*analysis.Diagnostic
	more  []int
	group map[groupKey]int
	// atomics maps each variable (field origin or package var) to its
	// first atomic access in this package.
	atomics map[*types.Var]atomicUse
	// operands holds the X of every &X passed to a sync/atomic function.
	operands map[ast.Expr]bool
	// allLocks and writeLocks hold, per variable and slot, the mutexes
	// held at every atomic access and at every atomic write (Store, Add,
	// Swap, CompareAndSwap, And, Or); seenAny and seenWrite say whether
	// there was any. uses lists every atomic access of a variable.
	allLocks, writeLocks map[slotKey]map[string]bool
	seenAny, seenWrite   map[slotKey]bool
	uses                 map[*types.Var][]atomicUse
	// seenNonStore holds, per variable, the owner paths through which it
	// is loaded or updated in place atomically (Load, Add, Swap,
	// CompareAndSwap, ...); an owner path only ever Stored atomically has
	// no lock-free reader for a plain write to race with.
	seenNonStore map[*types.Var]map[string]bool
	// readers holds, per variable, the owner paths through which it is
	// read lock-free: Load, Swap, CompareAndSwap, or an Add (And, Or)
	// whose result is used. atomicIn holds, per function, the variables
	// and owner paths it accesses atomically. Atomic updates alone only
	// show updaters running beside each other: a plain write elsewhere
	// is IL3002 when a lock-free reader shows the field is read while
	// written, or when its own function updates it atomically too (the
	// function runs beside itself).
	readers  map[*types.Var]map[string]bool
	atomicIn map[*ast.FuncDecl]map[*types.Var]map[string]bool
	// owners holds, per variable, the owner paths of its atomic accesses
	// (lockKey of the operand: "pkg.T.stats.n"), so a field of a struct
	// embedded in several owners is matched per owner.
	// disclaimed holds the struct types documented as not safe for
	// concurrent use: an atomic load of their fields is no evidence that
	// a plain write races with it.
	disclaimed map[*types.TypeName]bool
	owners     map[*types.Var]map[string]bool
	// callers holds, per unexported function whose calls are all
	// visible, the mutexes every caller holds exclusively
	// (lockregion.CallerLocks): they are held at its accesses too.
	callers map[*types.Func][]string
	// callersAny is callers with read locks counted (orderedByWriteLock),
	// built on first use; exclHeld the Lock-only lock state per function.
	callersAny map[*types.Func][]string
	exclHeld   map[*ast.FuncDecl]map[ast.Node]lockregion.Held
	// touched caches touchesOrdered, per exported function and lock.
	touched map[any]bool
	// immutable caches, per bool field, whether only constructors and
	// composite literals set it (flagSplit).
	immutable map[*types.Var]bool
	// hasFact caches, per variable of another package, whether it has
	// an atomicFact (tracked).
	hasFact map[*types.Var]bool
	// setupParams are the parameters every call hands a value its
	// caller is still setting up (lockset.SetupParams).
	setupParams map[*types.Var]bool
	// decls maps the package's functions to their declarations
	// (funcDecls, built on first use).
	decls map[*types.Func]*ast.FuncDecl
	// pub decides construction before publication (passutil.Publication),
	// built on first use.
	pub *passutil.Publication
}

func run(pass *analysis.Pass) (any, error) {
	// Fast path: without sync/atomic here and without atomic facts from
	// dependencies there is nothing to mix.
	if !passutil.Imports(pass.Pkg, "sync/atomic") && len(pass.AllObjectFacts()) == 0 {
		return nil, nil
	}
	pc := &passContext{
		pass:         pass,
		atomics:      map[*types.Var]atomicUse{},
		operands:     map[ast.Expr]bool{},
		allLocks:     map[slotKey]map[string]bool{},
		writeLocks:   map[slotKey]map[string]bool{},
		seenAny:      map[slotKey]bool{},
		seenWrite:    map[slotKey]bool{},
		uses:         map[*types.Var][]atomicUse{},
		seenNonStore: map[*types.Var]map[string]bool{},
		readers:      map[*types.Var]map[string]bool{},
		atomicIn:     map[*ast.FuncDecl]map[*types.Var]map[string]bool{},
		owners:       map[*types.Var]map[string]bool{},
	}
	// Tests own their values: their calls do not decide which locks a
	// function of the package is entered with.
	var nonTest []*ast.File
	for _, f := range pass.Files {
		if !strings.HasSuffix(pass.Fset.Position(f.Pos()).Filename, "_test.go") {
			nonTest = append(nonTest, f)
		}
	}
	pc.callers = lockregion.CallerLocksWith(nonTest, pass.TypesInfo, pc.lockKey, pass.ResultOf[syncarg.Analyzer].(*syncarg.Result).Arg, lockregion.CallerOpts{})
	pc.collectAtomics() // &X passed to sync/atomic functions
	pc.exportFacts()    // exported fields and vars, for importing packages
	pc.checkPlain()     // plain accesses of those variables
	for i, d := range pc.diags {
		if n := pc.more[i]; n == 1 {
			d.Message += " (and 1 more plain write, listed as related)"
		} else if n > 1 {
			d.Message += fmt.Sprintf(" (and %d more plain writes, listed as related)", n)
		}
		pass.Report(*d)
	}
	return nil, nil
}

// groupKey is what makes two IL3002 writes one finding: the variable and
// the owner path it is reached through (pc.lockKey).
type groupKey struct {
	v     *types.Var
	owner string
}

// add reports d; an IL3002 write whose variable and owner path already
// have a finding becomes one of that finding's related positions instead.
func (pc *passContext) add(v *types.Var, e ast.Expr, d analysis.Diagnostic, kind, text string) {
	if pc.group == nil {
		pc.group = map[groupKey]int{}
	}
	k := groupKey{v, pc.lockKey(e)}
	if d.Category != RulePlainWriteOfAtomic {
		k = groupKey{} // IL3001 (opt-in) is not grouped
	} else if i, ok := pc.group[k]; ok {
		pc.diags[i].Related = append(pc.diags[i].Related, analysis.RelatedInformation{Pos: d.Pos, End: d.End, Message: "also a plain " + kind + " of " + text})
		pc.more[i]++
		return
	}
	if k.v != nil {
		pc.group[k] = len(pc.diags)
	}
	pc.diags = append(pc.diags, &d)
	pc.more = append(pc.more, 0)
}

// collectAtomics records every variable whose address is passed to a
// sync/atomic function, with the mutexes held at every such access.
func (pc *passContext) collectAtomics() {
	info := pc.pass.TypesInfo
	pc.forEachFunc(func(fd *ast.FuncDecl) {
		if !callsAtomic(info, fd.Body) {
			return // nothing below would record anything
		}
		discarded := map[*ast.CallExpr]bool{}
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			if st, ok := n.(*ast.ExprStmt); ok {
				if call, ok := ast.Unparen(st.X).(*ast.CallExpr); ok {
					discarded[call] = true
				}
			}
			return true
		})
		entry, escaping := pc.callerHeld(fd)
		// A goroutine joined inside the starter's critical section makes
		// its atomic accesses under the starter's locks (workers that add
		// up a total while Rebuild holds the lock). Plain accesses are not
		// walked so: sibling workers run beside each other.
		w := &lockregion.Walker{Info: info, KeyOf: pc.lockKey, ForkJoin: true, Visit: func(n ast.Node, held lockregion.Held) {
			call, ok := n.(*ast.CallExpr)
			if !ok || len(call.Args) == 0 {
				return
			}
			held = escaping(n, held)
			fn, ok := typeutil.Callee(info, call).(*types.Func)
			if !ok || fn.Pkg() == nil || fn.Pkg().Path() != "sync/atomic" {
				return
			}
			if sig, ok := fn.Type().(*types.Signature); !ok || sig.Recv() != nil {
				return // a typed atomic's method
			}
			addr, ok := ast.Unparen(call.Args[0]).(*ast.UnaryExpr)
			if !ok || addr.Op != token.AND {
				return
			}
			x := ast.Unparen(addr.X)
			v := pc.variable(x)
			if v == nil {
				return
			}
			pc.operands[x] = true
			if pc.owners[v] == nil {
				pc.owners[v] = map[string]bool{}
			}
			pc.owners[v][pc.lockKey(x)] = true
			if _, seen := pc.atomics[v]; !seen {
				pc.atomics[v] = atomicUse{call: call, operand: x, fn: fn.Name()}
			}
			sk := slotKey{v, pc.slot(x)}
			pc.allLocks[sk] = intersect(pc.allLocks[sk], held, pc.seenAny[sk])
			pc.seenAny[sk] = true
			key := pc.lockKey(x)
			addKey(pc.atomicIn, fd, v, key)
			use := atomicUse{call: call, operand: x, fn: fn.Name(), owner: key, slot: sk.slot, decl: fd, held: held}
			switch name := fn.Name(); {
			case strings.HasPrefix(name, "Load"), strings.HasPrefix(name, "Swap"), strings.HasPrefix(name, "CompareAndSwap"),
				!strings.HasPrefix(name, "Store") && !discarded[call]:
				if pc.readers[v] == nil {
					pc.readers[v] = map[string]bool{}
				}
				pc.readers[v][key] = true
				use.reader = true
			}
			pc.uses[v] = append(pc.uses[v], use)
			if !strings.HasPrefix(fn.Name(), "Store") {
				if pc.seenNonStore[v] == nil {
					pc.seenNonStore[v] = map[string]bool{}
				}
				pc.seenNonStore[v][pc.lockKey(x)] = true
			}
			if !strings.HasPrefix(fn.Name(), "Load") {
				pc.writeLocks[sk] = intersect(pc.writeLocks[sk], held, pc.seenWrite[sk])
				pc.seenWrite[sk] = true
			}
		}}
		w.WalkFunc(fd.Body, entry)
	})
}

// callsAtomic reports whether body calls a function of sync/atomic with
// an argument: collectAtomics records only such calls.
func callsAtomic(info *types.Info, body *ast.BlockStmt) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		if call, ok := n.(*ast.CallExpr); ok && len(call.Args) > 0 {
			if fn, ok := typeutil.Callee(info, call).(*types.Func); ok && fn.Pkg() != nil && fn.Pkg().Path() == "sync/atomic" {
				found = true
			}
		}
		return !found
	})
	return found
}

// callerHeld returns the locks fd starts with: those every caller holds
// (pc.callers), marked with fd's position. The function it also returns
// removes them from the state at a node inside a function literal that
// may run elsewhere (stored, passed on): its caller is unknown.
func (pc *passContext) callerHeld(fd *ast.FuncDecl) (lockregion.Held, func(ast.Node, lockregion.Held) lockregion.Held) {
	fn, _ := pc.pass.TypesInfo.Defs[fd.Name].(*types.Func)
	keys := pc.callers[fn]
	if len(keys) == 0 {
		return lockregion.Held{}, func(_ ast.Node, h lockregion.Held) lockregion.Held { return h }
	}
	entry := lockregion.Held{}
	for _, k := range keys {
		entry[k] = fd.Pos()
	}
	var lits []*ast.FuncLit // literals not called on the spot or deferred
	ast.PreorderStack(fd.Body, nil, func(n ast.Node, stack []ast.Node) bool {
		lit, ok := n.(*ast.FuncLit)
		if !ok {
			return true
		}
		if len(stack) > 0 {
			if c, ok := stack[len(stack)-1].(*ast.CallExpr); ok && c.Fun == lit {
				return true // called here, deferred, or a goroutine (the walker decides)
			}
		}
		lits = append(lits, lit)
		return false
	})
	strip := func(n ast.Node, h lockregion.Held) lockregion.Held {
		for _, lit := range lits {
			if lit.Pos() <= n.Pos() && n.End() <= lit.End() {
				out := lockregion.Held{}
				for k, p := range h {
					if p != fd.Pos() {
						out[k] = p
					}
				}
				return out
			}
		}
		return h
	}
	return entry, strip
}

func addKey(m map[*ast.FuncDecl]map[*types.Var]map[string]bool, fd *ast.FuncDecl, v *types.Var, key string) {
	if m[fd] == nil {
		m[fd] = map[*types.Var]map[string]bool{}
	}
	if m[fd][v] == nil {
		m[fd][v] = map[string]bool{}
	}
	m[fd][v][key] = true
}

// intersect returns the mutexes in both acc and held; acc is ignored
// when it holds nothing yet (first access).
func intersect(acc map[string]bool, held lockregion.Held, seen bool) map[string]bool {
	out := map[string]bool{}
	for k := range held {
		if !seen || acc[k] {
			out[k] = true
		}
	}
	return out
}

// lockKey names a mutex independently of the variable it is reached
// through: s.mu and c.mu of the same struct type are the same key.
func (pc *passContext) lockKey(x ast.Expr) string {
	return lockregion.TypeKey(pc.pass.TypesInfo, x)
}

// forEachFunc calls f for every function declaration with a body.
func (pc *passContext) forEachFunc(f func(*ast.FuncDecl)) {
	for _, file := range pc.pass.Files {
		for _, decl := range file.Decls {
			if fd, ok := decl.(*ast.FuncDecl); ok && fd.Body != nil {
				f(fd)
			}
		}
	}
}

// variable returns the struct field (its generic origin) or package-level
// variable that e denotes, or nil.
func (pc *passContext) variable(e ast.Expr) *types.Var {
	info := pc.pass.TypesInfo
	switch e := e.(type) {
	case *ast.SelectorExpr:
		if sel := info.Selections[e]; sel != nil {
			if sel.Kind() != types.FieldVal {
				return nil
			}
			if v, ok := sel.Obj().(*types.Var); ok {
				return v.Origin()
			}
			return nil
		}
		return pc.packageVar(e.Sel) // qualified identifier pkg.V
	case *ast.Ident:
		return pc.packageVar(e)
	}
	return nil
}

func (pc *passContext) packageVar(id *ast.Ident) *types.Var {
	v, ok := pc.pass.TypesInfo.Uses[id].(*types.Var)
	if !ok || v.IsField() || v.Pkg() == nil || v.Parent() != v.Pkg().Scope() {
		return nil
	}
	return v
}

// exportFacts exports a fact for each exported variable of this package
// accessed atomically here: only those can be reached from other packages.
func (pc *passContext) exportFacts() {
	for v, use := range pc.atomics {
		if v.Pkg() != pc.pass.Pkg || !v.Exported() {
			continue
		}
		pc.pass.ExportObjectFact(v, &atomicFact{Func: use.fn, Pos: pc.shortPos(use.call.Pos())})
	}
}

func (pc *passContext) shortPos(pos token.Pos) string {
	p := pc.pass.Fset.Position(pos)
	return fmt.Sprintf("%s:%d", filepath.Base(p.Filename), p.Line)
}

// checkPlain reports plain accesses of atomically accessed variables.
func (pc *passContext) checkPlain() {
	setup := lockset.SetupMethodsBeforeStart(pc.pass.Fset, pc.pass.Files, pc.pass.TypesInfo, constructorName)
	pc.setupParams = lockset.SetupParams(pc.pass.Fset, pc.pass.Files, pc.pass.TypesInfo, constructorName)
	lastRef := pc.lastRefFuncs()
	pc.disclaimed = claim.Disclaimed(pc.pass.Files, pc.pass.TypesInfo)
	for _, f := range pc.pass.Files {
		for _, decl := range f.Decls {
			fd, ok := decl.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue // package-level initializers run before sharing
			}
			if fd.Recv == nil && fd.Name.Name == "init" || constructorName(fd.Name.Name) {
				continue
			}
			if fn, ok := pc.pass.TypesInfo.Defs[fd.Name].(*types.Func); ok && (setup[fn] || lastRef[fn]) {
				continue // a helper that only sets up a value not shared yet, or recycles one no longer shared
			}
			pc.checkFunc(fd)
		}
	}
}

func (pc *passContext) checkFunc(fd *ast.FuncDecl) {
	info := pc.pass.TypesInfo
	if !pc.mentionsTracked(fd.Body) {
		return // no access below could be reported
	}
	fresh, firstGo := freshLocals(info, fd.Body)
	retargets := localRetargets(info, fd.Body, fresh)
	copies := valueParams(info, fd)
	waited := pc.firstWait(fd.Body)
	// A function documented as not thread-safe ("reset is for testing
	// only, and doesn't need to be thread safe") is not run beside the
	// atomics: its writes are IL3001 like a test's. So is one documented
	// as running while every other accessor is stopped (stopsWorld).
	inTest := strings.HasSuffix(pc.pass.Fset.Position(fd.Pos()).Filename, "_test.go") || claim.Disclaims(fd.Doc) || stopsWorld(fd.Doc)
	heldAt := map[ast.Node]lockregion.Held{}
	entry, escaping := pc.callerHeld(fd)
	w := &lockregion.Walker{Info: info, KeyOf: pc.lockKey, Visit: func(n ast.Node, held lockregion.Held) {
		switch n.(type) {
		case *ast.SelectorExpr, *ast.Ident:
			if held = escaping(n, held); len(held) > 0 {
				heldAt[n] = held
			}
		}
	}}
	w.WalkFunc(fd.Body, entry)

	ast.PreorderStack(fd.Body, nil, func(n ast.Node, stack []ast.Node) bool {
		var e ast.Expr
		switch n := n.(type) {
		case *ast.SelectorExpr, *ast.Ident:
			e = n.(ast.Expr)
		default:
			return true
		}
		if pc.operands[e] {
			return false
		}
		v := pc.variable(e)
		if v == nil {
			return true
		}
		var parent ast.Node
		if len(stack) > 0 {
			parent = stack[len(stack)-1]
		}
		if id, ok := e.(*ast.Ident); ok {
			if sel, ok := parent.(*ast.SelectorExpr); ok && sel.Sel == id {
				return true // handled as the qualified selector
			}
		}
		if !pc.isPlainAccess(e, parent, stack) {
			return true
		}
		// Not shared yet: a value allocated here, before any go statement,
		// outside closures; or a copy received by value.
		if root := passutil.RootIdent(e); root != nil {
			obj := info.Uses[root]
			if copies[obj] || pc.optionParam(fd, root, stack) {
				return true // a copy, or the value an option is constructing
			}
			if (fresh[obj] || pc.setupParams[asVar(obj)]) && !passutil.InsideFuncLit(stack) && (firstGo == token.NoPos || e.Pos() < firstGo) && !passutil.StoredBefore(info, fd.Body, obj, e.Pos()) {
				return true // a value this function, or every caller, is still setting up
			}
		}
		kind := accessKind(e, parent)
		if pc.ordered(v, pc.slot(e), kind, heldAt[e]) {
			return true
		}
		if kind == "write" && pc.orderedByWriteLock(fd, e, v, pc.slot(e)) {
			return true // the write side excludes every atomic access's read side
		}
		// After wg.Wait() the goroutines that updated the variable have
		// finished: a read there is ordered after their atomic writes.
		afterWait := waited != token.NoPos && e.Pos() > waited && !passutil.InsideFuncLit(stack)
		if kind == "read" && afterWait {
			return true
		}
		if kind == "write" && pc.onceInit(fd, e, v, stack) {
			return true // set inside once.Do, every other access after a Do of it
		}
		if pc.flagSplit(fd, e, v, stack) {
			return true // if m.shared { atomic } else { plain }: never the same value
		}
		rule := RuleMixedAtomicAccess
		if kind == "write" && !afterWait && !inTest && v.Pkg() == pc.pass.Pkg && pc.owners[v][pc.lockKey(e)] && !mayBeLocal(info, e, retargets) && !pc.disclaimedOwner(e) && pc.seenNonStore[v][pc.lockKey(e)] && (pc.readers[v][pc.lockKey(e)] || pc.atomicIn[fd][v][pc.lockKey(e)]) && !pc.unsyncOwner(fd, e, v) && !pc.joinedReset(fd, e, v, stack, firstGo) && !pc.publication().BeforePublication(fd, e, v, stack) {
			rule = RulePlainWriteOfAtomic
		}
		pc.report(fd, e, v, kind, rule, heldAt[e])
		return true
	})
}

// mentionsTracked reports whether body names a variable that report
// could report a plain access of: one accessed atomically in this
// package, or a variable of another package with an atomic fact.
func (pc *passContext) mentionsTracked(body *ast.BlockStmt) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		switch e := n.(type) {
		case *ast.SelectorExpr, *ast.Ident:
			if v := pc.variable(e.(ast.Expr)); v != nil && pc.tracked(v) {
				found = true
			}
		}
		return !found
	})
	return found
}

// tracked reports whether v has atomic accesses in this package or, for
// a variable of another package, an atomic fact.
func (pc *passContext) tracked(v *types.Var) bool {
	if len(pc.uses[v]) > 0 {
		return true
	}
	if v.Pkg() == pc.pass.Pkg {
		return false
	}
	has, ok := pc.hasFact[v]
	if !ok {
		has = pc.pass.ImportObjectFact(v, new(atomicFact))
		if pc.hasFact == nil {
			pc.hasFact = map[*types.Var]bool{}
		}
		pc.hasFact[v] = has
	}
	return has
}

// slot returns the struct-valued field that the variable selected by e
// lies in (first, for x.first.seq), or nil when e is not such a
// selection (a field of a pointer target, a promoted field, a package
// variable): then it may share memory with any access of the variable.
func (pc *passContext) slot(e ast.Expr) *types.Var {
	sel, ok := e.(*ast.SelectorExpr)
	if !ok {
		return nil
	}
	info := pc.pass.TypesInfo
	s := info.Selections[sel]
	if s == nil || s.Indirect() || len(s.Index()) != 1 {
		return nil
	}
	base, ok := ast.Unparen(sel.X).(*ast.SelectorExpr)
	if !ok {
		return nil
	}
	bs := info.Selections[base]
	if bs == nil || bs.Kind() != types.FieldVal || len(bs.Index()) != 1 {
		return nil
	}
	f, ok := bs.Obj().(*types.Var)
	if !ok {
		return nil
	}
	if _, isStruct := f.Type().Underlying().(*types.Struct); !isStruct {
		return nil
	}
	return f.Origin()
}

// overlaps reports whether accesses through slots a and b may touch the
// same memory.
func overlaps(a, b *types.Var) bool { return a == nil || b == nil || a == b }

// ordered reports whether a plain access cannot race with this package's
// atomic accesses of v: a read when there is no atomic write, or when a
// mutex held here is held at every atomic write; a write when a mutex
// held here is held at every atomic access. Variables of other packages
// are never ordered: their atomic accesses are not visible here.
func (pc *passContext) ordered(v, slot *types.Var, kind string, held lockregion.Held) bool {
	if v.Pkg() != pc.pass.Pkg {
		return false
	}
	// The atomic accesses that may touch the same memory.
	var locks map[string]bool
	anyAtomic, anyWrite := false, false
	for sk, seen := range pc.seenAny {
		if !seen || sk.v != v || !overlaps(sk.slot, slot) {
			continue
		}
		anyAtomic = true
		m, seenM := pc.allLocks[sk], true
		if kind == "read" {
			m, seenM = pc.writeLocks[sk], pc.seenWrite[sk]
		}
		if !seenM {
			continue
		}
		anyWrite = true
		locks = intersect(locks, lockregion.Held(toHeld(m)), locks != nil)
	}
	if !anyAtomic {
		return false
	}
	if !anyWrite {
		// kind is "read": plain and atomic reads do not race
		return kind == "read"
	}
	for k := range held {
		if locks[k] {
			return true
		}
	}
	return false
}

func toHeld(m map[string]bool) lockregion.Held {
	h := lockregion.Held{}
	for k := range m {
		h[k] = token.NoPos
	}
	return h
}

// accessKind says whether e is written ("write") or read ("read").
func accessKind(e ast.Expr, parent ast.Node) string {
	switch p := parent.(type) {
	case *ast.AssignStmt:
		for _, l := range p.Lhs {
			if l == e {
				return "write"
			}
		}
	case *ast.IncDecStmt:
		return "write"
	}
	return "read"
}

// isPlainAccess reports whether e, a use of a tracked variable, reads or
// writes it directly (not a path prefix, not &e, not an unsafe operand).
func (pc *passContext) isPlainAccess(e ast.Expr, parent ast.Node, stack []ast.Node) bool {
	switch p := parent.(type) {
	case *ast.SelectorExpr:
		if p.X == e {
			return false // a prefix of a longer path: s.b in s.b.n
		}
	case *ast.UnaryExpr:
		if p.Op == token.AND {
			return false // address taken for some other purpose
		}
	case *ast.KeyValueExpr:
		if p.Key == e {
			return false // composite literal key
		}
	}
	for i := len(stack) - 1; i >= 0; i-- {
		call, ok := stack[i].(*ast.CallExpr)
		if !ok {
			continue
		}
		if id, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
			if obj, ok := pc.pass.TypesInfo.Uses[id.Sel].(*types.Builtin); ok && obj.Pkg() != nil && obj.Pkg().Path() == "unsafe" {
				return false
			}
		}
	}
	return true
}

// racing returns the atomic access of v to cite for the plain access e
// in fd, which holds held: by preference one that is not ordered with e
// (it holds none of e's mutexes, is not in a goroutine fd starts after
// e, and its function does not call fd: notify's lazyinit writes i.fd
// under the lock, the unlocked first check races with it, not the Load
// in the loop it starts afterwards; netpoll's Run calls Close, which
// writes m.numLoops, SetNumLoops' Store races with it), then one that
// may touch the same memory (the same slot: not last.seq for a write of
// first.seq), through the same owner path, that conflicts with it (for
// a write a lock-free read rather than a Store; for a read an atomic
// write), in fd before e (unordered), else in another function.
func (pc *passContext) racing(fd *ast.FuncDecl, e ast.Expr, v *types.Var, kind string, held lockregion.Held) (atomicUse, bool) {
	slot, owner := pc.slot(e), pc.lockKey(e)
	best, score := atomicUse{}, -1
	for _, u := range pc.uses[v] {
		sc := 0
		unordered := !lockregion.Common(u.held, held) && !pc.startedAfter(fd, e, u) && !pc.callsDecl(u.decl, fd)
		if unordered {
			sc += 32
		}
		if overlaps(u.slot, slot) {
			sc += 16
		}
		if u.owner == owner {
			sc += 8
		}
		// A plain write races with a lock-free read, a plain read with
		// an atomic write.
		if kind == "write" && u.reader || kind == "read" && !strings.HasPrefix(u.fn, "Load") {
			sc += 4
		}
		// Another function's access, or, better, an unordered one of fd
		// before e: a second call of fd makes it while this one writes
		// (the unlocked first check of double-checked locking).
		switch {
		case unordered && u.decl == fd && u.call.End() <= e.Pos():
			sc += 2
		case u.decl != fd:
			sc++
		}
		if sc > score {
			best, score = u, sc
		}
	}
	return best, score >= 0
}

// startedAfter reports whether the atomic access u runs in a goroutine
// that fd starts after e: a go statement of fd past e whose function
// literal holds u, or that calls u's function directly.
func (pc *passContext) startedAfter(fd *ast.FuncDecl, e ast.Expr, u atomicUse) bool {
	found := false
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		g, ok := n.(*ast.GoStmt)
		if found || !ok {
			return !found
		}
		if g.Pos() < e.End() {
			return true
		}
		if u.decl == fd && g.Pos() <= u.call.Pos() && u.call.End() <= g.End() {
			found = true
		} else if callee, ok := typeutil.Callee(pc.pass.TypesInfo, g.Call).(*types.Func); ok && u.decl != nil && pc.pass.TypesInfo.Defs[u.decl.Name] == callee {
			found = true
		}
		return !found
	})
	return found
}

// callsDecl reports whether the body of caller calls callee directly
// (also in a deferred call or a function literal it runs).
func (pc *passContext) callsDecl(caller, callee *ast.FuncDecl) bool {
	if caller == nil || callee == nil || caller == callee {
		return false
	}
	target := pc.pass.TypesInfo.Defs[callee.Name]
	found := false
	ast.Inspect(caller.Body, func(n ast.Node) bool {
		if found {
			return false
		}
		if _, ok := n.(*ast.GoStmt); ok {
			return false // another goroutine
		}
		if call, ok := n.(*ast.CallExpr); ok {
			if fn, ok := typeutil.Callee(pc.pass.TypesInfo, call).(*types.Func); ok && fn == target {
				found = true
			}
		}
		return true
	})
	return found
}

func (pc *passContext) report(fd *ast.FuncDecl, e ast.Expr, v *types.Var, kind, rule string, held lockregion.Held) {
	text := types.ExprString(e)
	if use, ok := pc.racing(fd, e, v, kind, held); ok {
		call := types.ExprString(use.call.Fun)
		pc.add(v, e, analysis.Diagnostic{
			Pos: e.Pos(), End: e.End(), Category: rule,
			Message: fmt.Sprintf("plain %s of %s races with its atomic accesses (%s at %s)", kind, text, call, pc.shortPos(use.call.Pos())),
			Related: []analysis.RelatedInformation{{Pos: use.call.Pos(), End: use.call.End(), Message: "atomic access of " + types.ExprString(use.operand)}},
		}, kind, text)
		return
	}
	if v.Pkg() == pc.pass.Pkg {
		return
	}
	var fact atomicFact
	if !pc.pass.ImportObjectFact(v, &fact) {
		return
	}
	pc.add(v, e, analysis.Diagnostic{
		Pos: e.Pos(), End: e.End(), Category: RuleMixedAtomicAccess,
		Message: fmt.Sprintf("plain %s of %s races with its atomic accesses in package %s (atomic.%s at %s)", kind, text, v.Pkg().Path(), fact.Func, fact.Pos),
		Related: []analysis.RelatedInformation{{Pos: v.Pos(), End: v.Pos() + token.Pos(len(v.Name())), Message: v.Name() + " is accessed with atomic." + fact.Func + " in package " + v.Pkg().Name()}},
	}, kind, text)
}

// firstWait returns the position of the first sync.WaitGroup.Wait call
// in body outside function literals, or token.NoPos.
func (pc *passContext) firstWait(body *ast.BlockStmt) token.Pos {
	first := token.NoPos
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.CallExpr:
			fn, ok := typeutil.Callee(pc.pass.TypesInfo, n).(*types.Func)
			if !ok || fn.Pkg() == nil || fn.Pkg().Path() != "sync" || fn.Name() != "Wait" {
				return true
			}
			if recv := fn.Type().(*types.Signature).Recv(); recv != nil && strings.HasSuffix(recv.Type().String(), "sync.WaitGroup") {
				if first == token.NoPos || n.Pos() < first {
					first = n.Pos()
				}
			}
		}
		return true
	})
	return first
}

// constructorName reports whether a function's name says it builds or
// initializes a value before it is shared: newX, NewX, initX.
// publication is the pass's passutil.Publication: a plain write on a
// value no goroutine that may access the field can reach yet is IL3001.
func (pc *passContext) publication() *passutil.Publication {
	if pc.pub == nil {
		info := pc.pass.TypesInfo
		pc.pub = &passutil.Publication{
			Pass:      pc.pass,
			Var:       pc.variable,
			Allocated: func(e ast.Expr) bool { return lockset.Allocated(info, e, constructorName) },
		}
	}
	return pc.pub
}

func constructorName(name string) bool {
	l := strings.ToLower(name)
	return strings.HasPrefix(l, "new") || strings.HasPrefix(l, "init")
}

// freshLocals returns the local variables of body bound to a value
// allocated in the function (&T{}, T{}, new(T), var t T), and the
// position of the first go statement, after which they may be shared.
func freshLocals(info *types.Info, body *ast.BlockStmt) (map[types.Object]bool, token.Pos) {
	fresh := map[types.Object]bool{}
	firstGo := token.NoPos
	mark := func(id *ast.Ident) {
		if obj := info.ObjectOf(id); obj != nil {
			fresh[obj] = true
		}
	}
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.GoStmt:
			if firstGo == token.NoPos || n.Pos() < firstGo {
				firstGo = n.Pos()
			}
		case *ast.AssignStmt:
			if n.Tok != token.DEFINE || len(n.Lhs) != len(n.Rhs) {
				return true
			}
			for i, r := range n.Rhs {
				if id, ok := n.Lhs[i].(*ast.Ident); ok && (isAllocation(info, r) || isStructCopy(info, r) || isConstructorCall(info, r)) {
					mark(id)
				}
			}
		case *ast.ValueSpec:
			for i, id := range n.Names {
				if len(n.Values) == 0 || (i < len(n.Values) && isAllocation(info, n.Values[i])) {
					if _, isStruct := info.TypeOf(id).Underlying().(*types.Struct); isStruct || len(n.Values) > 0 {
						mark(id)
					}
				}
			}
		}
		return true
	})
	return fresh, firstGo
}

// localRetargets returns, per variable, the positions where it is
// reassigned to a value of this function (&copy, &T{}, new(T)): after
// that, a write through it may touch the function's own value.
func localRetargets(info *types.Info, body *ast.BlockStmt, fresh map[types.Object]bool) map[types.Object]token.Pos {
	out := map[types.Object]token.Pos{}
	ast.Inspect(body, func(n ast.Node) bool {
		as, ok := n.(*ast.AssignStmt)
		if !ok || as.Tok != token.ASSIGN || len(as.Lhs) != len(as.Rhs) {
			return true
		}
		for i, r := range as.Rhs {
			id, ok := as.Lhs[i].(*ast.Ident)
			if !ok {
				continue
			}
			local := isAllocation(info, r)
			if u, ok := ast.Unparen(r).(*ast.UnaryExpr); ok && u.Op == token.AND {
				if x, ok := ast.Unparen(u.X).(*ast.Ident); ok && fresh[info.Uses[x]] {
					local = true
				}
			}
			if obj := info.ObjectOf(id); local && obj != nil {
				if old, seen := out[obj]; !seen || as.Pos() < old {
					out[obj] = as.Pos()
				}
			}
		}
		return true
	})
	return out
}

// mayBeLocal reports whether the root variable of e was retargeted to a
// local value before e (see localRetargets).
func mayBeLocal(info *types.Info, e ast.Expr, retargets map[types.Object]token.Pos) bool {
	root := passutil.RootIdent(e)
	if root == nil {
		return false
	}
	at, ok := retargets[info.Uses[root]]
	return ok && at < e.Pos()
}

// isStructCopy reports whether e is *p of a struct type: the variable it
// initializes is the function's own copy (nsub := *sub).
func isStructCopy(info *types.Info, e ast.Expr) bool {
	star, ok := ast.Unparen(e).(*ast.StarExpr)
	if !ok {
		return false
	}
	t := info.TypeOf(star)
	if t == nil {
		return false
	}
	_, isStruct := t.Underlying().(*types.Struct)
	return isStruct
}

// isAllocation reports whether e allocates a new value: T{...}, &T{...} or new(T).
func isAllocation(info *types.Info, e ast.Expr) bool {
	e = ast.Unparen(e)
	if u, ok := e.(*ast.UnaryExpr); ok && u.Op == token.AND {
		e = ast.Unparen(u.X)
	}
	switch e := e.(type) {
	case *ast.CompositeLit:
		return true
	case *ast.CallExpr:
		if id, ok := ast.Unparen(e.Fun).(*ast.Ident); ok {
			b, ok := info.Uses[id].(*types.Builtin)
			return ok && b.Name() == "new"
		}
	}
	return false
}

// isConstructorCall reports whether e calls a constructor of this package
// (newX, NewX): its result is a new value (d := newStats(); d.n = ...).
func isConstructorCall(info *types.Info, e ast.Expr) bool {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok {
		return false
	}
	var id *ast.Ident
	switch f := ast.Unparen(call.Fun).(type) {
	case *ast.Ident:
		id = f
	case *ast.IndexExpr: // newT[K](...)
		id, _ = f.X.(*ast.Ident)
	}
	if id == nil {
		return false
	}
	fn, ok := info.Uses[id].(*types.Func)
	return ok && fn.Type().(*types.Signature).Recv() == nil && strings.HasPrefix(strings.ToLower(fn.Name()), "new")
}

// valueParams returns the receiver and parameters of fd that are struct
// values: accesses through them touch the callee's own copy.
func valueParams(info *types.Info, fd *ast.FuncDecl) map[types.Object]bool {
	out := map[types.Object]bool{}
	add := func(fl *ast.FieldList) {
		if fl == nil {
			return
		}
		for _, f := range fl.List {
			for _, id := range f.Names {
				obj := info.Defs[id]
				if obj == nil {
					continue
				}
				if _, ok := obj.Type().Underlying().(*types.Struct); ok {
					out[obj] = true
				}
			}
		}
	}
	add(fd.Recv)
	add(fd.Type.Params)
	return out
}

// disclaimedOwner reports whether the field selected by e belongs to a
// struct type documented as not safe for concurrent use.
func (pc *passContext) disclaimedOwner(e ast.Expr) bool {
	sel, ok := e.(*ast.SelectorExpr)
	if !ok {
		return false
	}
	t := pc.pass.TypesInfo.TypeOf(sel.X)
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := types.Unalias(t).(*types.Named)
	return ok && pc.disclaimed[n.Origin().Obj()]
}

func asVar(obj types.Object) *types.Var {
	v, _ := obj.(*types.Var)
	return v
}
