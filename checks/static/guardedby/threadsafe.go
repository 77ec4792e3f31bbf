package guardedby

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"regexp"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/interleave-dev/interleave/checks/static/internal/lockset"
)

// notConcurrentRe: a method documented as not for concurrent use (setup
// before the value is shared) is outside the type's promise.
var notConcurrentRe = regexp.MustCompile(`(?i)\bbefore\b[^.]{0,40}?\b(?:use|used|using|start|started|starting|shared|serving|calling|called|running|run)\b|\bnot\s+(?:safe|thread-?safe|goroutine-?safe|concurrency-?safe)\b|\bmust\s+not\s+be\s+called\s+concurrently`)

// reportThreadSafe reports IL5003: in a type documented as safe for
// concurrent use, every exported method may run at the same time as any
// other, so a field accessed under the type's mutex in one place and
// without any of its mutexes in an exported method races, when one of
// the two accesses is a write.
func (pc *passContext) reportThreadSafe() {
	claims := lockset.ThreadSafeTypes(pc.pass.Files, pc.pass.TypesInfo)
	if len(claims) == 0 {
		return
	}
	byStruct := map[*types.Struct]*types.TypeName{}
	for tn := range claims {
		if st, ok := tn.Type().Underlying().(*types.Struct); ok {
			byStruct[st] = tn
		}
	}
	docs := pc.methodDocs()
	builders := builderMethods(pc.pass.Files, pc.pass.TypesInfo)
	// One finding per defect: accesses without the same mutex that share
	// a method (a Flush that takes no lock reads two fields three times)
	// or a field (three accessors of one field written under the lock)
	// are one finding, the first access, the others related positions.
	var found []unlockedAccess
	for _, f := range pc.order {
		info := pc.fields[f]
		tn := byStruct[info.strct]
		if tn == nil || pc.atomic[f] || !info.written {
			continue
		}
		var lockedWrite, lockedAny *obs
		var lockName *types.Var
		for _, o := range info.obs {
			if len(o.held) == 0 {
				continue
			}
			if lockedAny == nil {
				lockedAny, lockName = o, o.held[0]
			}
			if o.write && lockedWrite == nil {
				lockedWrite = o
				lockName = o.held[0]
			}
		}
		if lockedAny == nil {
			continue
		}
		for _, o := range info.obs {
			if !o.onRecv || o.quiet(lockName) || !exportedMethod(o.fn) || notConcurrentRe.MatchString(docs[o.fn.Object()]) || initMethod(o.fn.Name()) || builders[o.fn.Object()] {
				continue
			}
			other := lockedWrite
			if o.write {
				other = lockedAny
			}
			if other == nil {
				continue // two reads do not race
			}
			if pc.seenSetOnce(f, info, o) {
				continue // set once, and seen set under the lock first
			}
			if pc.sealedReadOut(o, f, info) {
				continue // a read-out that seals the value against its writers
			}
			verb, otherVerb := "reads", "read"
			if o.write {
				verb = "writes"
			}
			if other.write {
				otherVerb = "written"
			}
			field := o.base + "." + f.Name()
			if o.sel != "" {
				field = o.base + "." + o.sel
			}
			c := claims[tn]
			d := analysis.Diagnostic{
				Pos: o.pos, End: o.pos + token.Pos(len(f.Name())), Category: RuleThreadsafeInconsistentLock,
				Message: fmt.Sprintf("%s is documented as %s, but %s %s %s without holding %s.%s, which is held where %s is %s in %s",
					tn.Name(), claimText(c.Phrase, c.Quote), o.fn.Name(), verb, field, o.base, lockName.Name(), f.Name(), otherVerb, other.fn.Name()),
				Related: []analysis.RelatedInformation{
					{Pos: other.pos, Message: fmt.Sprintf("%s.%s %s with %s.%s held", other.base, f.Name(), otherVerb, other.base, lockName.Name())},
					{Pos: c.Pos, Message: tn.Name() + " claims safety for concurrent use here"},
				},
			}
			if o.end.IsValid() {
				d.End = o.end
			}
			pc.reported[o.pos] = true
			found = append(found, unlockedAccess{d: d, fn: o.fn, field: f, lock: lockName,
				also: fmt.Sprintf("also %s %s here without holding %s.%s", verb, field, o.base, lockName.Name())})
		}
	}
	for _, g := range groupAccesses(found) {
		d := g[0].d
		for _, a := range g[1:] {
			d.Related = append(d.Related, analysis.RelatedInformation{Pos: a.d.Pos, End: a.d.End, Message: a.also})
		}
		if n := len(g) - 1; n == 1 {
			d.Message += " (and 1 more access, listed as related)"
		} else if n > 1 {
			d.Message += fmt.Sprintf(" (and %d more accesses, listed as related)", n)
		}
		pc.pass.Report(d)
	}
}

