package rlockwrite

import (
	_ "embed"
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"regexp"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/buildssa"
	"golang.org/x/tools/go/ssa"

	"github.com/interleave-dev/interleave/checks/static/internal/lockset"
	"github.com/interleave-dev/interleave/checks/static/internal/locktype"
	"github.com/interleave-dev/interleave/checks/static/internal/passdoc"
	"github.com/interleave-dev/interleave/checks/static/internal/passutil"
)

//go:embed doc.go
var doc string

// Analyzer reports IL2001.
var Analyzer = &analysis.Analyzer{
	Name:     "rlockwrite",
	Doc:      passdoc.MustExtract(doc, "rlockwrite"),
	Requires: []*analysis.Analyzer{locktype.Analyzer, buildssa.Analyzer},
	Run:      run,
}

func run(pass *analysis.Pass) (any, error) {
	if !lockset.UsesLocks(pass.Pkg) {
		return nil, nil
	}
	syntax := lockset.NewSyntax(pass.Files)
	ssainfo := pass.ResultOf[buildssa.Analyzer].(*buildssa.SSA)
	type candidate struct {
		acc  lockset.Access
		held lockset.Held
		key  guardKey
	}
	var cands []candidate
	// guarded holds the (location, lock) pairs seen with the write lock
	// held: evidence that the RWMutex guards the location, and not only,
	// say, closing (database/sql.Rows.closemu).
	guarded := map[guardKey]bool{}
	for f, g := range lockset.FieldGuards(pass.Files, pass.TypesInfo) {
		guarded[guardKey{f, "." + g.Mutex.Name()}] = true // annotated: no evidence needed
	}
	readLockDoc := readLockDocumented(pass)
	results := lockset.New().Package(ssainfo.SrcFuncs, nil)
	writeLocked := writeLockedMutexes(results)
	one := newSingle(ssainfo.SrcFuncs)
	uses := newGuardUse()
	for _, r := range results {
		for _, acc := range r.Accesses() {
			st, ok := r.Before(acc.Instr)
			if ok {
				uses.add(pass, acc, st)
			}
			if !ok || st.Len() == 0 || acc.Kind == lockset.Ref || acc.Kind == lockset.Atomic {
				continue
			}
			for _, h := range st.Locks() {
				if h.Mode == lockset.Exclusive && (acc.Field != nil && related(acc, h) || acc.Field == nil && packageLock(pass, h)) {
					guarded[keyOf(acc, h)] = true
				}
			}
			if !acc.Kind.IsWrite() {
				continue
			}
			if h, ok := readOnly(pass, r, st, acc); ok && !guardedOff(results, r, acc, h) && !flagGuarded(r, acc.Instr, h) && !sameCondLocked(r, acc.Instr, h) && !singleWriter(results, r, acc, h, one) {
				cands = append(cands, candidate{acc, h, keyOf(acc, h)})
				if onlyReadLocked(h, st, writeLocked) {
					// An RWMutex this package never write-locks (and no
					// other package can) guards nothing but reads: a write
					// under it is the bug itself.
					guarded[keyOf(acc, h)] = true
				}
			}
		}
	}
	// One finding per (location, lock): the first write, with the other
	// writes under the read lock as related positions.
	reported := map[token.Pos]bool{}
	var diags []*analysis.Diagnostic
	var more []int
	first := map[guardKey]int{}
	for _, c := range cands {
		acc, h := c.acc, c.held
		pos := writePos(pass, acc)
		if !guarded[c.key] || reported[pos] || acc.Field != nil && readLockDoc[acc.Field.Origin()] || uses.testSetup(pass, acc, c.key) {
			continue
		}
		reported[pos] = true
		lock := syntax.LockName(h)
		if i, ok := first[c.key]; ok {
			d := diags[i]
			d.Related = append(d.Related, analysis.RelatedInformation{Pos: pos, Message: fmt.Sprintf("also written here holding only the read lock %s", lock)})
			more[i]++
			continue
		}
		d := &analysis.Diagnostic{
			Pos:      pos,
			Category: RuleWriteUnderRLock,
			Message:  fmt.Sprintf("%s while holding only the read lock %s", describe(syntax, acc), lock),
		}
		if h.Pos.IsValid() {
			d.Related = []analysis.RelatedInformation{{Pos: h.Pos, Message: fmt.Sprintf("%s read-locked here", lock)}}
			if c := syntax.Call(h.Pos); c != nil {
				d.Related[0].Pos = c.Pos()
			}
		}
		first[c.key] = len(diags)
		diags = append(diags, d)
		more = append(more, 0)
	}
	for i, d := range diags {
		if n := more[i]; n == 1 {
			d.Message += " (and 1 more write, listed as related)"
		} else if n > 1 {
			d.Message += fmt.Sprintf(" (and %d more writes, listed as related)", n)
		}
		pass.Report(*d)
	}
	return nil, nil
}

