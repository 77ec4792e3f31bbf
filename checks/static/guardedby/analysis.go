package guardedby

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"regexp"
	"sort"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/interleave-dev/interleave/checks/claim"
	"github.com/interleave-dev/interleave/checks/static/internal/forkjoin"
	"github.com/interleave-dev/interleave/checks/static/internal/lockset"
	"github.com/interleave-dev/interleave/checks/static/internal/passutil"
)

// obs is one counted access to a field.
type obs struct {
	pos   token.Pos
	write bool
	held  []*types.Var // sibling mutexes held at the access
	base  string       // source text of the base: c in c.count
	sel   string       // the field as selected, when promoted: c.inMsgs for c.stats.inMsgs
	sub   string       // the part of the field accessed: ".limit" for c.op.limit (lockset.Access.Sub)
	// subsWritten: the parts written at this selector, one per store
	// (n := &c.op; n.a = 1; n.b = 2 writes .a and .b at &c.op).
	subsWritten []string
	// other reports that a lock other than the sibling mutexes is held;
	// others lists the mutex fields those locks are (nil for a lock that
	// is not a struct field: a package variable, a Locker).
	other  bool
	others []*types.Var
	fn     *ssa.Function // the analyzed function the access is in
	end    token.Pos     // end of the reported range, if not pos+len(field)
	onRecv bool          // the base is the receiver of the method fn
	// ownBase: the base is the receiver of fn (or a package variable),
	// possibly through embedded fields: c.f, c.stats.f.
	ownBase bool
	// enclosing: a lock of an object that contains the base is held
	// (c.mu for c.inner.f): it may be the guard.
	enclosing bool
	// beforeGo: the access comes before the function hands the base to a
	// goroutine (setting up a value, then go c.loop()).
	beforeGo bool
	// unsafeName: fn is named for the caller's responsibility
	// (unsafeFoo, fooNoLock, fooUnlocked).
	unsafeName bool
	// callerLocks: a caller holds a lock the analysis cannot relate to
	// this function's values (possibly the guard, through an alias).
	callerLocks bool
	// unpublished: an unlocked write on a value every caller passes
	// before publishing it (unpublishedWrite): no goroutine evidence,
	// and it does not count against an inferred guard.
	unpublished bool
	r           *lockset.Result
	path        lockset.Path    // the base, as a path in r
	instr       ssa.Instruction // the access
}

// quiet reports whether an access without the documented lock is
// excused: the value is not reached from the receiver, another mutex of
// the struct or an enclosing object's lock is held (it may be the
// guard), the value is still being set up, or the function's name says
// the caller is responsible for locking.
func (o *obs) quiet(mu *types.Var) bool {
	return !o.ownBase || len(o.held) > 0 || o.enclosing || o.beforeGo || o.unsafeName || o.callerLocks || o.mayAlias(mu) ||
		// The function takes the documented mutex itself, so the lock is
		// not forgotten: that the must-analysis lost it on the way (a
		// closure that unlocks on error paths) is more likely than a
		// bug, and a value used after the unlock is IL4003's business.
		o.r != nil && o.instr != nil && inSection(o.r, o.instr, o.path.Child(mu.Name())) ||
		// Some callers hold the mutex and some do not: the bug, if any,
		// is at an unlocked call site, usually set-up code.
		o.r != nil && o.mayHeld(mu)
}

func (o *obs) mayHeld(mu *types.Var) bool {
	_, ok := o.r.EntryMay.Holds(o.path.Child(mu.Name()))
	return ok
}

// ownBase reports whether base is fn's receiver or a package variable,
// followed only by embedded fields. In a function literal, a captured
// receiver (go func() { s.n++ }() in a method of s) is the receiver.
func ownBase(fn *ssa.Function, base lockset.Path) bool {
	switch root := base.Root.(type) {
	case *ssa.Global:
	case *ssa.Parameter:
		if !isRecv(topLevel(fn), root) {
			return false
		}
	case *ssa.FreeVar:
		if !isRecv(topLevel(fn), capturedParam(root, 0)) {
			return false
		}
	default:
		return false
	}
	for p := base; p.Fields != ""; {
		v := p.FieldVar()
		if v == nil || !v.Embedded() {
			return false
		}
		p.Fields = p.Fields[:strings.LastIndexByte(p.Fields, '.')]
	}
	return true
}

func isRecv(top *ssa.Function, p *ssa.Parameter) bool {
	return p != nil && top.Signature.Recv() != nil && len(top.Params) > 0 && top.Params[0] == p
}

// capturedParam returns the parameter of an enclosing function that the
// free variable fv of a literal captures, when every closure made of the
// literal binds that parameter (directly, or spilled and never
// reassigned) and the literal does not assign it.
func capturedParam(fv *ssa.FreeVar, depth int) *ssa.Parameter {
	lit := fv.Parent()
	idx := -1
	for i, f := range lit.FreeVars {
		if f == fv {
			idx = i
		}
	}
	if idx < 0 || lit.Parent() == nil || depth > 8 || assigned(fv) {
		return nil
	}
	var p *ssa.Parameter
	for _, b := range lit.Parent().Blocks {
		for _, instr := range b.Instrs {
			mc, ok := instr.(*ssa.MakeClosure)
			if !ok || mc.Fn != lit || idx >= len(mc.Bindings) {
				continue
			}
			var q *ssa.Parameter
			if b := lockset.PathOf(mc.Bindings[idx]); b.Fields == "" {
				switch v := b.Root.(type) {
				case *ssa.Parameter:
					q = v
				case *ssa.FreeVar:
					q = capturedParam(v, depth+1)
				}
			}
			if q == nil || p != nil && p != q {
				return nil
			}
			p = q
		}
	}
	return p
}

// assigned reports whether the literal stores to the captured variable fv.
func assigned(fv *ssa.FreeVar) bool {
	for _, u := range *fv.Referrers() {
		if st, ok := u.(*ssa.Store); ok && st.Addr == fv {
			return true
		}
	}
	return false
}

// enclosingLockHeld reports whether a lock of an object containing base
// (a mutex field of base or of one of its ancestors on the path) is held.
func enclosingLockHeld(st lockset.State, base lockset.Path) bool {
	for _, h := range st.Locks() {
		if h.Lock.Root != base.Root || h.Lock.Fields == "" {
			continue
		}
		parent := h.Lock.Fields[:strings.LastIndexByte(h.Lock.Fields, '.')]
		if strings.HasPrefix(base.Fields+".", parent+".") {
			return true
		}
	}
	return false
}