// unlockedAccess is one IL5003 access: its diagnostic, the method, the
// field and the mutex it lacks, and its text as a related position.
type unlockedAccess struct {
	d     analysis.Diagnostic
	fn    *ssa.Function
	field *types.Var
	lock  *types.Var
	also  string
}

// groupAccesses returns the accesses in groups, each in the order found
// and the groups in the order of their first access: two accesses
// lacking the same mutex are in one group when they share the method or
// the field, directly or through other accesses.
func groupAccesses(found []unlockedAccess) [][]unlockedAccess {
	parent := make([]int, len(found))
	for i := range parent {
		parent[i] = i
	}
	root := func(i int) int {
		for parent[i] != i {
			parent[i] = parent[parent[i]]
			i = parent[i]
		}
		return i
	}
	union := func(a, b int) {
		if ra, rb := root(a), root(b); ra != rb {
			parent[max(ra, rb)] = min(ra, rb)
		}
	}
	type fnKey struct {
		fn   *ssa.Function
		lock *types.Var
	}
	type fieldKey struct{ field, lock *types.Var }
	byFn, byField := map[fnKey]int{}, map[fieldKey]int{}
	for i, a := range found {
		if j, ok := byFn[fnKey{a.fn, a.lock}]; ok {
			union(i, j)
		} else {
			byFn[fnKey{a.fn, a.lock}] = i
		}
		if j, ok := byField[fieldKey{a.field, a.lock}]; ok {
			union(i, j)
		} else {
			byField[fieldKey{a.field, a.lock}] = i
		}
	}
	var out [][]unlockedAccess
	at := map[int]int{}
	for i, a := range found {
		r := root(i)
		k, ok := at[r]
		if !ok {
			k = len(out)
			at[r] = k
			out = append(out, nil)
		}
		out[k] = append(out[k], a)
	}
	return out
}

// claimText quotes a type's claim with its qualifier (Claim.Quote).
func claimText(phrase, quote string) string {
	if phrase == lockset.ThreadSafeDirective {
		return "thread-safe (" + phrase + ")"
	}
	return fmt.Sprintf("%q", quote)
}

// exportedMethod reports whether fn is an exported method declared in
// source.
func exportedMethod(fn *ssa.Function) bool {
	return fn.Signature.Recv() != nil && fn.Parent() == nil && fn.Synthetic == "" && token.IsExported(fn.Name())
}

// methodDocs returns the doc comment text of each method declared in
// the package.
func (pc *passContext) methodDocs() map[types.Object]string {
	out := map[types.Object]string{}
	for _, f := range pc.pass.Files {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Recv == nil || fd.Doc == nil {
				continue
			}
			if obj := pc.pass.TypesInfo.Defs[fd.Name]; obj != nil {
				out[obj] = strings.Join(strings.Fields(fd.Doc.Text()), " ")
			}
		}
	}
	return out
}

// initMethod reports whether a method's name says it initializes the
// value (Init, InitForTesting, InitWithClock): like Init, it runs before
// the value is shared.
func initMethod(name string) bool {
	rest, ok := strings.CutPrefix(name, "Init")
	return ok && (rest == "" || rest[0] >= 'A' && rest[0] <= 'Z')
}

