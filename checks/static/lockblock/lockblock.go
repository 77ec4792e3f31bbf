package lockblock

import (
	_ "embed"
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"reflect"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/buildssa"
	"golang.org/x/tools/go/ssa"

	"github.com/interleave-dev/interleave/checks/static/internal/lockset"
	"github.com/interleave-dev/interleave/checks/static/internal/locktype"
	"github.com/interleave-dev/interleave/checks/static/internal/passdoc"
)

//go:embed doc.go
var doc string

// Analyzer reports IL6001 and IL6002.
var Analyzer = &analysis.Analyzer{
	Name:     "lockblock",
	Doc:      passdoc.MustExtract(doc, "lockblock"),
	Requires: []*analysis.Analyzer{locktype.Analyzer, buildssa.Analyzer},
	Run:      run,
	// The lock states it computes, for lockorder's instance-level pairs.
	ResultType: reflect.TypeOf((*Result)(nil)),
}

// Result holds the lock state of every function of the package (nil
// when the package does not import sync).
type Result struct {
	Locksets []*lockset.Result
}

// maxRelated bounds the lock acquisitions listed per diagnostic.
const maxRelated = 3

// passContext holds the state of one run.
type passContext struct {
	pass   *analysis.Pass
	syntax *lockset.Syntax
	// chans maps the position SSA gives a channel operation (send arrow,
	// receive operator, range keyword) to the channel expression.
	chans map[token.Pos]ast.Expr
	// ranges holds the positions of range statements over channels.
	ranges map[token.Pos]bool
	// condLocks maps a sync.Cond field to the path of its L relative to
	// the struct holding both (".mu").
	condLocks map[*types.Var]string
	// chanCaps maps a channel field to the smallest constant capacity
	// stored in it anywhere in the package, or -1 when some store is not
	// a make with a constant capacity.
	chanCaps map[*types.Var]int64
	// globalCaps is chanCaps for package-level channel variables.
	globalCaps map[*ssa.Global]int64
	// cycles holds the positions reported as IL6002 (not repeated as IL6001).
	cycles map[token.Pos]bool
}

func run(pass *analysis.Pass) (any, error) {
	if !lockset.UsesLocks(pass.Pkg) {
		return &Result{}, nil
	}
	pc := &passContext{
		pass:       pass,
		syntax:     lockset.NewSyntax(pass.Files),
		chans:      map[token.Pos]ast.Expr{},
		ranges:     map[token.Pos]bool{},
		condLocks:  map[*types.Var]string{},
		chanCaps:   map[*types.Var]int64{},
		globalCaps: map[*ssa.Global]int64{},
	}
	pc.indexChannels() // source text of channel operands
	ssainfo := pass.ResultOf[buildssa.Analyzer].(*buildssa.SSA)
	results := lockset.New().Package(ssainfo.SrcFuncs, nil) // lock state everywhere
	for _, r := range results {
		pc.findCondLocks(r)            // which lock each Cond field uses
		pc.findChanCaps(r.Functions()) // which channel fields are buffered
	}
	if init := ssainfo.Pkg.Func("init"); init != nil {
		pc.findChanCaps([]*ssa.Function{init}) // package-level channels
	}
	pc.cycles = pc.findCycles(results) // IL6002: lock–channel cycles
	for _, r := range results {
		if strings.HasSuffix(pass.Fset.Position(r.Fn.Pos()).Filename, "_test.go") {
			continue // tests block under locks on purpose to force interleavings
		}
		pc.check(r) // blocking operations under a lock
	}
	return &Result{Locksets: results}, nil
}

func (pc *passContext) indexChannels() {
	for _, f := range pc.pass.Files {
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.SendStmt:
				pc.chans[n.Arrow] = n.Chan
			case *ast.UnaryExpr:
				if n.Op == token.ARROW {
					pc.chans[n.OpPos] = n.X
				}
			case *ast.RangeStmt:
				if t := pc.pass.TypesInfo.TypeOf(n.X); t != nil {
					if _, ok := t.Underlying().(*types.Chan); ok {
						pc.chans[n.For] = n.X
						pc.ranges[n.For] = true
					}
				}
			}
			return true
		})
	}
}

