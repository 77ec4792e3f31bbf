// Package lockset computes, for every instruction of a function in SSA
// form, the set of locks that are definitely held there.
//
// It is the shared lock-state engine of interleave's static passes
// (guardedby, rlockwrite, lockblock) and is meant to be imported by any
// pass that needs to know what is locked where.
//
// The analysis is a forward must-analysis over the SSA control-flow graph:
// a lock is in the state only if it is held on every path reaching the
// instruction (intersection at joins; at a join of Lock and RLock the lock
// counts as read-locked). It understands:
//
//   - sync.Mutex and sync.RWMutex Lock, Unlock, RLock, RUnlock;
//   - TryLock and TryRLock used as an if condition (held on the true branch);
//   - sync.Locker calls; when the interface value is built from a known
//     mutex in the same function the lock is that mutex;
//   - defer mu.Unlock() and defer func() { ...; mu.Unlock() }(): the lock
//     stays held until the function returns (Held.Deferred is set);
//   - function literals called on the spot, func() { ... }(), and deferred
//     ones: they are analyzed as part of the enclosing function with the
//     caller's lock state, and their instructions share its Result;
//   - calls to functions of the same package that lock or unlock a lock
//     reachable from a parameter (lock helpers such as func (s *S) lock(),
//     and defer mu.RLock() after a temporary RUnlock), through
//     per-function summaries; a callee that unlocks a lock and holds it
//     again on every return (entered holding it) leaves it held;
//   - lock helpers that return the unlock function (return mu.Unlock, or
//     a literal that unlocks): the caller holds the lock until it calls
//     the returned value, or until return for defer unlock();
//   - the callers' locks: Analysis.Package analyzes an unexported
//     function whose call sites are all visible as holding the locks held
//     at every one of them (Result.Entry, Result.EntryKnown); calls in
//     _test.go files do not count for a function declared outside them
//     (a test owns the value it calls a helper on);
//   - the callers' locks by class (callers.go): Result.ClassesAt names
//     the locks held at an instruction, and at every call of its function
//     through every chain of callers, by the mutex field they are, for
//     passes that ask whether a wider lock excludes two accesses.
//
// Locks and field bases are named by a Path: an access path from a root
// (parameter, package-level variable, local variable) through field
// selections, printed as the user would write it (s.mu, s.inner.mu,
// pkg.mu, s.Mutex for an embedded mutex).
//
// Result.Accesses lists the field and package-level variable accesses of
// the analyzed code, classified as reads or writes; a write includes a
// store, a map assignment, delete or clear through the loaded map, an
// element store into a slice or array held in the field, and a store
// through a pointer loaded from it.
//
// Typical use from a pass that requires buildssa:
//
//	a := lockset.New()
//	for _, r := range a.Package(ssaInfo.SrcFuncs, nil) {
//		for _, acc := range r.Accesses() {
//			st, _ := r.Before(acc.Instr)
//			...
//		}
//	}
package lockset