// beforeGo reports whether instr comes before a go statement of its
// function that hands root to the new goroutine (as an argument or a
// captured variable): the go statement is reachable from instr, and
// instr is not reachable from it.
func beforeGo(instr ssa.Instruction, root ssa.Value, r *lockset.Result) bool {
	fn := instr.Parent()
	for _, b := range fn.Blocks {
		for i, in := range b.Instrs {
			g, ok := in.(*ssa.Go)
			if !ok || !handsOver(g, root, r) {
				continue
			}
			from := instr.Block()
			if from == b && indexOf(b, instr) < i {
				if !lockset.BlocksReach(b.Succs, from) {
					return true
				}
				continue
			}
			if lockset.BlocksReach(from.Succs, b) && !lockset.BlocksReach(b.Succs, from) && from != b {
				return true
			}
		}
	}
	return false
}

func handsOver(g *ssa.Go, root ssa.Value, r *lockset.Result) bool {
	vals := append([]ssa.Value{g.Call.Value}, g.Call.Args...)
	if mc, ok := g.Call.Value.(*ssa.MakeClosure); ok {
		vals = append(vals, mc.Bindings...)
	}
	for _, v := range vals {
		if r.Path(v).Root == root {
			return true
		}
	}
	return false
}

func indexOf(b *ssa.BasicBlock, instr ssa.Instruction) int {
	for i, in := range b.Instrs {
		if in == instr {
			return i
		}
	}
	return -1
}

// unsafeName reports whether a function's name puts locking on its
// caller: unsafeFoo/UnsafeFoo (etcd), fooNoLock/fooNolock (nats),
// fooUnlocked, fooWithoutLock.
func unsafeName(name string) bool {
	if strings.HasPrefix(name, "unsafe") || strings.HasPrefix(name, "Unsafe") {
		return true
	}
	for _, suf := range []string{"NoLock", "Nolock", "Unlocked", "WithoutLock", "NL"} {
		if strings.HasSuffix(name, suf) {
			return true
		}
	}
	return false
}

type fieldInfo struct {
	field   *types.Var
	obs     []*obs
	byPos   map[token.Pos]*obs
	written bool // written somewhere after construction
	strct   *types.Struct
}

func (o *obs) holds(mu *types.Var) bool {
	for _, h := range o.held {
		if h == mu {
			return true
		}
	}
	return false
}

// mutexesHeld returns the sibling mutexes of the accessed struct that are
// held at the access, and whether some other lock is held too.
func mutexesHeld(st lockset.State, acc lockset.Access, mus []*types.Var) (held []*types.Var, other bool) {
	held, others := mutexesHeldOthers(st, acc, mus)
	return held, len(others) > 0
}

// mutexesHeldOthers is mutexesHeld that also returns the field of each
// other lock held (nil when it is not a struct field).
func mutexesHeldOthers(st lockset.State, acc lockset.Access, mus []*types.Var) (held, others []*types.Var) {
	for _, h := range st.Locks() {
		found := false
		for _, mu := range mus {
			if h.Lock == acc.Base.Child(mu.Name()) {
				held = append(held, mu)
				found = true
			}
		}
		if !found {
			v := h.Lock.FieldVar()
			if v != nil {
				v = v.Origin()
			}
			others = append(others, v)
		}
	}
	return held, others
}

// baseText returns the source text of the base of the selector at pos.
func (pc *passContext) baseText(pos token.Pos, p lockset.Path) string {
	if sel := pc.syntax.Selector(pos); sel != nil {
		return types.ExprString(sel.X)
	}
	return p.String()
}

// collect counts the accesses of r to fields of mutex-carrying structs.
func (pc *passContext) collect(r *lockset.Result) {
	skip := pc.skipFunc(r)
	for _, acc := range r.Accesses() {
		if acc.Field == nil || acc.Struct == nil {
			continue
		}
		f := acc.Field.Origin()
		if f.Pkg() != pc.pass.Pkg || lockset.IsSyncType(f.Type()) {
			continue
		}
		switch acc.Kind {
		case lockset.Atomic:
			pc.atomic[f] = true
			continue
		case lockset.Ref:
			continue
		}
		mus := mutexFields(acc.Struct)
		if len(mus) == 0 || skip {
			continue
		}
		st, ok := r.Before(acc.Instr)
		if !ok || passutil.Copied(acc.Base.Root) || r.IsFresh(acc.Base.Root) {
			continue
		}
		// A store through a pointer held in the field writes the pointee,
		// which may have a guard of its own: the field itself is read.
		write := acc.Kind.IsWrite() && acc.Kind != lockset.PtrWrite
		if write && acc.Kind != lockset.Write && !acc.Target.IsZero() && st.HoldsUnder(acc.Target, lockset.Exclusive) {
			write = false // the object written through has its own lock held
		}
		info := pc.fields[f]
		if info == nil {
			info = &fieldInfo{field: f, byPos: map[token.Pos]*obs{}}
			pc.fields[f] = info
			pc.order = append(pc.order, f)
		}
		info.written = info.written || write
		held, others := mutexesHeldOthers(st, acc, mus)
		if len(held) == 0 && acc.Base.Canonical() {
			for _, mu := range pc.forkHeld(r) {
				if heldVar(mus, mu) {
					held = append(held, mu) // a worker joined inside the starter's critical section
				}
			}
		}
		if len(held) == 0 {
			if r.Context == lockset.Escaping || !r.EntryKnown || !acc.Base.Canonical() {
				continue // unknown: an unknown caller, or an unknown object
			}
			if !acc.Kind.IsWrite() && afterSync(acc.Instr) {
				continue // a read ordered by a channel or WaitGroup: not a lock discipline question
			}
			if _, ok := f.Type().Underlying().(*types.Chan); ok && !acc.Kind.IsWrite() {
				continue // loading a channel to use it: the channel synchronizes itself
			}
		}
		unpublished := len(held) == 0 && write && pc.unpublishedWrite(r, acc, f)
		if o := info.byPos[acc.Pos]; o != nil {
			// x.f++ is a load and a store at one selector: one access.
			o.write = o.write || write
			o.held = intersect(o.held, held)
			o.unpublished = o.unpublished || unpublished
			o.sub = commonSub(o.sub, acc.Sub)
			if write {
				o.subsWritten = append(o.subsWritten, acc.Sub)
			}
			continue
		}
		o := &obs{pos: acc.Pos, write: write, held: held, base: pc.baseText(acc.Pos, acc.Base), other: len(others) > 0, others: others, fn: r.Fn, unpublished: unpublished, sub: acc.Sub}
		if write {
			o.subsWritten = []string{acc.Sub}
		}
		if r.Fn.Signature.Recv() != nil && r.Fn.Parent() == nil && len(r.Fn.Params) > 0 && acc.Base == (lockset.Path{Root: r.Fn.Params[0]}) {
			o.onRecv = true // c.f in a method of c's type
		}
		o.ownBase = ownBase(r.Fn, acc.Base)
		o.enclosing = enclosingLockHeld(st, acc.Base)
		o.beforeGo = len(held) == 0 && beforeGo(acc.Instr, acc.Base.Root, r)
		o.unsafeName = unsafeName(topLevel(r.Fn).Name())
		o.callerLocks = r.CallerLocks
		o.r, o.path, o.instr = r, acc.Base, acc.Instr
		info.strct = acc.Struct
		if sel := pc.syntax.Selector(acc.Pos); sel != nil && sel.Sel.Name != f.Name() {
			o.sel = sel.Sel.Name // a promoted field of the embedded f
		} else if sel := pc.promotedAt(acc.Pos, f); sel != nil {
			o.sel, o.base, o.end = sel.Sel.Name, types.ExprString(sel.X), sel.End()
		}
		info.byPos[acc.Pos] = o
		info.obs = append(info.obs, o)
	}
}