// findCondLocks records, for each Cond field initialized in r, the lock
// its L refers to: s.cond = sync.NewCond(&s.mu) or s.cond.L = &s.mu.
func (pc *passContext) findCondLocks(r *lockset.Result) {
	for _, fn := range r.Functions() {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				st, ok := instr.(*ssa.Store)
				if !ok {
					continue
				}
				fa, ok := st.Addr.(*ssa.FieldAddr)
				if !ok {
					continue
				}
				var condField *ssa.FieldAddr
				var lockArg ssa.Value
				if call, ok := st.Val.(*ssa.Call); ok && lockset.CalleeIs(&call.Call, "sync", "", "NewCond") && len(call.Call.Args) == 1 {
					condField, lockArg = fa, call.Call.Args[0] // s.cond = sync.NewCond(&s.mu)
				} else if inner, ok := fa.X.(*ssa.FieldAddr); ok && lockset.IsNamed(inner.Type(), "sync", "Cond") && lockset.FieldOf(fa).Name() == "L" {
					condField, lockArg = inner, st.Val // s.cond.L = &s.mu
				}
				if condField == nil {
					continue
				}
				base := r.Path(condField.X)
				lock := r.Path(lockArg)
				if lock.Root != base.Root || !strings.HasPrefix(lock.Fields, base.Fields+".") {
					continue
				}
				f := lockset.FieldOf(condField).Origin()
				rel := strings.TrimPrefix(lock.Fields, base.Fields)
				if old, ok := pc.condLocks[f]; ok && old != rel {
					pc.condLocks[f] = "" // conflicting: unknown
					continue
				}
				pc.condLocks[f] = rel
			}
		}
	}
}

// findChanCaps records the capacity of the channels stored in fields.
func (pc *passContext) findChanCaps(fns []*ssa.Function) {
	for _, fn := range fns {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				st, ok := instr.(*ssa.Store)
				if !ok {
					continue
				}
				if g, ok := st.Addr.(*ssa.Global); ok {
					if _, isChan := g.Type().(*types.Pointer).Elem().Underlying().(*types.Chan); isChan {
						if k, ok := st.Val.(*ssa.Const); !ok || !k.IsNil() {
							n := capacity(st.Val)
							if old, seen := pc.globalCaps[g]; seen && (old < n || old < 0) {
								n = old
							}
							pc.globalCaps[g] = n
						}
					}
					continue
				}
				fa, ok := st.Addr.(*ssa.FieldAddr)
				if !ok {
					continue
				}
				f := lockset.FieldOf(fa)
				if f == nil {
					continue
				}
				if _, isChan := f.Type().Underlying().(*types.Chan); !isChan {
					continue
				}
				if k, ok := st.Val.(*ssa.Const); ok && k.IsNil() {
					continue // clearing the field
				}
				n := capacity(st.Val)
				f = f.Origin()
				if old, seen := pc.chanCaps[f]; seen && (old < n || old < 0) {
					n = old
				}
				pc.chanCaps[f] = n
			}
		}
	}
}

// capacity returns the constant capacity of a channel made by v, or -1.
func capacity(v ssa.Value) int64 {
	if ct, ok := v.(*ssa.ChangeType); ok {
		v = ct.X // chan T to <-chan T
	}
	mc, ok := v.(*ssa.MakeChan)
	if !ok {
		return -1
	}
	k, ok := mc.Size.(*ssa.Const)
	if !ok || k.Value == nil {
		return -1
	}
	n, ok := constant.Int64Val(constant.ToInt(k.Value))
	if !ok {
		return -1
	}
	return n
}

// condLock returns the path of the lock that cond (the receiver of
// Cond.Wait) releases while waiting.
func (pc *passContext) condLock(r *lockset.Result, cond ssa.Value) (lockset.Path, bool) {
	v := cond
	if u, ok := v.(*ssa.UnOp); ok && u.Op == token.MUL {
		v = u.X
	}
	switch x := v.(type) {
	case *ssa.Call:
		if lockset.CalleeIs(&x.Call, "sync", "", "NewCond") && len(x.Call.Args) == 1 {
			return r.Path(x.Call.Args[0]), true
		}
	case *ssa.FieldAddr:
		f := lockset.FieldOf(x)
		if f == nil {
			return lockset.Path{}, false
		}
		rel, ok := pc.condLocks[f.Origin()]
		if !ok || rel == "" {
			return lockset.Path{}, false
		}
		base := r.Path(x.X)
		return lockset.Path{Root: base.Root, Fields: base.Fields + rel}, true
	}
	return lockset.Path{}, false
}

// check reports the blocking operations of r made while a lock is held.
func (pc *passContext) check(r *lockset.Result) {
	for _, fn := range r.Functions() {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				st, ok := r.Before(instr)
				if !ok || st.Len() == 0 {
					continue
				}
				pc.checkInstr(r, instr, st)
			}
		}
	}
}