import (
	"go/token"
	"go/types"
	"maps"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// maxInline bounds the nesting of inlined function literals.
const maxInline = 8

// Context says how an analyzed function is entered.
type Context uint8

const (
	// TopLevel is a declared function or method; it starts with no lock
	// held unless the entry function passed to Package says otherwise.
	TopLevel Context = iota
	// Goroutine is a function literal started by a go statement: it
	// starts with no lock held, by construction.
	Goroutine
	// Escaping is a function literal whose caller is unknown (stored,
	// passed as a callback, returned). Its entry state is unknown; it is
	// analyzed as starting with no lock, so an absent lock proves nothing.
	Escaping
)

// Analysis holds package-wide knowledge shared by the functions it
// analyzes: the lock summaries of lock helpers.
type Analysis struct {
	summaries map[*ssa.Function]*summary
}

// New returns an empty Analysis.
func New() *Analysis {
	return &Analysis{summaries: map[*ssa.Function]*summary{}}
}

// Result is the lock state of one analyzed function and of the function
// literals inlined into it.
type Result struct {
	Fn      *ssa.Function
	Context Context
	// Entry is the state the function was analyzed from: the locks its
	// callers hold (given, or inferred from every call site).
	Entry State
	// Exit is the state when the function returns, after its deferred
	// unlocks have run.
	Exit State
	// EntryKnown reports whether Entry is complete: the function is an
	// entry point (exported, init, main), a goroutine body, or every call
	// to it is visible in the package. When false, the callers may hold
	// locks that Entry does not show, and an absent lock proves nothing.
	EntryKnown bool
	// CallerLocks reports that some caller (or a caller's caller) holds a
	// lock at the call that is not reachable from the arguments (b.readTx.mu
	// held while calling b.batchTx.commit()): it may be one of r.Fn's
	// locks reached through an alias, so an absent lock proves less.
	CallerLocks bool
	// EntryMay holds the locks held at some (not every) visible call:
	// a helper called both with and without a lock.
	EntryMay State

	before      map[ssa.Instruction]State // non-empty states only
	reached     map[*ssa.BasicBlock]bool  // blocks recorded: their other instructions hold nothing
	freshParams []bool                    // per parameter of Fn: every caller passes a fresh value
	subst       map[*ssa.FreeVar]Path
	inlined     []*ssa.Function
	released    []Path // unlocks of locks not acquired here (for summaries)
	// unlockFns maps the result of a call to a lock helper that returns
	// its unlock function to the locks calling that function releases.
	unlockFns map[ssa.Value][]Path
	// condFns maps the result of a call to a conditional lock helper to
	// the locks held where its status says success (see condAcquires).
	condFns map[ssa.Value]condLocks
	// callerClasses: the lock classes every caller holds (callers.go);
	// targets: the package's pointer fields resolved to the mutex field
	// they point to.
	callerClasses []Class
	targets       map[*types.Var]*types.Var
}

// Before returns the locks definitely held just before instr. It returns
// false when instr is unreachable or not part of r.
func (r *Result) Before(instr ssa.Instruction) (State, bool) {
	if s, ok := r.before[instr]; ok {
		return s, true
	}
	// Most code runs with no lock held: those states are not stored.
	return State{}, r.reached[instr.Block()]
}

// Path returns the access path of v, a value of r.Fn or of a function
// literal inlined into it (free variables are resolved to the enclosing
// function's variables).
func (r *Result) Path(v ssa.Value) Path { return pathOf(v, r.subst) }

// Functions returns r.Fn followed by the function literals inlined into it.
func (r *Result) Functions() []*ssa.Function {
	return append([]*ssa.Function{r.Fn}, r.inlined...)
}

// Inlined reports whether fn is a function literal whose body is
// analyzed as part of its caller: called on the spot (func(){...}()) or
// deferred (defer func(){...}()).
func Inlined(fn *ssa.Function) bool { return inlineSite(fn) != nil }

// inlineSite returns the Call or Defer instruction that is the only use
// of the function literal fn, or nil.
func inlineSite(fn *ssa.Function) ssa.CallInstruction {
	if fn.Parent() == nil {
		return nil
	}
	var v ssa.Value = fn
	refs := fn.Referrers()
	if refs == nil || len(*refs) != 1 {
		return nil
	}
	if mc, ok := (*refs)[0].(*ssa.MakeClosure); ok {
		v = mc
		refs = mc.Referrers()
		if refs == nil || len(*refs) != 1 {
			return nil
		}
	}
	switch u := (*refs)[0].(type) {
	case *ssa.Call:
		if u.Call.Value == v {
			return u
		}
	case *ssa.Defer:
		if u.Call.Value == v {
			return u
		}
	}
	return nil
}

// goSite reports whether fn is a function literal started by a go
// statement.
func goSite(fn *ssa.Function) bool {
	refs := fn.Referrers()
	if refs == nil || len(*refs) != 1 {
		return false
	}
	var v ssa.Value = fn
	if mc, ok := (*refs)[0].(*ssa.MakeClosure); ok {
		v = mc
		refs = mc.Referrers()
		if refs == nil || len(*refs) != 1 {
			return false
		}
	}
	g, ok := (*refs)[0].(*ssa.Go)
	return ok && g.Call.Value == v
}

// Package analyzes every function of funcs (typically buildssa's
// SrcFuncs) except the function literals inlined into their callers, and
// returns one Result per analyzed function. entry, if not nil, gives the
// locks held when a top-level function starts (for example the receiver's
// mutex for a method named fooLocked).
//
// Package also infers the entry state of unexported functions from their
// callers: when every call site in the package holds a lock reachable
// from an argument (or a package-level lock), the callee is analyzed as
// holding it. Functions whose value escapes (method values, func values,
// interface calls by the same name) keep an empty entry state.
func (a *Analysis) Package(funcs []*ssa.Function, entry func(*ssa.Function) State) []*Result {
	var out []*Result
	given := map[*ssa.Function]State{}
	for _, fn := range funcs {
		if Inlined(fn) {
			continue
		}
		ctx := TopLevel
		var st State
		switch {
		case fn.Parent() == nil:
			if entry != nil {
				st = entry(fn)
			}
			given[fn] = st
		case goSite(fn):
			ctx = Goroutine
			r := a.Func(fn, ctx, st)
			r.EntryKnown = true
			out = append(out, r)
			continue
		default:
			ctx = Escaping
		}
		out = append(out, a.Func(fn, ctx, st))
	}
	scans := map[*Result]*callScan{}
	for round := 0; round < maxCallerRounds; round++ {
		if !a.inferEntries(out, given, scans) {
			break
		}
	}
	sites, escapes, invoked := gatherCalls(out, scans)
	inferCallerClasses(out, sites, escapes, invoked, pointerTargets(funcs))
	return out
}

// callScan is what inferEntries reads from the instructions of a Result's
// functions (or of the package initializer, for the nil Result): the
// static calls, the interfaces a method is called through, and the
// functions used as values. A Result is scanned once for all rounds.
type callScan struct {
	sites   []scanSite
	invoked []scanInvoke
	values  []*ssa.Function
}

type scanSite struct {
	callee *ssa.Function
	call   ssa.CallInstruction
}

type scanInvoke struct {
	method string
	iface  *types.Interface
}

// scanCalls fills a callScan from the instructions of fns.
func scanCalls(fns []*ssa.Function, sites bool) *callScan {
	cs := &callScan{}
	var ops []*ssa.Value // operand buffer, reused (an array per instruction escaped)
	for _, fn := range fns {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				var callee *ssa.Value
				if c, ok := instr.(ssa.CallInstruction); ok {
					common := c.Common()
					if common.IsInvoke() {
						if it, ok := common.Value.Type().Underlying().(*types.Interface); ok {
							cs.invoked = append(cs.invoked, scanInvoke{common.Method.Name(), it})
						}
					} else if f := common.StaticCallee(); f != nil && sites {
						cs.sites = append(cs.sites, scanSite{f, c})
						callee = &common.Value
					}
				}
				ops = instr.Operands(ops[:0])
				for _, op := range ops {
					if f, ok := (*op).(*ssa.Function); ok && op != callee {
						cs.values = append(cs.values, f)
					}
				}
			}
		}
	}
	return cs
}