// promotedAt returns the selector starting at pos that selects a field
// promoted through the embedded field f (c.inMsgs for c.stats.inMsgs):
// SSA places the implicit selection of f at the start of the selector.
func (pc *passContext) promotedAt(pos token.Pos, f *types.Var) *ast.SelectorExpr {
	if pc.promoted == nil {
		pc.promoted = map[token.Pos][]*ast.SelectorExpr{}
		for sel, s := range pc.pass.TypesInfo.Selections {
			if s.Kind() == types.FieldVal && len(s.Index()) > 1 {
				pc.promoted[sel.Pos()] = append(pc.promoted[sel.Pos()], sel)
			}
		}
	}
	for _, sel := range pc.promoted[pos] {
		s := pc.pass.TypesInfo.Selections[sel]
		t := s.Recv()
		for _, i := range s.Index()[:len(s.Index())-1] {
			st, ok := lockset.StructOf(t)
			if !ok || i >= st.NumFields() {
				break
			}
			if st.Field(i).Origin() == f {
				return sel
			}
			t = st.Field(i).Type()
		}
	}
	return nil
}

func intersect(a, b []*types.Var) []*types.Var {
	var out []*types.Var
	for _, x := range a {
		for _, y := range b {
			if x == y {
				out = append(out, x)
			}
		}
	}
	return out
}

// mayAlias reports whether one of the other locks held at o could be mu
// reached through another path (a.cs.mu for cs.mu): a field of the same
// mutex, or a lock that is no struct field at all.
func (o *obs) mayAlias(mu *types.Var) bool {
	for _, v := range o.others {
		if v == nil || v == mu.Origin() {
			return true
		}
	}
	return false
}