// guardKey names a location (a field, or a package-level variable) and
// the lock (a sibling mutex field, or a package-level mutex) held at an
// access to it.
type guardKey struct {
	loc  types.Object
	lock string
}

func keyOf(acc lockset.Access, h lockset.Held) guardKey {
	if acc.Field != nil {
		return guardKey{acc.Field.Origin(), strings.TrimPrefix(h.Lock.Fields, acc.Base.Fields)}
	}
	return guardKey{acc.Global.Object(), h.Lock.String()}
}

// writePos returns where to report acc: the field selector, or the write
// itself when it happens on another line (m := c.m; m[k] = v).
func writePos(pass *analysis.Pass, acc lockset.Access) token.Pos {
	wp := acc.Instr.Pos()
	if wp.IsValid() && pass.Fset.Position(wp).Line != pass.Fset.Position(acc.Pos).Line {
		return wp
	}
	return acc.Pos
}

// readOnly returns the read lock that is the only protection of the write
// acc, if any: a sibling RWMutex held shared, with no mutex of the struct
// (or, for a variable, no lock at all) held exclusively, and no own lock
// of the object written through.
func readOnly(pass *analysis.Pass, r *lockset.Result, st lockset.State, acc lockset.Access) (lockset.Held, bool) {
	if r.IsFresh(acc.Base.Root) || passutil.Copied(acc.Base.Root) {
		return lockset.Held{}, false
	}
	if acc.Kind != lockset.Write && !acc.Target.IsZero() && (st.HoldsUnder(acc.Target, lockset.Exclusive) || st.HoldsUnder(owner(acc.Target), lockset.Exclusive)) {
		// The object written through, or the one whose field it is
		// (other.pending[k] = v under other.Lock()), has its own lock.
		return lockset.Held{}, false
	}
	var shared *lockset.Held
	for _, h := range st.Locks() {
		if acc.Field != nil && !related(acc, h) {
			continue
		}
		if acc.Field == nil && !packageLock(pass, h) {
			continue
		}
		if h.Mode == lockset.Exclusive {
			return lockset.Held{}, false
		}
		if shared == nil {
			h := h
			shared = &h
		}
	}
	if shared == nil {
		return lockset.Held{}, false
	}
	return *shared, true
}

// owner returns the object a field path belongs to (s.inner for
// s.inner.m), or the zero Path for a path with no field.
func owner(p lockset.Path) lockset.Path {
	i := strings.LastIndexByte(p.Fields, '.')
	if i < 0 {
		return lockset.Path{}
	}
	return lockset.Path{Root: p.Root, Fields: p.Fields[:i]}
}