func (pc *passContext) checkInstr(r *lockset.Result, instr ssa.Instruction, st lockset.State) {
	held := st.Locks()
	switch i := instr.(type) {
	case *ssa.Send:
		if pc.buffered(i.Chan) {
			return
		}
		pc.report(i.Pos(), fmt.Sprintf("send on channel %s", pc.chanName(i.Pos(), i.Chan)), held)
	case *ssa.UnOp:
		if i.Op != token.ARROW || closedBefore(r, i, held[0]) {
			return // a receive from a channel closed in this critical section never waits
		}
		if pc.ranges[i.Pos()] {
			pc.report(i.Pos(), fmt.Sprintf("range over channel %s", pc.chanName(i.Pos(), i.X)), held)
			return
		}
		if pc.buffered(i.X) {
			return // known capacity: treated like a send on it (see doc)
		}
		pc.report(i.Pos(), fmt.Sprintf("receive from channel %s", pc.chanName(i.Pos(), i.X)), held)
	case *ssa.Select:
		if i.Blocking {
			pc.report(i.Pos(), "select without default", held)
		}
	case *ssa.Call:
		c := &i.Call
		switch {
		case lockset.CalleeIs(c, "sync", "WaitGroup", "Wait"):
			pc.report(pc.callPos(i), pc.callText(i)+" called", held)
		case lockset.CalleeIs(c, "time", "", "Sleep"):
			pc.report(pc.callPos(i), "time.Sleep called", held)
		case lockset.CalleeIs(c, "sync", "Cond", "Wait") && len(c.Args) == 1:
			l, ok := pc.condLock(r, c.Args[0])
			if !ok {
				return // the Cond's lock is unknown: assume its own
			}
			var others []lockset.Held
			for _, h := range held {
				if h.Lock != l {
					others = append(others, h)
				}
			}
			if len(others) == 0 {
				return // the normal idiom: L is released while waiting
			}
			pc.report(pc.callPos(i), fmt.Sprintf("%s releases only %s", pc.callText(i), l), others)
		}
	}
}

// buffered reports whether ch has a known capacity greater than zero:
// made in this function with a constant capacity, or loaded from a field
// that only ever holds such channels.
func (pc *passContext) buffered(ch ssa.Value) bool {
	if capacity(ch) > 0 {
		return true
	}
	if u, ok := ch.(*ssa.UnOp); ok && u.Op == token.MUL {
		if fa, ok := u.X.(*ssa.FieldAddr); ok {
			if f := lockset.FieldOf(fa); f != nil {
				return pc.chanCaps[f.Origin()] > 0
			}
		}
	}
	return false
}

func (pc *passContext) chanName(pos token.Pos, ch ssa.Value) string {
	if e, ok := pc.chans[pos]; ok {
		return types.ExprString(e)
	}
	return lockset.PathString(ch)
}

func (pc *passContext) callPos(c *ssa.Call) token.Pos {
	if ce := pc.syntax.Call(c.Pos()); ce != nil {
		return ce.Pos()
	}
	return c.Pos()
}

func (pc *passContext) callText(c *ssa.Call) string {
	if ce := pc.syntax.Call(c.Pos()); ce != nil {
		return types.ExprString(ce.Fun) + "()"
	}
	return c.Call.Value.Name() + "()"
}

// report emits one diagnostic naming the most recently acquired lock and
// listing where the held locks were acquired.
func (pc *passContext) report(pos token.Pos, what string, held []lockset.Held) {
	if !pos.IsValid() || pc.cycles[pos] {
		return
	}
	last := held[len(held)-1]
	msg := fmt.Sprintf("%s while holding %s", what, pc.syntax.LockName(last))
	if len(held) > 1 {
		msg += fmt.Sprintf(" and %d other lock", len(held)-1)
		if len(held) > 2 {
			msg += "s"
		}
	}
	d := analysis.Diagnostic{Pos: pos, Category: RuleBlockingUnderLock, Message: msg}
	for i := len(held) - 1; i >= 0 && len(d.Related) < maxRelated; i-- {
		h := held[i]
		if !h.Pos.IsValid() {
			continue
		}
		at := h.Pos
		if c := pc.syntax.Call(h.Pos); c != nil {
			at = c.Pos()
		}
		d.Related = append(d.Related, analysis.RelatedInformation{Pos: at, Message: fmt.Sprintf("%s %s here", pc.syntax.LockName(h), h.Mode)})
	}
	pc.pass.Report(d)
}