// reportFields reports IL1004 (documented guards) and IL1001 (inferred
// guards): the unprotected accesses of each guarded field.
func (pc *passContext) reportFields() {
	// docSeen holds the lock documentation comments whose mutex is held
	// at an access of at least one of the fields they cover.
	docSeen := map[token.Pos]bool{}
	for f, info := range pc.fields {
		if g, ok := pc.guards[f]; ok {
			for _, o := range info.obs {
				if o.holds(g.mutex) {
					docSeen[g.doc] = true
				}
			}
		}
	}
	var concurrent map[*types.Struct]bool
	claimed := map[*types.Struct]bool{}
	for tn := range lockset.ThreadSafeTypes(pc.pass.Files, pc.pass.TypesInfo) {
		if s, ok := lockset.StructOf(tn.Type()); ok {
			claimed[s] = true
		}
	}
	pc.conc = newConcurrency(pc.results, pc.skipFunc)
	var found []*fieldFinding
	for _, f := range pc.order {
		info := pc.fields[f]
		if pc.atomic[f] {
			continue // mixed atomic and plain access is atomicmix's finding
		}
		g, documented := pc.guards[f]
		mu := g.mutex
		majority := true // inferred: the inferredThreshold majority of IL1001
		locked := 0
		var counted []*obs
		if documented {
			// The documentation names the guard; another lock held
			// (another struct's) does not stand in for it, unless it
			// may be the same mutex reached through an alias.
			for _, o := range info.obs {
				if o.holds(mu) || !o.quiet(mu) {
					counted = append(counted, o)
				}
				if o.holds(mu) {
					locked++
				}
			}
			// A field never written after construction cannot race; a
			// lock documented for a block of fields must also be seen
			// held at an access to one of them.
			if !info.written || g.how != lockset.ByAnnotation && !docSeen[g.doc] {
				continue
			}
		} else {
			if concurrent == nil {
				concurrent = pc.concurrentStructs()
			}
			if !concurrent[info.strct] {
				continue // no sign that the value is shared between goroutines
			}
			// Inferred: an access under another lock may be guarded by
			// it and says nothing.
			for _, o := range info.obs {
				if (len(o.held) > 0 || !o.other) && !o.unpublished {
					counted = append(counted, o)
				}
			}
			mu, locked = dominant(counted)
			n := len(counted)
			if mu == nil || !info.written || locked < minLocked || float64(locked) < concurrentThreshold*float64(n) {
				continue
			}
			majority = float64(locked) >= inferredThreshold*float64(n)
		}
		var first *obs
		for _, o := range counted {
			if o.holds(mu) {
				first = o
				break
			}
		}
		// One finding per (field, lock) and rule: the first access, the
		// others as its related positions.
		var group []*fieldFinding
		byRule := map[string]*fieldFinding{}
		for _, o := range counted {
			if o.holds(mu) || !documented && (subUnwritten(o, info) || pc.setupOnly(o.fn, f) || condLocked(o, mu)) || pc.dcl[o.pos] || pc.reported[o.pos] || pc.publishedOnce(f, info, o) || pc.seenSetOnce(f, info, o) || pc.sealedReadOut(o, f, info) || pc.closedAfterWrites(f, info, o) {
				continue
			}
			if !documented && heldAtEveryWrite(o, counted) {
				continue // under another mutex every write holds too
			}
			if excludedEverywhere(o, info) {
				continue // a wider lock (the callers') excludes every other access
			}
			if !documented && pc.serialRead(o, info) {
				continue // a single-goroutine contract orders it after every write (serial.go)
			}
			protected := sameField(counted, o, mu, first)
			verb := "read"
			if o.write {
				verb = "written"
			}
			field := o.base + "." + f.Name()
			if o.sel != "" {
				field = o.base + "." + o.sel + " (in embedded " + f.Name() + ")"
			}
			lock := o.base + "." + mu.Name()
			d := analysis.Diagnostic{Pos: o.pos, End: o.pos + token.Pos(len(f.Name())), Category: RuleUnguardedField}
			if o.end.IsValid() {
				d.End = o.end
			}
			if documented {
				d.Category = RuleDocumentedGuardUnproven
				d.Message = fmt.Sprintf("field %s %s without holding %s, which guards it by %s%s", field, verb, lock, g.describe(), pc.guardQuote(g.doc))
				if o.unpublished {
					// Construction before publication: opt-in, since an
					// exported function's callers elsewhere are not seen.
					d.Message += fmt.Sprintf("; made before the value is published (every call of %s in the package passes a value not shared yet)", o.fn.Name())
				} else if other, why := pc.concurrentWith(o, info, mu, claimed[info.strct]); other != nil {
					// Goroutine evidence: the access races with another.
					d.Category = RuleDocumentedGuardViolated
					d.Message += "; " + why
					protected = other
				} else if pc.conc.joinedField(o, info) {
					continue // after the join of every goroutine that reaches the field
				} else {
					d.Message += " (no goroutine evidence)"
				}
				d.Related = append(d.Related, analysis.RelatedInformation{Pos: g.doc, Message: fmt.Sprintf("%s documented as guarded by %s here", f.Name(), mu.Name())})
			} else {
				d.Message = fmt.Sprintf("field %s %s without holding %s (held at %d of %d other accesses)", field, verb, lock, locked, len(counted)-1)
				if majority && pc.entryRead(o, f, info, mu, counted) {
					d.Category = RuleUnguardedReadEntry
					d.Message = fmt.Sprintf("field %s read without holding %s in exported method %s, while every write of it holds it (held at %d of %d other accesses)", field, lock, o.fn.Name(), locked, len(counted)-1)
					if w := sharedWrite(counted, mu, f); w != nil && pc.interfaceMethod(o.fn) && !pc.callsLockHelper(o.fn, mu) && !pc.unreachableMethod(o.fn) {
						d.Category = RuleUnguardedReadShared
						d.Message = pc.sharedReadMessage(field, lock, o, w, locked, len(counted)-1)
						protected = w
						if other, why := pc.concurrentWith(o, info, mu, claimed[info.strct]); other != nil {
							d.Message += "; " + why // goroutine evidence, as IL1007's
						}
					}
				} else if other, why := pc.concurrentWith(o, info, mu, claimed[info.strct]); other != nil {
					d.Category = RuleUnguardedFieldConcurrent
					d.Message += "; " + why
					protected = other
				} else if !majority || pc.conc.joinedField(o, info) {
					continue
				}
			}
			if protected != nil {
				how := "with " + protected.base + "." + mu.Name() + " held"
				if !protected.holds(mu) {
					how = "without " + protected.base + "." + mu.Name() + " either"
				}
				name := f.Name()
				if protected.sel != "" {
					name = protected.sel // the promoted field, as selected
				}
				d.Related = append(d.Related, analysis.RelatedInformation{Pos: protected.pos, Message: fmt.Sprintf("%s.%s accessed %s", protected.base, name, how)})
			}
			if g := byRule[d.Category]; g != nil {
				g.d.Related = append(g.d.Related, analysis.RelatedInformation{Pos: d.Pos, End: d.End, Message: fmt.Sprintf("also %s here without holding %s", verb, lock)})
				g.more++
				continue
			}
			ff := &fieldFinding{d: d, fn: o.fn, lock: lock, mu: mu, field: field, verb: verb}
			byRule[d.Category] = ff
			group = append(group, ff)
		}
		found = append(found, group...)
	}
	for _, ff := range mergeByFunction(found) {
		d := ff.d
		if n := ff.more; n == 1 {
			d.Message += " (and 1 more access, listed as related)"
		} else if n > 1 {
			d.Message += fmt.Sprintf(" (and %d more accesses, listed as related)", n)
		}
		pc.pass.Report(d)
	}
}

// condLocked reports whether o's function takes mu itself, on a branch,
// on a path that reaches o without an Unlock (if !r.inCallback {
// r.mu.RLock(); defer r.mu.RUnlock() }): it decides when to lock, and
// the path without the lock is its choice, not a forgotten lock.
// Inferred guards only. Not when a Lock dominates o (the lock is taken
// on every path and lost on the way: a helper that may return without
// it), nor when the branch tests a parameter (the caller decides:
// lockset's locked-parameter rule).
func condLocked(o *obs, mu *types.Var) bool {
	if o.r == nil || o.instr == nil {
		return false
	}
	p := o.path.Child(mu.Name())
	fn := o.instr.Parent()
	isOp := func(in ssa.Instruction) (lockset.Op, bool) {
		c, ok := in.(ssa.CallInstruction)
		if !ok {
			return lockset.OpNone, false
		}
		op, lk := lockset.Classify(c.Common())
		return op, op != lockset.OpNone && o.r.Path(lk) == p
	}
	var starts []ssa.Instruction
	for _, b := range fn.Blocks {
		for _, in := range b.Instrs {
			if op, ok := isOp(in); ok && (op == lockset.OpLock || op == lockset.OpRLock) {
				if _, deferred := in.(*ssa.Defer); !deferred {
					starts = append(starts, in)
				}
			}
		}
	}
	found := false
	for _, l := range starts {
		lb := l.Block()
		if lb.Dominates(o.instr.Block()) || branchOnParam(lb) {
			return false
		}
		if !found && reachesBeforeUnlock(lb, indexOf(lb, l)+1, o.instr, isOp) {
			found = true
		}
	}
	return found
}

