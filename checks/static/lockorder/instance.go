package lockorder

import (
	"fmt"
	"go/token"
	"go/types"
	"sort"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/interleave-dev/interleave/checks/static/internal/lockset"
)

// instanceRule is the precise form of IL2101: both orders of two locks of
// the same instances.
const instanceRule = "IL2102"

// maxInstanceDepth bounds the calls followed from a lock held to a lock
// acquired (a method on the same object that locks another of its locks).
const maxInstanceDepth = 3

// relAcq is a lock a function acquires, relative to one of its
// parameters (param >= 0) or a package-level lock (global != nil).
type relAcq struct {
	param  int
	global *ssa.Global
	fields string
	mode   lockset.Mode
	pos    token.Pos // the Lock call, in the function that makes it
}

// instEdge is "acquire B while holding A" where A and B are reached from
// the same root (same object) or are package-level locks.
type instEdge struct {
	key        string // relation: root type and both paths
	a, b       string // the lock paths as written
	heldPos    token.Pos
	pos        token.Pos // the acquisition (or the call leading to it)
	acqPos     token.Pos // the Lock call itself
	fn         *ssa.Function
	heldMode   lockset.Mode
	acqMode    lockset.Mode
	root       string
	heldFields string
	acqFields  string
}

type instanceFinder struct {
	pass *analysis.Pass
	rel  map[*ssa.Function][]relAcq
	busy map[*ssa.Function]bool
}

// instanceInversions reports IL2102: a pair of locks of one object (s.mu
// and s.inner.mu, or two package-level mutexes) taken in both orders in
// this package's non-test code, directly or through calls on the same
// object. Two goroutines on the two paths with the same object deadlock.
func instanceInversions(pass *analysis.Pass, results []*lockset.Result) {
	f := &instanceFinder{pass: pass, rel: map[*ssa.Function][]relAcq{}, busy: map[*ssa.Function]bool{}}
	var edges []instEdge
	for _, r := range results {
		if isTestFile(pass, r.Fn.Pos()) || lockset.IsConstructorName(r.Fn.Name()) {
			continue
		}
		for _, fn := range r.Functions() {
			for _, b := range fn.Blocks {
				for _, instr := range b.Instrs {
					edges = append(edges, f.edgesAt(r, instr)...)
				}
			}
		}
	}
	byKey := map[string][]instEdge{}
	for _, e := range edges {
		byKey[e.key] = append(byKey[e.key], e)
	}
	sort.Slice(edges, func(i, j int) bool { return edges[i].pos < edges[j].pos })
	done := map[string]bool{}
	for _, e := range edges {
		revKey := e.root + "|" + e.acqFields + "|" + e.heldFields
		if done[e.key] || done[revKey] {
			continue
		}
		for _, r := range byKey[revKey] {
			if e.heldMode == lockset.Shared && e.acqMode == lockset.Shared && r.heldMode == lockset.Shared && r.acqMode == lockset.Shared {
				continue // read locks on both sides
			}
			done[e.key], done[revKey] = true, true
			first, second := e, r
			if r.pos < e.pos {
				first, second = r, e
			}
			pass.Report(analysis.Diagnostic{
				Pos: first.pos, Category: instanceRule,
				Message: fmt.Sprintf("%s acquired while holding %s in %s, and %s while holding %s in %s: two goroutines on the same %s deadlock",
					first.b, first.a, first.fn.Name(), second.b, second.a, second.fn.Name(), first.root),
				Related: []analysis.RelatedInformation{
					{Pos: first.heldPos, Message: first.a + " acquired here"},
					{Pos: second.pos, Message: fmt.Sprintf("%s acquired here while holding %s", second.b, second.a)},
					{Pos: second.heldPos, Message: second.a + " acquired here"},
				},
			})
			break
		}
	}
}

func isTestFile(pass *analysis.Pass, pos token.Pos) bool {
	return strings.HasSuffix(pass.Fset.Position(pos).Filename, "_test.go")
}