// maxCallerRounds bounds the propagation of caller lock states down call
// chains (a helper of a helper of a locked method).
const maxCallerRounds = 8

// inferEntries recomputes the entry state of unexported top-level
// functions from their call sites and re-analyzes those whose entry
// grew. It reports whether any did.
func (a *Analysis) inferEntries(results []*Result, given map[*ssa.Function]State, scans map[*Result]*callScan) bool {
	byFn := map[*ssa.Function]int{}
	for i, r := range results {
		if r.Fn.Parent() == nil {
			byFn[r.Fn] = i
		}
	}
	sites, escapes, invoked := gatherCalls(results, scans)
	inferable := map[*ssa.Function]bool{}
	for fn, i := range byFn {
		switch {
		case token.IsExported(fn.Name()) || fn.Signature.Recv() == nil && (IsInitName(fn.Name()) || fn.Name() == "main"):
			results[i].EntryKnown = true // entry points: callers outside cannot hold unexported locks
		case escapes[fn] || viaInterface(fn, invoked[fn.Name()]) || len(sites[fn]) == 0:
			results[i].EntryKnown = false // some callers are not visible
		default:
			inferable[fn] = true
		}
	}
	changed := false
	for fn, i := range byFn {
		r := results[i]
		if !inferable[fn] {
			continue
		}
		// Only callers whose own entry is known say anything; the others
		// (callbacks, pending helpers) are skipped, optimistically.
		var in *State
		var may State
		aliased := false
		lu, unless := lockUnlessOf(fn)
		for _, s := range sites[fn] {
			if s.r.Fn != fn && !s.r.known() {
				continue
			}
			st, dropped := callerStateDropped(s.r, s.call, fn)
			if unless && passesFalse(s.call, lu.param) {
				st = st.With(lu.held) // fn takes the lock itself: if !locked { mu.Lock() }
			}
			aliased = aliased || dropped || s.r.Fn != fn && s.r.CallerLocks
			for _, h := range st.held {
				may = may.With(h)
			}
			if in == nil {
				in = &st
			} else {
				m := meet(*in, st)
				in = &m
			}
		}
		fresh := freshParams(fn, sites[fn])
		if !equalBools(fresh, r.freshParams) {
			r.freshParams = fresh
			changed = true
		}
		if aliased != r.CallerLocks {
			r.CallerLocks = aliased
			changed = true
		}
		r.EntryMay = may
		if in == nil {
			continue // every caller is pending or unknown
		}
		entry := given[fn]
		for _, h := range in.held {
			if _, ok := entry.Holds(h.Lock); !ok {
				entry = entry.With(h)
			}
		}
		if r.EntryKnown && equal(entry, r.Entry) {
			continue
		}
		results[i] = a.Func(fn, r.Context, entry)
		results[i].EntryKnown = true
		results[i].freshParams = fresh
		results[i].CallerLocks = aliased
		results[i].EntryMay = may
		changed = true
	}
	return changed
}