// reachesBeforeUnlock reports whether instr is reached from index i of b
// before an undeferred Unlock (isOp's).
func reachesBeforeUnlock(b *ssa.BasicBlock, i int, instr ssa.Instruction, isOp func(ssa.Instruction) (lockset.Op, bool)) bool {
	seen := map[*ssa.BasicBlock]bool{}
	var walk func(b *ssa.BasicBlock, i int) bool
	walk = func(b *ssa.BasicBlock, i int) bool {
		for ; i < len(b.Instrs); i++ {
			in := b.Instrs[i]
			if in == instr {
				return true
			}
			if op, ok := isOp(in); ok && (op == lockset.OpUnlock || op == lockset.OpRUnlock) {
				if _, deferred := in.(*ssa.Defer); !deferred {
					return false
				}
			}
		}
		for _, s := range b.Succs {
			if !seen[s] {
				seen[s] = true
				if walk(s, 0) {
					return true
				}
			}
		}
		return false
	}
	return walk(b, i)
}

// branchOnParam reports whether a branch that decides whether b runs (an
// If ending one of b's dominators) tests a parameter of the function.
func branchOnParam(b *ssa.BasicBlock) bool {
	for d := b.Idom(); d != nil; d = d.Idom() {
		if len(d.Instrs) == 0 {
			continue
		}
		if iff, ok := d.Instrs[len(d.Instrs)-1].(*ssa.If); ok && usesParam(iff.Cond, 0) {
			return true
		}
	}
	return false
}

// usesParam reports whether v is computed from a parameter's value (or
// a captured variable's) within a few operations; a value loaded from
// memory (r.inCallback) is not the parameter's.
func usesParam(v ssa.Value, depth int) bool {
	switch v := v.(type) {
	case *ssa.Parameter, *ssa.FreeVar:
		return true
	case *ssa.UnOp:
		if v.Op == token.MUL {
			return false
		}
		return depth <= 3 && usesParam(v.X, depth+1)
	case *ssa.Field, *ssa.FieldAddr, *ssa.Call:
		return false
	case ssa.Instruction:
		if depth > 3 {
			return false
		}
		for _, op := range v.Operands(nil) {
			if *op != nil && usesParam(*op, depth+1) {
				return true
			}
		}
	}
	return false
}

// subUnwritten reports whether o reads a part of its field (c.op.name)
// that no access outside construction writes, whole or in part: the part
// is written only while the value is built, whatever the lock of the
// field's other parts (c.op.limit). Inferred guards only: a documented
// guard holds for the whole field (IL1006 reports it).
func subUnwritten(o *obs, info *fieldInfo) bool {
	if o.write || o.sub == "" {
		return false
	}
	for _, w := range info.obs {
		for _, sub := range w.subsWritten {
			if overlaps(sub, o.sub) {
				return false
			}
		}
	}
	return true
}

// overlaps reports whether two parts of a field share memory: one is the
// other or contains it.
func overlaps(a, b string) bool {
	return strings.HasPrefix(a+".", b+".") || strings.HasPrefix(b+".", a+".")
}

// commonSub is the part of a field two accesses at one selector share.
func commonSub(a, b string) string {
	for !overlaps(a, b) || len(a) != len(b) {
		if len(a) >= len(b) {
			a = a[:strings.LastIndexByte(a, '.')]
		} else {
			b = b[:strings.LastIndexByte(b, '.')]
		}
	}
	return a
}

// fieldFinding is one finding of reportFields before it is reported.
type fieldFinding struct {
	d     analysis.Diagnostic
	more  int // accesses listed as related
	fn    *ssa.Function
	lock  string // the lock as the access names it (p.mu)
	mu    *types.Var
	field string // the field as the access names it (p.channels)
	verb  string // read, written
}

// mergeByFunction makes the findings of one rule in one function about
// fields that one lock guards a single finding (one missing Lock in
// String that reads p.channels, p.patterns and p.schannels is one
// defect): the first by position, the others' accesses its related
// positions. Findings are returned in position order.
func mergeByFunction(found []*fieldFinding) []*fieldFinding {
	sort.SliceStable(found, func(i, j int) bool { return found[i].d.Pos < found[j].d.Pos })
	type key struct {
		fn   *ssa.Function
		mu   *types.Var
		lock string
		rule string
	}
	first := map[key]*fieldFinding{}
	var out []*fieldFinding
	for _, ff := range found {
		k := key{ff.fn, ff.mu, ff.lock, ff.d.Category}
		g := first[k]
		if g == nil || ff.fn == nil {
			first[k] = ff
			out = append(out, ff)
			continue
		}
		g.d.Related = append(g.d.Related, analysis.RelatedInformation{Pos: ff.d.Pos, End: ff.d.End, Message: fmt.Sprintf("also %s %s here without holding %s", ff.field, ff.verb, ff.lock)})
		for _, r := range ff.d.Related {
			// Its locked (or racing) side too: pr's confirmation pairs
			// the finding's method with each related position's.
			if strings.HasPrefix(r.Message, "also ") {
				r.Message = "also " + ff.field + " " + strings.TrimPrefix(r.Message, "also ")
			}
			g.d.Related = append(g.d.Related, r)
		}
		g.more += 1 + ff.more
	}
	return out
}