// flagGuarded reports whether instr runs only where a bool local tested
// true that is set true only on paths holding h's mutex exclusively
// (updateCache = true after upgrading to Lock; the read-locked branch
// leaves it false): the write happens under the write lock, though the
// lock state merged at the join is only the read lock.
func flagGuarded(r *lockset.Result, instr ssa.Instruction, h lockset.Held) bool {
	b := instr.Block()
	for d := b.Idom(); d != nil; d = d.Idom() {
		if len(d.Instrs) == 0 || len(d.Succs) != 2 || d.Succs[0] == d.Succs[1] || !d.Succs[0].Dominates(b) {
			continue
		}
		if ifi, ok := d.Instrs[len(d.Instrs)-1].(*ssa.If); ok && trueOnlyLocked(r, ifi.Cond, h, map[ssa.Value]bool{}) {
			return true
		}
	}
	return false
}

// sameCondLocked reports whether instr runs only where a condition v
// tested true that an earlier test of the same value v answered by
// taking h's mutex exclusively (if mark { mu.Lock() } else { mu.RLock() };
// ... if mark { write }): every way out of that test's true branch holds
// the mutex exclusively, and the function never unlocks it but by
// defer, so the write holds the write lock though the lock state merged
// at the join is only the read lock.
func sameCondLocked(r *lockset.Result, instr ssa.Instruction, h lockset.Held) bool {
	fn := instr.Parent()
	for _, b := range fn.Blocks {
		for _, in := range b.Instrs {
			c, ok := in.(ssa.CallInstruction)
			if !ok {
				continue
			}
			if op, lk := lockset.Classify(c.Common()); (op == lockset.OpUnlock || op == lockset.OpRUnlock) && r.Path(lk) == h.Lock {
				if _, deferred := in.(*ssa.Defer); !deferred {
					return false
				}
			}
		}
	}
	b := instr.Block()
	for d := b.Idom(); d != nil; d = d.Idom() {
		ifi, ok := lastIf(d)
		if !ok || !d.Succs[0].Dominates(b) {
			continue
		}
		for _, u := range *ifi.Cond.Referrers() {
			first, ok := u.(*ssa.If)
			if ok && first != ifi && first.Block().Dominates(d) && exitsExclusive(r, first.Block().Succs[0], h) {
				return true
			}
		}
	}
	return false
}

// lastIf returns the If ending d, when its two successors differ.
func lastIf(d *ssa.BasicBlock) (*ssa.If, bool) {
	if len(d.Instrs) == 0 || len(d.Succs) != 2 || d.Succs[0] == d.Succs[1] {
		return nil, false
	}
	ifi, ok := d.Instrs[len(d.Instrs)-1].(*ssa.If)
	return ifi, ok
}

// exitsExclusive reports whether every edge leaving the region that s
// dominates leaves it holding h's mutex exclusively.
func exitsExclusive(r *lockset.Result, s *ssa.BasicBlock, h lockset.Held) bool {
	exits := 0
	for _, x := range s.Parent().Blocks {
		if !s.Dominates(x) {
			continue
		}
		for _, succ := range x.Succs {
			if s.Dominates(succ) {
				continue
			}
			st, ok := r.Before(x.Instrs[len(x.Instrs)-1])
			if !ok || !holdsExclusive(st, h) {
				return false
			}
			exits++
		}
	}
	return exits > 0
}

func holdsExclusive(st lockset.State, h lockset.Held) bool {
	for _, o := range st.Locks() {
		if o.Lock == h.Lock && o.Mode == lockset.Exclusive {
			return true
		}
	}
	return false
}