// gatherCalls reads the scans of results (made and kept in scans): the
// static call sites of each package function, the functions used as
// values (escapes) and the interfaces each method name is called through.
func gatherCalls(results []*Result, scans map[*Result]*callScan) (map[*ssa.Function][]callSite, map[*ssa.Function]bool, map[string][]*types.Interface) {
	sites := map[*ssa.Function][]callSite{}
	escapes := map[*ssa.Function]bool{}
	invoked := map[string][]*types.Interface{} // method name -> interfaces it is called through
	block := func(f *ssa.Function) {
		escapes[f] = true
		if f.Synthetic != "" { // bound method or thunk: block what it wraps
			for _, b := range f.Blocks {
				for _, instr := range b.Instrs {
					if c, ok := instr.(ssa.CallInstruction); ok {
						if callee := c.Common().StaticCallee(); callee != nil {
							escapes[callee] = true
						}
					}
				}
			}
		}
	}
	add := func(r *Result, cs *callScan) {
		for _, it := range cs.invoked {
			invoked[it.method] = append(invoked[it.method], it.iface)
		}
		for _, s := range cs.sites {
			if inTestFile(s.call.Parent()) && !inTestFile(s.callee) {
				continue // a test owns its values: it does not decide the callee's entry locks
			}
			sites[s.callee] = append(sites[s.callee], callSite{r, s.call})
		}
		for _, f := range cs.values {
			block(f)
		}
	}
	// Forget the scans of Results a round replaced.
	current := map[*Result]bool{nil: true}
	for _, r := range results {
		current[r] = true
	}
	maps.DeleteFunc(scans, func(r *Result, _ *callScan) bool { return !current[r] })
	for _, r := range results {
		cs := scans[r]
		if cs == nil {
			cs = scanCalls(r.Functions(), true)
			scans[r] = cs
		}
		add(r, cs)
	}
	if len(results) > 0 && results[0].Fn.Pkg != nil {
		// Package-level initializers can store function values too.
		if init := results[0].Fn.Pkg.Func("init"); init != nil {
			cs := scans[nil]
			if cs == nil {
				cs = scanCalls(append([]*ssa.Function{init}, init.AnonFuncs...), false)
				scans[nil] = cs
			}
			add(nil, cs)
		}
	}
	return sites, escapes, invoked
}

// inTestFile reports whether fn (a literal: its enclosing function) is
// declared in a _test.go file.
func inTestFile(fn *ssa.Function) bool {
	for fn != nil && fn.Parent() != nil {
		fn = fn.Parent()
	}
	if fn == nil || fn.Prog == nil || !fn.Pos().IsValid() {
		return false
	}
	return strings.HasSuffix(fn.Prog.Fset.Position(fn.Pos()).Filename, "_test.go")
}

// freshParams reports, for each parameter of fn, whether every call site
// passes a value that is not shared yet (see Fresh): a helper called only
// from constructors on the value being built.
func freshParams(fn *ssa.Function, sites []callSite) []bool {
	out := make([]bool, len(fn.Params))
	for i := range out {
		out[i] = len(sites) > 0
	}
	for _, site := range sites {
		if _, ok := site.call.(*ssa.Go); ok {
			return make([]bool, len(fn.Params)) // shared with a new goroutine
		}
		args := site.call.Common().Args
		for i := range out {
			if !out[i] {
				continue
			}
			if i >= len(args) {
				out[i] = false
				continue
			}
			p := site.r.Path(args[i])
			out[i] = p.Fields == "" && site.r.IsFresh(p.Root)
		}
	}
	return out
}

func equalBools(a, b []bool) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// IsFresh reports whether root, the root of a path in r, denotes a value
// not shared yet: Fresh(root), or a parameter that every caller passes a
// fresh value for (a helper called only from constructors).
func (r *Result) IsFresh(root ssa.Value) bool {
	if p, ok := root.(*ssa.Parameter); ok {
		for i, q := range r.Fn.Params {
			if q == p && i < len(r.freshParams) {
				return r.freshParams[i]
			}
		}
	}
	return Fresh(root)
}

// callSite is one static call of a package function.
type callSite struct {
	r    *Result // the caller's analysis
	call ssa.CallInstruction
}

// known reports whether r's entry state is complete.
func (r *Result) known() bool {
	return r.Context == Goroutine || (r.Context == TopLevel && r.EntryKnown)
}