// entryRead reports whether o, an access without mu to the inferred-guard
// field f, is an IL1008 read: of an unexported field on the receiver of
// an exported method not documented as for use before sharing (nor an
// Init/Start-like one), not after the join of every goroutine, while every
// counted write of f holds mu.
func (pc *passContext) entryRead(o *obs, f *types.Var, info *fieldInfo, mu *types.Var, counted []*obs) bool {
	if o.write || f.Exported() || !o.onRecv || !exportedMethod(o.fn) || initMethod(o.fn.Name()) || o.unsafeName || o.callerLocks || o.beforeGo {
		return false
	}
	if pc.docs == nil {
		pc.docs = pc.methodDocs()
	}
	if notConcurrentRe.MatchString(pc.docs[o.fn.Object()]) || pc.conc.joinedField(o, info) {
		return false
	}
	if pc.typeDocs == nil {
		pc.typeDocs = map[*types.TypeName]*ast.CommentGroup{}
		for ts, doc := range claim.StructDocs(pc.pass.Files) {
			if tn, ok := pc.pass.TypesInfo.Defs[ts.Name].(*types.TypeName); ok {
				pc.typeDocs[tn] = doc
			}
		}
	}
	// The type's doc disclaims concurrent use, or orders calls before this
	// method (registrations before Open).
	if recv := o.fn.Signature.Recv(); recv != nil {
		t := recv.Type()
		if p, ok := t.(*types.Pointer); ok {
			t = p.Elem()
		}
		if n, ok := t.(*types.Named); ok {
			doc := pc.typeDocs[n.Obj()]
			if doc != nil && (claim.Disclaims(doc) || claim.OrdersBefore(doc, n.Obj(), o.fn.Name())) {
				return false
			}
		}
	}
	writes := 0
	for _, w := range counted {
		if w.write {
			if !w.holds(mu) {
				return false
			}
			if sharedAt(w, f) {
				writes++
			}
		}
	}
	return writes > 0
}

// dominant returns the sibling mutex held at the most accesses and that
// count.
func dominant(os []*obs) (*types.Var, int) {
	counts := map[*types.Var]int{}
	var best *types.Var
	for _, o := range os {
		for _, mu := range o.held {
			counts[mu]++
			if best == nil || counts[mu] > counts[best] {
				best = mu
			}
		}
	}
	return best, counts[best]
}

// doubleChecked reports IL1003 in r: a plain field read with no lock held
// and tested, dominating a locked read and a locked write of the same
// field through the same base.
func (pc *passContext) doubleChecked(r *lockset.Result) {
	accs := r.Accesses()
	atomicLoc := map[lockset.Path]bool{}
	for _, a := range accs {
		if a.Kind == lockset.Atomic {
			atomicLoc[a.Loc()] = true
		}
	}
	for _, rd := range accs {
		if rd.Field == nil || rd.Struct == nil || rd.Kind != lockset.Read || lockset.IsSyncType(rd.Field.Type()) || atomicLoc[rd.Loc()] {
			continue
		}
		mus := mutexFields(rd.Struct)
		st, ok := r.Before(rd.Instr)
		if len(mus) == 0 || !ok || st.Len() > 0 || !rd.Base.Canonical() || r.IsFresh(rd.Base.Root) || !feedsIf(rd.Instr, 0) {
			continue
		}
		var recheck, write *lockset.Access
		var guardMu *types.Var
		for i := range accs {
			a := &accs[i]
			if a.Loc() != rd.Loc() || a.Instr.Parent() != rd.Instr.Parent() || a.Pos <= rd.Pos || !rd.Instr.Block().Dominates(a.Instr.Block()) {
				continue
			}
			ast, _ := r.Before(a.Instr)
			held, _ := mutexesHeld(ast, *a, mus)
			if len(held) == 0 {
				continue
			}
			switch {
			case a.Kind == lockset.Read && recheck == nil:
				recheck = a
			case a.Kind == lockset.Write && recheck != nil && write == nil:
				write, guardMu = a, held[0]
			}
		}
		if write == nil {
			continue
		}
		base := pc.baseText(rd.Pos, rd.Base)
		// The other unlocked reads of the field in this function belong
		// to the same pattern (return l.cfg after the check).
		for _, a := range accs {
			if a.Loc() == rd.Loc() && a.Kind == lockset.Read {
				if ast, ok := r.Before(a.Instr); ok && ast.Len() == 0 {
					pc.dcl[a.Pos] = true
				}
			}
		}
		pc.pass.Report(analysis.Diagnostic{
			Pos: rd.Pos, End: rd.Pos + token.Pos(len(rd.Field.Name())), Category: RuleDoubleCheckedLocking,
			Message: fmt.Sprintf("double-checked locking: field %s.%s read without holding %s.%s, then checked again and written under it", base, rd.Field.Name(), base, guardMu.Name()),
			Related: []analysis.RelatedInformation{{Pos: write.Pos, Message: fmt.Sprintf("%s.%s written here with %s.%s held", base, rd.Field.Name(), base, guardMu.Name())}},
		})
	}
}

// feedsIf reports whether v's value decides an if statement, directly or
// through a comparison or negation.
func feedsIf(instr ssa.Instruction, depth int) bool {
	v, ok := instr.(ssa.Value)
	if !ok || depth > 2 || v.Referrers() == nil {
		return false
	}
	for _, u := range *v.Referrers() {
		switch u := u.(type) {
		case *ssa.If:
			return true
		case *ssa.BinOp, *ssa.UnOp:
			if feedsIf(u, depth+1) {
				return true
			}
		}
	}
	return false
}

// lockedCalls reports IL1002: calls to methods that require the
// receiver's lock, made without it.
func (pc *passContext) lockedCalls(r *lockset.Result) {
	if pc.skipFunc(r) {
		return
	}
	// Unknown callers may hold the lock: no IL1002 then. IL1005 needs
	// only the locks r itself holds, which an unknown entry can only add to.
	entryKnown := r.Context != lockset.Escaping && r.EntryKnown
	// In a helper, the lock is the callers' business unless the helper
	// takes it itself: report only in entry points (exported functions,
	// goroutine bodies) and in functions that lock the same mutex.
	entryPoint := r.Context == lockset.Goroutine || token.IsExported(r.Fn.Name()) || r.Fn.Name() == "main"
	for _, fn := range r.Functions() {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				call, ok := instr.(*ssa.Call)
				if !ok {
					continue
				}
				callee := call.Call.StaticCallee()
				if callee == nil || len(call.Call.Args) == 0 {
					continue
				}
				obj, ok := callee.Object().(*types.Func)
				if !ok {
					continue
				}
				st, ok := r.Before(call)
				if !ok {
					continue
				}
				if fb, ok := pc.forbid[obj.Origin()]; ok {
					pc.forbiddenCall(r, call, obj, fb, st)
				}
				req, ok := pc.reqs[obj.Origin()]
				if !ok || req.mutex == nil || req.weak || !entryKnown {
					continue
				}
				p := r.Path(call.Call.Args[0])
				need := p.Child(req.mutex.Name())
				if _, held := st.Holds(need); held {
					continue
				}
				if enclosingLockHeld(st, p) {
					continue // c.mu held for c.config.helper(): the owner serializes it
				}
				if !entryPoint && !locks(r, need) {
					continue
				}
				if r.IsFresh(p.Root) || (!p.Canonical() && st.Len() > 0) {
					continue
				}
				recv := pc.syntax.Receiver(call.Pos())
				if recv == "" {
					recv = p.String()
				}
				lock := recv + "." + req.mutex.Name()
				pos, end := call.Pos(), token.NoPos
				if ce := pc.syntax.Call(call.Pos()); ce != nil {
					pos, end = ce.Pos(), ce.End()
				}
				key := helperKey{topLevel(r.Fn), lock}
				if g := pc.helperCalls[key]; g != nil {
					// One finding per function and lock: the other calls
					// are its related positions.
					if !g.seen[pos] {
						g.seen[pos] = true
						g.d.Related = append(g.d.Related, analysis.RelatedInformation{Pos: pos, End: end, Message: fmt.Sprintf("also calls %s.%s here without holding %s", recv, obj.Name(), lock)})
						g.more++
					}
					continue
				}
				if pc.helperCalls == nil {
					pc.helperCalls = map[helperKey]*helperGroup{}
				}
				g := &helperGroup{seen: map[token.Pos]bool{pos: true}, d: analysis.Diagnostic{
					Pos: pos, End: end, Category: RuleLockedHelperWithoutLock,
					Message: fmt.Sprintf("call to %s.%s without holding %s", recv, obj.Name(), lock),
					Related: []analysis.RelatedInformation{{Pos: obj.Pos(), Message: fmt.Sprintf("%s expects %s held: %s", obj.Name(), req.mutex.Name(), req.why)}},
				}}
				pc.helperCalls[key] = g
				pc.helperOrder = append(pc.helperOrder, g)
			}
		}
	}
}

