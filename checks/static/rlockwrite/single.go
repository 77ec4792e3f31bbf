package rlockwrite

import (
	"go/ast"
	"go/types"
	"regexp"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/interleave-dev/interleave/checks/claim"
	"github.com/interleave-dev/interleave/checks/static/internal/lockset"
)

// singleWriter reports whether the write acc under the read lock h, in
// r's function, has no access to run beside it: r's function runs on one
// goroutine at a time (one.of), and every access of the same location in
// any other function holds the same lock exclusively (an unexported
// field: no other package accesses it), which the read
// lock excludes (a state machine's one driver goroutine writes under
// RLock; everyone else takes Lock). The reads of the location under the
// read lock in r's own function are on that same goroutine.
func singleWriter(results []*lockset.Result, r *lockset.Result, acc lockset.Access, h lockset.Held, one *single) bool {
	if acc.Field == nil || acc.Field.Exported() || !one.of(r.Fn) {
		return false
	}
	key := keyOf(acc, h)
	root := one.root[r.Fn]
	for _, o := range results {
		sameGoroutine := o == r || root != nil && one.of(o.Fn) && one.root[o.Fn] == root
		for _, a := range o.Accesses() {
			if a.Field == nil || a.Field.Origin() != acc.Field.Origin() || sameGoroutine || o.IsFresh(a.Base.Root) {
				continue
			}
			st, ok := o.Before(a.Instr)
			if !ok {
				continue // unreachable
			}
			held := false
			for _, l := range st.Locks() {
				if l.Mode == lockset.Exclusive && related(a, l) && keyOf(a, l) == key {
					held = true
				}
			}
			if !held {
				return false
			}
		}
	}
	return true
}

// single decides which functions of the package run on at most one
// goroutine at a time.
type single struct {
	refs map[*ssa.Function][]ssa.Instruction // instructions naming a function
	memo map[*ssa.Function]bool
	// root maps a function that runs on one goroutine at a time to the
	// function that goroutine starts in, when there is one such.
	root map[*ssa.Function]*ssa.Function
}

func newSingle(funcs []*ssa.Function) *single {
	s := &single{refs: map[*ssa.Function][]ssa.Instruction{}, memo: map[*ssa.Function]bool{}, root: map[*ssa.Function]*ssa.Function{}}
	for _, fn := range funcs { // SrcFuncs: function literals included
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				var ops [16]*ssa.Value
				for _, op := range instr.Operands(ops[:0]) {
					if op == nil {
						continue
					}
					if f, ok := (*op).(*ssa.Function); ok {
						s.refs[f] = append(s.refs[f], instr)
					}
				}
			}
		}
	}
	return s
}

// of reports whether fn runs on at most one goroutine at a time: an
// unexported declared function named only as the callee of
//   - a go statement, outside any loop, of a declared function, on a
//     receiver (first argument) that function just created (d := &T{…};
//     go d.run()): one goroutine per value;
//   - a call in a function that itself runs on one goroutine at a time.
//
// A function stored, passed, deferred, started in a loop, or exported
// (callers outside the package) is not.
func (s *single) of(fn *ssa.Function) bool {
	if v, ok := s.memo[fn]; ok {
		return v
	}
	s.memo[fn] = true // a cycle of calls adds no goroutine
	v := s.compute(fn)
	s.memo[fn] = v
	return v
}

func (s *single) compute(fn *ssa.Function) bool {
	obj := fn.Object()
	if d, ok := fn.Syntax().(*ast.FuncDecl); ok && fn.Parent() == nil && oneCallerByContract(d.Doc) {
		s.root[fn] = fn // its callers serialize it, by contract
		return true
	}
	if fn.Parent() != nil || obj == nil || obj.Exported() || len(s.refs[fn]) == 0 {
		return false
	}
	if recv := fn.Signature.Recv(); recv != nil && isInterfaceMethodName(fn) {
		return false
	}
	var root *ssa.Function
	many := false
	for _, instr := range s.refs[fn] {
		from := fn
		switch c := instr.(type) {
		case *ssa.Go:
			if c.Call.Value != fn || len(c.Call.Args) == 0 || c.Parent().Parent() != nil || inLoop(c.Block()) || !lockset.Fresh(c.Call.Args[0]) {
				return false
			}
		case *ssa.Call:
			if c.Call.Value != fn || !s.of(c.Parent()) {
				return false
			}
			from = s.root[c.Parent()]
		default:
			return false
		}
		if root != nil && from != root || from == nil {
			many = true
		}
		root = from
	}
	if !many {
		s.root[fn] = root
	}
	return true
}

// serialRe: a doc saying the function must not run beside itself.
var serialRe = regexp.MustCompile(`(?i)\b(?:must|should|can|may)\s*(?:not|n't)\s+be\s+(?:called|used|invoked)\s+(?:concurrently|simultaneously|from\s+(?:multiple|several|more\s+than\s+one)\s+goroutines)\b`)

// oneCallerByContract reports whether a function's doc says it is not
// safe for concurrent use ("It is not thread safe", "must not be called
// concurrently"): its callers run it on one goroutine at a time. The doc
// covers the function against itself only; every other access of the
// field must still hold the write lock (singleWriter).
func oneCallerByContract(doc *ast.CommentGroup) bool {
	if doc == nil {
		return false
	}
	return claim.Disclaims(doc) || serialRe.MatchString(strings.Join(strings.Fields(doc.Text()), " "))
}

// isInterfaceMethodName reports whether fn, a method, has the name of a
// method of an interface type of its package: it may be called
// dynamically, by callers not seen here.
func isInterfaceMethodName(fn *ssa.Function) bool {
	pkg := fn.Object().Pkg()
	if pkg == nil {
		return true
	}
	scope := pkg.Scope()
	for _, name := range scope.Names() {
		it, ok := scope.Lookup(name).Type().Underlying().(*types.Interface)
		if !ok {
			continue
		}
		for i := 0; i < it.NumMethods(); i++ {
			if it.Method(i).Name() == fn.Name() {
				return true
			}
		}
	}
	return false
}

// inLoop reports whether b can run more than once in its function: it
// reaches itself.
func inLoop(b *ssa.BasicBlock) bool {
	seen := map[*ssa.BasicBlock]bool{}
	work := append([]*ssa.BasicBlock(nil), b.Succs...)
	for len(work) > 0 {
		x := work[len(work)-1]
		work = work[:len(work)-1]
		if x == b {
			return true
		}
		if seen[x] {
			continue
		}
		seen[x] = true
		work = append(work, x.Succs...)
	}
	return false
}