// viaInterface reports whether method fn can be called through one of
// the interfaces its name is invoked through in the package.
func viaInterface(fn *ssa.Function, ifaces []*types.Interface) bool {
	recv := fn.Signature.Recv()
	if recv == nil {
		return false
	}
	for _, it := range ifaces {
		if types.Implements(recv.Type(), it) {
			return true
		}
	}
	return false
}

// callerStateDropped maps the locks held at call onto the parameters of
// callee: a lock below an argument becomes a lock below the parameter, and
// a package-level lock stays as is. A go statement holds nothing. It also
// reports whether a lock held at the call could not be mapped.
func callerStateDropped(r *Result, call ssa.CallInstruction, callee *ssa.Function) (State, bool) {
	if _, ok := call.(*ssa.Go); ok {
		return State{}, false
	}
	st, ok := r.Before(call)
	if !ok {
		return State{}, false
	}
	args := call.Common().Args
	var out State
	dropped := false
	for _, h := range st.held {
		if _, ok := h.Lock.Root.(*ssa.Global); ok {
			h.Deferred = false
			out = out.With(h)
			continue
		}
		mapped := false
		for i, arg := range args {
			if i >= len(callee.Params) {
				break
			}
			ap := r.Path(arg)
			if h.Lock.Root == ap.Root && strings.HasPrefix(h.Lock.Fields, ap.Fields+".") {
				out = out.With(Held{Lock: Path{callee.Params[i], h.Lock.Fields[len(ap.Fields):]}, Mode: h.Mode, Pos: h.Pos})
				mapped = true
				break
			}
		}
		dropped = dropped || !mapped
	}
	return out, dropped
}

// Func analyzes fn starting in state entry.
func (a *Analysis) Func(fn *ssa.Function, ctx Context, entry State) *Result {
	r := &Result{
		Fn:      fn,
		Context: ctx,
		Entry:   entry,
		before:  map[ssa.Instruction]State{},
		subst:   map[*ssa.FreeVar]Path{},
	}
	run := &funcRun{a: a, res: r, record: true}
	r.Exit = run.analyze(fn, entry, 0)
	return r
}

// funcRun is one analysis of a function and its inlined literals.
type funcRun struct {
	a      *Analysis
	res    *Result
	record bool // record per-instruction states and inlined functions
	// deferAcq collects deferred Lock/RLock calls (defer mu.RLock() after
	// a temporary RUnlock): they hold the lock again at exit.
	deferAcq []Held
}

// analyze runs the dataflow over fn from entry and returns the exit state.
func (run *funcRun) analyze(fn *ssa.Function, entry State, depth int) State {
	if len(fn.Blocks) == 0 {
		return entry
	}
	in := make([]*State, len(fn.Blocks))
	in[0] = &entry
	queue := []*ssa.BasicBlock{fn.Blocks[0]}
	queued := make([]bool, len(fn.Blocks))
	queued[0] = true
	if fn.Recover != nil && mayRecover(fn) {
		in[fn.Recover.Index] = &State{}
		queue = append(queue, fn.Recover)
		queued[fn.Recover.Index] = true
	}
	quiet := &funcRun{a: run.a, res: run.res, record: false}
	for len(queue) > 0 {
		b := queue[0]
		queue = queue[1:]
		queued[b.Index] = false
		out, try, _ := quiet.block(b, *in[b.Index], depth)
		for i, succ := range b.Succs {
			st := out
			if try != nil && i == try.edge {
				for _, h := range try.held {
					st = st.With(h)
				}
			}
			if in[succ.Index] == nil {
				in[succ.Index] = &st
			} else {
				m := meet(*in[succ.Index], st)
				if equal(m, *in[succ.Index]) {
					continue
				}
				in[succ.Index] = &m
			}
			if !queued[succ.Index] {
				queued[succ.Index] = true
				queue = append(queue, succ)
			}
		}
	}
	// Final pass: record the converged states and compute the exit.
	saved := run.deferAcq
	run.deferAcq = nil
	defer func() { run.deferAcq = saved }()
	var exit *State
	defers := deferCalls(fn)
	for _, b := range fn.Blocks {
		if in[b.Index] == nil {
			continue
		}
		_, _, rets := run.block(b, *in[b.Index], depth)
		for _, s := range rets {
			s = run.afterDefers(s, defers, depth)
			s = dropDeferredSince(s, entry, depth)
			if exit == nil {
				exit = &s
			} else {
				m := meet(*exit, s)
				exit = &m
			}
		}
	}
	if exit == nil {
		return State{}
	}
	for _, h := range run.deferAcq {
		*exit = exit.With(h)
	}
	return *exit
}

// deferCalls returns fn's defer statements.
func deferCalls(fn *ssa.Function) []*ssa.Defer {
	var out []*ssa.Defer
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if d, ok := instr.(*ssa.Defer); ok {
				out = append(out, d)
			}
		}
	}
	return out
}