// helperKey identifies an IL1002 finding: the declared function making
// the calls and the lock they lack.
type helperKey struct {
	fn   *ssa.Function
	lock string
}

// helperGroup is one IL1002 finding and the other calls it lists.
type helperGroup struct {
	d    analysis.Diagnostic
	seen map[token.Pos]bool
	more int
}

// reportLockedCalls reports the IL1002 findings lockedCalls grouped.
func (pc *passContext) reportLockedCalls() {
	for _, g := range pc.helperOrder {
		if g.more == 1 {
			g.d.Message += " (and 1 more call, listed as related)"
		} else if g.more > 1 {
			g.d.Message += fmt.Sprintf(" (and %d more calls, listed as related)", g.more)
		}
		pc.pass.Report(g.d)
	}
}

// forbiddenCall reports IL1005: a call, made holding the receiver's
// mutex, to a method documented as called without it.
func (pc *passContext) forbiddenCall(r *lockset.Result, call *ssa.Call, obj *types.Func, fb forbidden, st lockset.State) {
	p := r.Path(call.Call.Args[0])
	if !p.Canonical() || r.IsFresh(p.Root) {
		return
	}
	if _, held := st.Holds(p.Child(fb.mutex.Name())); !held {
		return
	}
	if releasedThroughHelper(call) {
		return
	}
	recv := pc.syntax.Receiver(call.Pos())
	if recv == "" {
		recv = p.String()
	}
	lock := recv + "." + fb.mutex.Name()
	pos, end := call.Pos(), token.NoPos
	if ce := pc.syntax.Call(call.Pos()); ce != nil {
		pos, end = ce.Pos(), ce.End()
	}
	pc.pass.Report(analysis.Diagnostic{
		Pos: pos, End: end, Category: RuleForbiddenLockHeld,
		Message: fmt.Sprintf("call to %s.%s while holding %s, which its documentation says must not be held", recv, obj.Name(), lock),
		Related: []analysis.RelatedInformation{{Pos: fb.doc, Message: fmt.Sprintf("%s documented as called without %s", obj.Name(), fb.mutex.Name())}},
	})
}

// releaseName matches methods that release a lock: Unlock, UnlockEarly,
// Release, unlockAll.
var releaseName = regexp.MustCompile(`(?i)^(unlock|release)`)

// releasedThroughHelper reports whether the lock state at call is unknown
// because its function may release the lock through a helper the lockset
// does not follow: it was handed a func (a *LockedOnEntry method given
// the unlock), or, before call, it calls an Unlock*/Release* method of
// something other than a sync mutex (an unlocker object) or a func value
// a call returned.
func releasedThroughHelper(call *ssa.Call) bool {
	fn := call.Parent()
	for _, prm := range fn.Params {
		if _, ok := prm.Type().Underlying().(*types.Signature); ok && prm.Referrers() != nil {
			for _, u := range *prm.Referrers() {
				if c, ok := u.(ssa.CallInstruction); ok && c.Common().Value == prm {
					return true
				}
			}
		}
	}
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			c, ok := instr.(*ssa.Call)
			if !ok || c == call || c.Pos() >= call.Pos() {
				continue
			}
			cc := c.Common()
			if callee := cc.StaticCallee(); callee != nil {
				if sig := callee.Signature; sig.Recv() != nil && releaseName.MatchString(callee.Name()) && !isSyncType(sig.Recv().Type()) {
					return true
				}
				continue
			}
			if cc.IsInvoke() {
				if releaseName.MatchString(cc.Method.Name()) && !isSyncType(cc.Value.Type()) {
					return true
				}
				continue
			}
			switch cc.Value.(type) {
			case *ssa.Call, *ssa.Extract, *ssa.Parameter:
				return true // a func value a call returned, or one handed in
			}
		}
	}
	return false
}