// trueOnlyLocked reports whether the bool v is false unless h's mutex is
// held exclusively where it became true: a phi whose every edge is the
// constant false, comes from a block that ends holding the mutex
// exclusively, or is such a phi itself.
func trueOnlyLocked(r *lockset.Result, v ssa.Value, h lockset.Held, seen map[ssa.Value]bool) bool {
	phi, ok := v.(*ssa.Phi)
	if !ok || seen[v] {
		return false
	}
	seen[v] = true
	for i, e := range phi.Edges {
		if c, ok := e.(*ssa.Const); ok && c.Value != nil && c.Value.Kind() == constant.Bool && !constant.BoolVal(c.Value) {
			continue
		}
		if _, ok := e.(*ssa.Phi); ok && trueOnlyLocked(r, e, h, seen) {
			continue
		}
		pred := phi.Block().Preds[i]
		if len(pred.Instrs) == 0 {
			return false
		}
		st, ok := r.Before(pred.Instrs[len(pred.Instrs)-1])
		if !ok {
			return false
		}
		held := false
		for _, o := range st.Locks() {
			if o.Lock == h.Lock && o.Mode == lockset.Exclusive {
				held = true
			}
		}
		if !held {
			return false
		}
	}
	return true
}

// related reports whether h is a mutex field of the struct acc accesses,
// reached from the same base (acc.Base.mu).
func related(acc lockset.Access, h lockset.Held) bool {
	if acc.Struct == nil {
		return false
	}
	for i := 0; i < acc.Struct.NumFields(); i++ {
		f := acc.Struct.Field(i)
		if lockset.IsLock(f.Type()) && h.Lock == acc.Base.Child(f.Name()) {
			return true
		}
	}
	return false
}

// packageLock reports whether h is a package-level mutex of this package.
func packageLock(pass *analysis.Pass, h lockset.Held) bool {
	g, ok := h.Lock.Root.(*ssa.Global)
	return ok && h.Lock.Fields == "" && g.Pkg != nil && g.Pkg.Pkg == pass.Pkg
}

// describe renders the write: "field c.hits written", "map c.m modified".
func describe(syntax *lockset.Syntax, acc lockset.Access) string {
	name := ""
	if acc.Field != nil {
		base := acc.Base.String()
		if sel := syntax.Selector(acc.Pos); sel != nil {
			base = types.ExprString(sel.X)
		}
		name = base + "." + acc.Field.Name()
	} else {
		name = acc.Global.Name()
	}
	switch acc.Kind {
	case lockset.MapWrite:
		return "map " + name + " modified"
	case lockset.ElemWrite:
		return "element of " + name + " written"
	case lockset.PtrWrite:
		return "write through " + name
	}
	if acc.Field == nil {
		return "variable " + name + " written"
	}
	return "field " + name + " written"
}

// writeLockedMutexes returns the mutex fields (origins) that the package
// may write-lock: Lock or TryLock on them, directly or through a lock
// helper's summary, and any use of their address other than a method
// call on it (passed to sync.NewCond, stored as a Locker, a method
// value), since the receiver of that address may lock them.
func writeLockedMutexes(results []*lockset.Result) map[*types.Var]bool {
	out := map[*types.Var]bool{}
	for _, r := range results {
		for _, fn := range r.Functions() {
			for _, b := range fn.Blocks {
				for _, instr := range b.Instrs {
					markWriteLocked(out, r, instr)
				}
			}
		}
	}
	// A lock helper (func (s *S) lock() { s.mu.Lock() }) is a Lock of its
	// own: its body is scanned above.
	return out
}

// markWriteLocked adds to out the mutex field instr may write-lock: a
// Lock or TryLock on it, or an escape of an RWMutex field's address.
func markWriteLocked(out map[*types.Var]bool, r *lockset.Result, instr ssa.Instruction) {
	if c, ok := instr.(ssa.CallInstruction); ok {
		switch op, lk := lockset.Classify(c.Common()); op {
		case lockset.OpLock, lockset.OpTryLock:
			if v := r.Path(lk).FieldVar(); v != nil {
				out[v.Origin()] = true
			}
		}
	}
	fa, ok := instr.(*ssa.FieldAddr)
	if !ok {
		return
	}
	v := lockset.FieldOf(fa)
	if v == nil || !lockset.IsRWMutex(v.Type()) {
		return
	}
	for _, u := range *fa.Referrers() {
		c, ok := u.(ssa.CallInstruction)
		if ok && c.Common().Value != fa && len(c.Common().Args) > 0 && c.Common().Args[0] == fa && c.Common().StaticCallee() != nil && isRWMutexMethod(c.Common().StaticCallee()) {
			continue
		}
		if _, ok := u.(*ssa.DebugRef); ok {
			continue
		}
		out[v.Origin()] = true // the address escapes
	}
}