// afterDefers removes from s, the state at a return, the locks a deferred
// call (an inlined literal, or a function with a summary) releases when
// it runs there, also a lock taken after the defer statement (defer
// func() { c.unguard(s) }(); s = c.guard(), franz-go's assignPartitions).
// It only removes locks: a defer that did not run on the path removes too
// much, never too little.
func (run *funcRun) afterDefers(s State, defers []*ssa.Defer, depth int) State {
	if s.Len() == 0 || depth >= maxInline {
		return s
	}
	quiet := &funcRun{a: run.a, res: run.res, record: false}
	for _, d := range defers {
		var after State
		if lit := inlinedLiteral(&d.Call); lit != nil {
			quiet.bind(lit, &d.Call)
			after = quiet.analyze(lit, s, depth+1)
		} else if callee := d.Call.StaticCallee(); callee != nil && !d.Call.IsInvoke() {
			after = run.a.apply(d, callee, &d.Call, s, run.res)
		} else {
			continue
		}
		for _, h := range s.held {
			if _, ok := after.Holds(h.Lock); !ok {
				s = s.Without(h.Lock)
			}
		}
	}
	return s
}

// dropDeferredSince is dropDeferred at a return of fn analyzed from
// entry: an inlined literal's return (depth > 0) runs only the literal's
// deferred calls, not its caller's, so a lock whose unlock the caller
// deferred before the call stays held (lock; defer unlock; ok :=
// func() bool { …; return x }(); the lock is still held after the call).
func dropDeferredSince(s, entry State, depth int) State {
	if depth == 0 {
		return dropDeferred(s)
	}
	for _, h := range s.held {
		if e, ok := entry.Holds(h.Lock); h.Deferred && !(ok && e.Deferred) {
			s = s.Without(h.Lock)
		}
	}
	return s
}

func dropDeferred(s State) State {
	for _, h := range s.held {
		if h.Deferred {
			s = s.Without(h.Lock)
		}
	}
	return s
}

// block applies the instructions of b to st. It returns the state at the
// end of b, the locks acquired on one edge of its if (TryLock, or the
// status of a conditional lock helper), and the states at the block's
// return instructions.
func (run *funcRun) block(b *ssa.BasicBlock, st State, depth int) (State, *edgeLocks, []State) {
	var try *edgeLocks
	var rets []State
	if run.record {
		if run.res.reached == nil {
			run.res.reached = map[*ssa.BasicBlock]bool{}
		}
		run.res.reached[b] = true
	}
	for _, instr := range b.Instrs {
		if run.record && st.Len() > 0 {
			run.res.before[instr] = st
		}
		switch i := instr.(type) {
		case *ssa.Call:
			st = run.call(i, &i.Call, st, depth)
		case *ssa.Defer:
			st = run.deferred(i, st, depth)
		case *ssa.Return:
			rets = append(rets, st)
		case *ssa.If:
			if c, ok := i.Cond.(*ssa.Call); ok {
				op, lk := Classify(&c.Call)
				switch op {
				case OpTryLock:
					try = &edgeLocks{held: []Held{{Lock: run.res.Path(lk), Mode: Exclusive, Pos: c.Pos()}}}
				case OpTryRLock:
					try = &edgeLocks{held: []Held{{Lock: run.res.Path(lk), Mode: Shared, Pos: c.Pos()}}}
				}
			}
			if try == nil {
				try = run.res.condEdge(i.Cond)
			}
		}
	}
	return st, try, rets
}

// call applies the effect of a call on the lock state.
func (run *funcRun) call(instr ssa.Instruction, c *ssa.CallCommon, st State, depth int) State {
	op, lk := Classify(c)
	switch op {
	case OpLock, OpRLock:
		m := Exclusive
		if op == OpRLock {
			m = Shared
		}
		return st.With(Held{Lock: run.res.Path(lk), Mode: m, Pos: c.Pos()})
	case OpUnlock, OpRUnlock:
		p := run.res.Path(lk)
		if _, ok := st.Holds(p); !ok {
			run.res.released = append(run.res.released, p)
		}
		return st.Without(p)
	case OpTryLock, OpTryRLock:
		return st
	}
	if paths, ok := run.res.unlockFns[c.Value]; ok {
		for _, p := range paths { // unlock() returned by a lock helper
			st = st.Without(p)
		}
		return st
	}
	if lit := inlinedLiteral(c); lit != nil && depth < maxInline {
		run.bind(lit, c)
		return run.analyze(lit, st, depth+1)
	}
	if callee := c.StaticCallee(); callee != nil && !c.IsInvoke() {
		return run.a.apply(instr, callee, c, st, run.res)
	}
	return st
}