// isSyncType reports whether t is a type of package sync (or a pointer to
// one): its Unlock is what the lockset follows already.
func isSyncType(t types.Type) bool {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := t.(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "sync"
}

// afterSync reports whether instr is preceded, on every path through its
// function, by an operation that orders it after another goroutine's
// writes: a channel receive, a blocking select, WaitGroup.Wait.
func afterSync(instr ssa.Instruction) bool {
	b := instr.Block()
	for _, blk := range b.Parent().Blocks {
		if !blk.Dominates(b) {
			continue
		}
		for _, i := range blk.Instrs {
			if blk == b && i == instr {
				break
			}
			if forkjoin.WaitPoint(i) {
				return true
			}
		}
	}
	return false
}

// inSection reports whether the access instr may sit inside a critical
// section of p that r opens itself: some path goes from a Lock of p to
// the access without an Unlock of p. The must-analysis may have lost
// the lock there (a closure that unlocks on error paths); an access
// after the Unlock, or before any Lock, is outside every section. A lock
// or unlock in another function literal than the access keeps the
// function silent, as before.
func inSection(r *lockset.Result, instr ssa.Instruction, p lockset.Path) bool {
	isOp := func(in ssa.Instruction) (lockset.Op, bool) {
		c, ok := in.(ssa.CallInstruction)
		if !ok {
			return lockset.OpNone, false
		}
		op, lk := lockset.Classify(c.Common())
		return op, op != lockset.OpNone && r.Path(lk) == p
	}
	var starts []ssa.Instruction
	for _, fn := range r.Functions() {
		for _, b := range fn.Blocks {
			for _, in := range b.Instrs {
				op, ok := isOp(in)
				if !ok {
					continue
				}
				if in.Parent() != instr.Parent() {
					return true
				}
				if op != lockset.OpUnlock && op != lockset.OpRUnlock {
					starts = append(starts, in)
				}
			}
		}
	}
	// walk reports whether instr is reached from index i of b before an
	// (undeferred) unlock of p.
	seen := map[*ssa.BasicBlock]bool{}
	var walk func(b *ssa.BasicBlock, i int) bool
	walk = func(b *ssa.BasicBlock, i int) bool {
		for ; i < len(b.Instrs); i++ {
			in := b.Instrs[i]
			if in == instr {
				return true
			}
			if op, ok := isOp(in); ok && (op == lockset.OpUnlock || op == lockset.OpRUnlock) {
				if _, deferred := in.(*ssa.Defer); !deferred {
					return false
				}
			}
		}
		for _, s := range b.Succs {
			if !seen[s] {
				seen[s] = true
				if walk(s, 0) {
					return true
				}
			}
		}
		return false
	}
	for _, l := range starts {
		clear(seen)
		if walk(l.Block(), indexOf(l.Block(), l)+1) {
			return true
		}
	}
	return false
}

// locks reports whether r locks or unlocks the mutex p itself.
func locks(r *lockset.Result, p lockset.Path) bool {
	for _, fn := range r.Functions() {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				c, ok := instr.(ssa.CallInstruction)
				if !ok {
					continue
				}
				if op, lk := lockset.Classify(c.Common()); op != lockset.OpNone && r.Path(lk) == p {
					return true
				}
			}
		}
	}
	return false
}

// concurrentStructs returns the struct types whose values this package
// makes reachable from more than one goroutine (RacerD's concurrency
// context): passed to or captured by a go statement, used in a goroutine
// body or a callback, a method value handed elsewhere, a type that
// documents itself as safe for concurrent use, or an exported type.
func (pc *passContext) concurrentStructs() map[*types.Struct]bool {
	out := map[*types.Struct]bool{}
	add := func(t types.Type) {
		if s, ok := lockset.StructOf(t); ok {
			out[s] = true
		}
	}
	for tn := range lockset.ThreadSafeTypes(pc.pass.Files, pc.pass.TypesInfo) {
		add(tn.Type())
	}
	// Exported types: other packages may share their values.
	scope := pc.pass.Pkg.Scope()
	for _, name := range scope.Names() {
		if tn, ok := scope.Lookup(name).(*types.TypeName); ok && tn.Exported() {
			add(tn.Type())
		}
	}
	for _, r := range pc.results {
		if r.Context != lockset.TopLevel {
			for _, acc := range r.Accesses() {
				if acc.Struct != nil {
					out[acc.Struct] = true
				}
			}
		}
		for _, fn := range r.Functions() {
			for _, b := range fn.Blocks {
				for _, instr := range b.Instrs {
					switch i := instr.(type) {
					case *ssa.Go:
						if callee := i.Call.StaticCallee(); callee != nil && callee.Signature.Recv() != nil {
							add(callee.Signature.Recv().Type())
						}
						for _, a := range i.Call.Args {
							add(a.Type())
						}
						if mc, ok := i.Call.Value.(*ssa.MakeClosure); ok {
							for _, v := range mc.Bindings {
								add(v.Type())
								if p, ok := v.Type().Underlying().(*types.Pointer); ok {
									add(p.Elem())
								}
							}
						}
					case *ssa.MakeClosure:
						if f, ok := i.Fn.(*ssa.Function); ok && f.Synthetic != "" && len(i.Bindings) == 1 {
							add(i.Bindings[0].Type()) // a method value: a callback
						}
					}
				}
			}
		}
	}
	return out
}

// forkHeld returns, for a goroutine literal, the mutex fields its starter
// holds at the go statement and still holds, in the same critical
// section, at a wait every path from it passes (forkjoin.HeldAtWait):
// the goroutine runs under them. Mutexes are matched by field (as goRoot.held is):
// sibling workers still run beside each other, which no guard rule checks.
func (pc *passContext) forkHeld(r *lockset.Result) []*types.Var {
	if r.Context != lockset.Goroutine || r.Fn.Parent() == nil {
		return nil
	}
	if v, ok := pc.forks[r.Fn]; ok {
		return v
	}
	var out []*types.Var
	var fv ssa.Value = r.Fn
	if refs := r.Fn.Referrers(); refs != nil && len(*refs) == 1 {
		if mc, ok := (*refs)[0].(*ssa.MakeClosure); ok {
			fv = mc
		}
	}
	if refs := fv.Referrers(); refs != nil && len(*refs) == 1 {
		if g, ok := (*refs)[0].(*ssa.Go); ok && g.Call.Value == fv {
			for _, pr := range pc.results {
				for _, f := range pr.Functions() {
					if f == g.Parent() {
						out = forkjoin.HeldAtWait(pr, g)
					}
				}
			}
		}
	}
	if pc.forks == nil {
		pc.forks = map[*ssa.Function][]*types.Var{}
	}
	pc.forks[r.Fn] = out
	return out
}

// sameField returns the first access of os holding mu that selects the
// same field as o (for two fields of one embedded struct, c.sent is cited
// for c.sent, not c.dropped), or first when there is none.
func sameField(os []*obs, o *obs, mu *types.Var, first *obs) *obs {
	if o.sel == "" || first == nil || first.sel == o.sel {
		return first
	}
	for _, x := range os {
		if x.holds(mu) && x.sel == o.sel {
			return x
		}
	}
	return first
}