// edgesAt returns the instance edges of instr: a Lock of B (or a call
// that locks B on an argument's object) while A of the same object is held.
func (f *instanceFinder) edgesAt(r *lockset.Result, instr ssa.Instruction) []instEdge {
	call, ok := instr.(*ssa.Call)
	if !ok {
		return nil
	}
	st, ok := r.Before(instr)
	if !ok || st.Len() == 0 {
		return nil
	}
	var acqs []relAcq // in terms of r's values: param -1 with root below
	var roots []lockset.Path
	if op, v := lockset.Classify(&call.Call); op == lockset.OpLock || op == lockset.OpRLock {
		mode := lockset.Exclusive
		if op == lockset.OpRLock {
			mode = lockset.Shared
		}
		acqs = append(acqs, relAcq{param: -1, mode: mode, pos: call.Pos()})
		roots = append(roots, r.Path(v))
	} else if callee := call.Call.StaticCallee(); callee != nil && callee.Pkg != nil && callee.Pkg.Pkg == f.pass.Pkg {
		for _, a := range f.acquires(callee, 0) {
			if a.global != nil {
				acqs = append(acqs, a)
				roots = append(roots, lockset.Path{Root: a.global, Fields: a.fields})
				continue
			}
			if a.param >= len(call.Call.Args) {
				continue
			}
			p := r.Path(call.Call.Args[a.param])
			acqs = append(acqs, a)
			roots = append(roots, lockset.Path{Root: p.Root, Fields: p.Fields + a.fields})
		}
	}
	var out []instEdge
	for i, b := range roots {
		for _, h := range st.Locks() {
			e, ok := f.edge(r, h, b)
			if !ok {
				continue
			}
			e.pos, e.acqPos, e.fn, e.acqMode = call.Pos(), acqs[i].pos, r.Fn, acqs[i].mode
			out = append(out, e)
		}
	}
	return out
}

// edge relates held lock h and acquired lock b when they are two locks of
// one object, or two package-level locks.
func (f *instanceFinder) edge(r *lockset.Result, h lockset.Held, b lockset.Path) (instEdge, bool) {
	a := h.Lock
	if a == b || a.Root == nil || b.Root == nil {
		return instEdge{}, false
	}
	ga, aGlobal := a.Root.(*ssa.Global)
	gb, bGlobal := b.Root.(*ssa.Global)
	var root, af, bf string
	switch {
	case aGlobal && bGlobal:
		root, af, bf = "package", ga.Name()+a.Fields, gb.Name()+b.Fields
	case aGlobal || bGlobal:
		return instEdge{}, false
	case a.Root == b.Root:
		if !a.Canonical() || r.IsFresh(a.Root) {
			return instEdge{}, false // not shared yet, or not a named value
		}
		t := a.Root.Type()
		if p, ok := t.Underlying().(*types.Pointer); ok {
			t = p.Elem()
		}
		root, af, bf = types.TypeString(t, types.RelativeTo(f.pass.Pkg)), a.Fields, b.Fields
		if strings.HasPrefix(bf, af+".") || strings.HasPrefix(af, bf+".") {
			return instEdge{}, false // a lock inside the other's value: not two locks
		}
	default:
		return instEdge{}, false
	}
	return instEdge{
		key: root + "|" + af + "|" + bf, root: root, heldFields: af, acqFields: bf,
		a: a.String(), b: b.String(), heldPos: h.Pos, heldMode: h.Mode,
	}, true
}

// acquires returns the locks fn may take relative to its parameters or
// package-level, directly or through static calls in this package.
func (f *instanceFinder) acquires(fn *ssa.Function, depth int) []relAcq {
	if a, ok := f.rel[fn]; ok {
		return a
	}
	if f.busy[fn] || depth > maxInstanceDepth || isTestFile(f.pass, fn.Pos()) {
		return nil
	}
	f.busy[fn] = true
	defer delete(f.busy, fn)
	var out []relAcq
	paramOf := func(p lockset.Path) (int, *ssa.Global) {
		if g, ok := p.Root.(*ssa.Global); ok {
			return -1, g
		}
		for i, q := range fn.Params {
			if q == p.Root {
				return i, nil
			}
		}
		return -1, nil
	}
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			call, ok := instr.(*ssa.Call)
			if !ok {
				continue
			}
			if op, v := lockset.Classify(&call.Call); op == lockset.OpLock || op == lockset.OpRLock {
				mode := lockset.Exclusive
				if op == lockset.OpRLock {
					mode = lockset.Shared
				}
				p := lockset.PathOf(v)
				if i, g := paramOf(p); i >= 0 || g != nil {
					out = append(out, relAcq{param: i, global: g, fields: p.Fields, mode: mode, pos: call.Pos()})
				}
				continue
			}
			callee := call.Call.StaticCallee()
			if callee == nil || callee.Pkg == nil || callee.Pkg.Pkg != f.pass.Pkg {
				continue
			}
			for _, a := range f.acquires(callee, depth+1) {
				if a.global != nil {
					out = append(out, a)
					continue
				}
				if a.param >= len(call.Call.Args) {
					continue
				}
				p := lockset.PathOf(call.Call.Args[a.param])
				if i, _ := paramOf(p); i >= 0 {
					out = append(out, relAcq{param: i, fields: p.Fields + a.fields, mode: a.mode, pos: a.pos})
				}
			}
		}
	}
	f.rel[fn] = out
	return out
}