// deferred applies a defer statement: a deferred unlock, directly or in a
// function literal, marks the lock Deferred; the lock stays held.
func (run *funcRun) deferred(d *ssa.Defer, st State, depth int) State {
	op, lk := Classify(&d.Call)
	switch op {
	case OpUnlock, OpRUnlock:
		p := run.res.Path(lk)
		if h, ok := st.Holds(p); ok {
			h.Deferred = true
			return st.With(h)
		}
		return st
	case OpLock, OpRLock:
		m := Exclusive
		if op == OpRLock {
			m = Shared
		}
		run.deferAcq = append(run.deferAcq, Held{Lock: run.res.Path(lk), Mode: m, Pos: d.Pos()})
		return st
	}
	if paths, ok := run.res.unlockFns[d.Call.Value]; ok {
		for _, p := range paths { // defer unlock(), unlock returned by a lock helper
			if h, ok := st.Holds(p); ok {
				h.Deferred = true
				st = st.With(h)
			}
		}
		return st
	}
	if lit := inlinedLiteral(&d.Call); lit != nil && depth < maxInline {
		run.bind(lit, &d.Call)
		exit := run.analyze(lit, st, depth+1)
		for _, h := range st.held {
			if _, ok := exit.Holds(h.Lock); !ok {
				h.Deferred = true
				st = st.With(h)
			}
		}
	}
	return st
}

// inlinedLiteral returns the function literal c calls if it is inlined.
func inlinedLiteral(c *ssa.CallCommon) *ssa.Function {
	var fn *ssa.Function
	switch v := c.Value.(type) {
	case *ssa.Function:
		fn = v
	case *ssa.MakeClosure:
		fn, _ = v.Fn.(*ssa.Function)
	}
	if fn == nil || fn.Parent() == nil || inlineSite(fn) == nil {
		return nil
	}
	return fn
}

// bind maps the free variables of the inlined literal lit to the paths of
// the values captured at the call c.
func (run *funcRun) bind(lit *ssa.Function, c *ssa.CallCommon) {
	mc, ok := c.Value.(*ssa.MakeClosure)
	if ok {
		for i, fv := range lit.FreeVars {
			if i < len(mc.Bindings) {
				run.res.subst[fv] = run.res.Path(mc.Bindings[i])
			}
		}
	}
	if !run.record {
		return
	}
	for _, f := range run.res.inlined {
		if f == lit {
			return
		}
	}
	run.res.inlined = append(run.res.inlined, lit)
}

// An effect is one lock a function acquires or releases, relative to one
// of its parameters.
type effect struct {
	param  int
	fields string
	mode   Mode
}

// summary records the locks a function acquires and releases on behalf
// of its caller.
type summary struct {
	done     bool
	acquires []effect
	releases []effect
	// unlocks are the locks released by calling the function the callee
	// returns (func (b *B) lockAndGetUnlock() func()).
	unlocks []effect
	// cond are the locks held after the call exactly when its status
	// result says success (func (w *W) lock() error).
	cond []effect
}

// apply applies the summary of callee (same package) at call c.
func (a *Analysis) apply(instr ssa.Instruction, callee *ssa.Function, c *ssa.CallCommon, st State, r *Result) State {
	s := a.summary(callee)
	if s == nil {
		return st
	}
	args := c.Args
	if v, ok := instr.(*ssa.Call); ok && len(s.cond) > 0 {
		var held []Held
		for _, e := range s.cond {
			if e.param < len(args) {
				p := r.Path(args[e.param])
				held = append(held, Held{Lock: Path{p.Root, p.Fields + e.fields}, Mode: e.mode, Pos: c.Pos()})
			}
		}
		if r.condFns == nil {
			r.condFns = map[ssa.Value]condLocks{}
		}
		r.condFns[v] = condLocks{held: held}
	}
	if len(s.unlocks) > 0 {
		if v, ok := instr.(*ssa.Call); ok {
			var paths []Path
			for _, e := range s.unlocks {
				if e.param < len(args) {
					p := r.Path(args[e.param])
					paths = append(paths, Path{p.Root, p.Fields + e.fields})
				}
			}
			if r.unlockFns == nil {
				r.unlockFns = map[ssa.Value][]Path{}
			}
			r.unlockFns[v] = paths
		}
	}
	for _, e := range s.releases {
		if e.param < len(args) {
			p := r.Path(args[e.param])
			st = st.Without(Path{p.Root, p.Fields + e.fields})
		}
	}
	for _, e := range s.acquires {
		if e.param < len(args) {
			p := r.Path(args[e.param])
			st = st.With(Held{Lock: Path{p.Root, p.Fields + e.fields}, Mode: e.mode, Pos: c.Pos()})
		}
	}
	return st
}