func isRWMutexMethod(fn *ssa.Function) bool {
	recv := fn.Signature.Recv()
	return recv != nil && lockset.IsRWMutex(recv.Type())
}

// onlyReadLocked reports whether h is an unexported RWMutex field that
// the package never write-locks, and no other lock is held exclusively
// at the write (it might serialize the writers).
func onlyReadLocked(h lockset.Held, st lockset.State, writeLocked map[*types.Var]bool) bool {
	v := h.Lock.FieldVar()
	if v == nil || v.Exported() || !lockset.IsRWMutex(v.Type()) || writeLocked[v.Origin()] {
		return false
	}
	for _, o := range st.Locks() {
		if o.Mode == lockset.Exclusive {
			return false
		}
	}
	return true
}

// guardedOff reports whether the write acc runs only when a bool
// parameter of its function has a value that no read-locked caller
// passes: find(key, prev) writes the shared prev array under if prev,
// readers call it with false and writers with the write lock held. The
// read lock h must come from the callers.
func guardedOff(results []*lockset.Result, r *lockset.Result, acc lockset.Access, h lockset.Held) bool {
	fn := r.Fn
	if acc.Instr.Block() == nil || acc.Instr.Parent() != fn {
		return false
	}
	if _, ok := r.Entry.Holds(h.Lock); !ok {
		return false // read-locked here, whatever the parameter
	}
	i, when := lockset.BoolGuard(fn, acc.Instr.Block())
	j := -1
	for k, p := range fn.Params {
		if p == h.Lock.Root {
			j = k
		}
	}
	if i < 0 || j < 0 {
		return false
	}
	calls := 0
	for _, cr := range results {
		for _, f := range cr.Functions() {
			for _, b := range f.Blocks {
				for _, instr := range b.Instrs {
					call, ok := instr.(ssa.CallInstruction)
					if !ok || call.Common().StaticCallee() != fn {
						continue
					}
					calls++
					args := call.Common().Args
					st, ok := cr.Before(instr)
					if !ok || i >= len(args) || j >= len(args) {
						return false
					}
					lock := cr.Path(args[j])
					lock.Fields += h.Lock.Fields
					if held, ok := st.Holds(lock); ok && held.Mode == lockset.Exclusive {
						continue
					}
					if k, ok := args[i].(*ssa.Const); ok && k.Value != nil && k.Value.Kind() == constant.Bool && constant.BoolVal(k.Value) != when {
						continue
					}
					return false
				}
			}
		}
	}
	return calls > 0
}

// readLockDocRe matches field documentation that allows writes under the
// read lock: "requires at least RLock", "updated using only RLock".
var readLockDocRe = regexp.MustCompile(`(?i)\b(at least|only)\s+(an?\s+|the\s+)?(rlock|read[- ]lock)\b`)

// readLockDocumented returns the struct fields of the package whose
// comment says they may be written holding only the read lock (one
// producer serialized by its caller, the write lock kept for growing).
func readLockDocumented(pass *analysis.Pass) map[*types.Var]bool {
	out := map[*types.Var]bool{}
	for _, f := range pass.Files {
		ast.Inspect(f, func(n ast.Node) bool {
			st, ok := n.(*ast.StructType)
			if !ok {
				return true
			}
			for _, fl := range st.Fields.List {
				text := fl.Doc.Text() + fl.Comment.Text()
				if !readLockDocRe.MatchString(text) {
					continue
				}
				for _, id := range fl.Names {
					if v, ok := pass.TypesInfo.Defs[id].(*types.Var); ok {
						out[v] = true
					}
				}
			}
			return true
		})
	}
	return out
}