// builderMethods returns the exported methods that return their receiver
// (func (p *T) SetLogger(l Logger) *T { p.logger = l; return p }) and that
// the package calls, at least once, only on a value being built: chained
// on a constructor's result or on another such call
// (NewT(x).SetLogger(l)), or on a local holding one, before the caller's
// first go statement. A builder step runs before the value is shared.
func builderMethods(files []*ast.File, info *types.Info) map[types.Object]bool {
	returnsRecv := map[types.Object]bool{}
	for _, f := range files {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil || fd.Recv == nil || !fd.Name.IsExported() || len(fd.Recv.List) != 1 || len(fd.Recv.List[0].Names) != 1 {
				continue
			}
			recv := info.Defs[fd.Recv.List[0].Names[0]]
			rets, all := 0, recv != nil
			ast.Inspect(fd.Body, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.FuncLit:
					return false
				case *ast.ReturnStmt:
					rets++
					if len(n.Results) != 1 || info.Uses[identOf(n.Results[0])] != recv {
						all = false
					}
				}
				return all
			})
			if obj := info.Defs[fd.Name]; obj != nil && rets > 0 && all {
				returnsRecv[obj] = true
			}
		}
	}
	if len(returnsRecv) == 0 {
		return nil
	}
	// building reports whether e is a value being built; fresh holds the
	// locals bound to one, with where they were bound.
	var building func(e ast.Expr, fresh map[types.Object]token.Pos, firstGo token.Pos) bool
	building = func(e ast.Expr, fresh map[types.Object]token.Pos, firstGo token.Pos) bool {
		switch e := ast.Unparen(e).(type) {
		case *ast.CallExpr:
			switch fun := ast.Unparen(e.Fun).(type) {
			case *ast.Ident:
				return lockset.IsConstructorName(fun.Name)
			case *ast.SelectorExpr:
				if returnsRecv[info.Uses[fun.Sel]] {
					return building(fun.X, fresh, firstGo)
				}
				return lockset.IsConstructorName(fun.Sel.Name)
			}
		case *ast.Ident:
			at, ok := fresh[info.Uses[e]]
			return ok && at < e.Pos() && (firstGo == token.NoPos || e.Pos() < firstGo)
		}
		return false
	}
	calls := map[types.Object]int{}
	bad := map[types.Object]bool{}
	for _, f := range files {
		for _, d := range f.Decls {
			fd, isFn := d.(*ast.FuncDecl)
			if !isFn || fd.Body == nil {
				continue
			}
			fresh := map[types.Object]token.Pos{}
			firstGo := token.NoPos
			ast.Inspect(fd.Body, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.GoStmt:
					if firstGo == token.NoPos || n.Pos() < firstGo {
						firstGo = n.Pos()
					}
				case *ast.AssignStmt:
					if n.Tok == token.DEFINE && len(n.Lhs) == 1 && len(n.Rhs) == 1 {
						if id := identOf(n.Lhs[0]); id != nil && info.Defs[id] != nil && building(n.Rhs[0], nil, token.NoPos) {
							fresh[info.Defs[id]] = n.End()
						}
					}
				}
				return true
			})
			ast.Inspect(fd.Body, func(n ast.Node) bool {
				sel, isSel := n.(*ast.SelectorExpr)
				if !isSel || !returnsRecv[info.Uses[sel.Sel]] {
					return true
				}
				obj := info.Uses[sel.Sel]
				calls[obj]++
				if !building(sel.X, fresh, firstGo) {
					bad[obj] = true
				}
				return true
			})
		}
	}
	out := map[types.Object]bool{}
	for obj := range returnsRecv {
		if calls[obj] > 0 && !bad[obj] {
			out[obj] = true
		}
	}
	return out
}

// identOf returns e as an identifier, or nil.
func identOf(e ast.Expr) *ast.Ident {
	id, _ := ast.Unparen(e).(*ast.Ident)
	return id
}