// summary returns the lock summary of fn, or nil if fn is not a source
// function or is being summarized (recursion).
func (a *Analysis) summary(fn *ssa.Function) *summary {
	if len(fn.Blocks) == 0 || fn.Synthetic != "" || fn.Parent() != nil {
		return nil
	}
	if s, ok := a.summaries[fn]; ok {
		if !s.done {
			return nil
		}
		return s
	}
	s := &summary{}
	a.summaries[fn] = s
	r := &Result{Fn: fn, before: map[ssa.Instruction]State{}, subst: map[*ssa.FreeVar]Path{}}
	run := &funcRun{a: a, res: r, record: false}
	exit := run.analyze(fn, State{}, 0)
	for _, h := range exit.held {
		if i := paramIndex(fn, h.Lock.Root); i >= 0 {
			s.acquires = append(s.acquires, effect{i, h.Lock.Fields, h.Mode})
		}
	}
	seen := map[Path]bool{}
	for _, p := range r.released {
		if seen[p] {
			continue
		}
		seen[p] = true
		if i := paramIndex(fn, p.Root); i >= 0 && !a.restores(fn, p) {
			s.releases = append(s.releases, effect{param: i, fields: p.Fields})
		}
	}
	s.unlocks = a.returnedUnlocks(fn)
	if len(s.acquires) == 0 {
		s.cond = a.condAcquires(fn)
	}
	s.done = true
	return s
}

// restores reports whether fn, entered holding lock p, holds it again on
// every return (it unlocks and re-locks it around a wait, or returns
// early without touching it): the call leaves the caller's lock as it was.
func (a *Analysis) restores(fn *ssa.Function, p Path) bool {
	r := &Result{Fn: fn, before: map[ssa.Instruction]State{}, subst: map[*ssa.FreeVar]Path{}}
	run := &funcRun{a: a, res: r, record: false}
	exit := run.analyze(fn, NewState(Held{Lock: p, Mode: Exclusive}), 0)
	h, ok := exit.Holds(p)
	return ok && h.Mode == Exclusive && !h.Deferred
}

// returnedUnlocks returns the locks, relative to fn's parameters, that
// the function value fn returns first releases when called: a bound
// b.mu.Unlock, or a function literal that unlocks captured locks.
func (a *Analysis) returnedUnlocks(fn *ssa.Function) []effect {
	var out []effect
	seen := map[effect]bool{}
	add := func(p Path) {
		if i := paramIndex(fn, p.Root); i >= 0 {
			e := effect{param: i, fields: p.Fields}
			if !seen[e] {
				seen[e] = true
				out = append(out, e)
			}
		}
	}
	for _, b := range fn.Blocks {
		ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return)
		if !ok || len(ret.Results) == 0 {
			continue
		}
		mc, ok := ret.Results[0].(*ssa.MakeClosure)
		if !ok {
			continue
		}
		lit, ok := mc.Fn.(*ssa.Function)
		if !ok {
			continue
		}
		if lit.Synthetic != "" && len(mc.Bindings) == 1 { // bound method value b.mu.Unlock
			switch lit.Name() {
			case "Unlock$bound", "RUnlock$bound":
				if IsMutex(mc.Bindings[0].Type()) {
					add(pathOf(mc.Bindings[0], nil))
				}
			}
			continue
		}
		if lit.Parent() != fn {
			continue
		}
		r := &Result{Fn: lit, before: map[ssa.Instruction]State{}, subst: map[*ssa.FreeVar]Path{}}
		for i, fv := range lit.FreeVars {
			if i < len(mc.Bindings) {
				r.subst[fv] = pathOf(mc.Bindings[i], nil)
			}
		}
		run := &funcRun{a: a, res: r} // fn's own summary is in progress: no recursion
		run.analyze(lit, State{}, 0)
		for _, p := range r.released {
			add(p)
		}
	}
	return out
}

func paramIndex(fn *ssa.Function, v ssa.Value) int {
	for i, p := range fn.Params {
		if p == v {
			return i
		}
	}
	return -1
}

// StructOf returns the struct type that t or *t denotes.
func StructOf(t types.Type) (*types.Struct, bool) { return structOf(t) }

// WrappedCallee returns the function a synthetic wrapper (a bound method
// value, a method expression) calls statically, or nil.
func WrappedCallee(w *ssa.Function) *ssa.Function {
	for _, b := range w.Blocks {
		for _, instr := range b.Instrs {
			if c, ok := instr.(ssa.CallInstruction); ok {
				if fn := c.Common().StaticCallee(); fn != nil {
					return fn
				}
			}
		}
	}
	return nil
}
