package checkact

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"regexp"
	"sort"
	"strings"
	"unicode"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/interleave-dev/interleave/checks/static/internal/lockregion"
	"github.com/interleave-dev/interleave/checks/static/internal/passutil"
)

// guardedRead is a read of a shared location (a field s.n or a map entry
// s.m[k]) made while a mutex was held, carried by the locals computed
// from it.
type guardedRead struct {
	target string    // the location as written
	lock   string    // the mutex as written
	region token.Pos // the Lock call that opened the critical section
	pos    token.Pos // the read
}

// splitState is the per-function state of checkSplit.
type splitState struct {
	fd      *ast.FuncDecl
	pc      *passContext
	taint   map[types.Object][]guardedRead
	reread  map[[3]string]bool // target, lock, region: read again in that section
	lhs     map[ast.Expr]bool  // locations being assigned, not read
	claimed map[ast.Node]bool  // writes already reported
	// copyOf maps a local to the location it holds an unmodified copy
	// of (saved := s.n): writing it back (s.n = saved) restores the old
	// value on purpose, it does not publish a computed one.
	copyOf map[types.Object]string
	// guards maps the condition of an if statement that leaves the
	// function (if c.isClosed() { return }) to the variable whose state it
	// tests through a method call; revalid records, per variable, lock and
	// region, that such a test ran inside the critical section.
	guards  map[ast.Expr]string
	revalid map[[3]string]bool
	// outer is the sentence of the function's doc saying its callers hold
	// an exclusive lock ("MUST be called with the chain state lock held
	// (for writes)"), or "".
	outer string
	// found holds the function's findings, one per lock and earlier
	// critical section (two fields read in one section and written back
	// in a later one are one split: one fix); more counts the writes
	// listed as related.
	found []*analysis.Diagnostic
	first map[[2]string]*analysis.Diagnostic
	more  map[*analysis.Diagnostic]int
}

// checkSplit reports writes of a guarded location from a local that was
// read in an earlier critical section of the same mutex (IL4003).
func (pc *passContext) checkSplit(fd *ast.FuncDecl) {
	s := &splitState{
		fd:      fd,
		pc:      pc,
		taint:   map[types.Object][]guardedRead{},
		reread:  map[[3]string]bool{},
		lhs:     map[ast.Expr]bool{},
		claimed: map[ast.Node]bool{},
		copyOf:  map[types.Object]string{},
		guards:  exitGuards(pc.pass.TypesInfo, fd.Body),
		revalid: map[[3]string]bool{},
		outer:   outerLock(fd.Doc.Text()),
		first:   map[[2]string]*analysis.Diagnostic{},
		more:    map[*analysis.Diagnostic]int{},
	}
	w := &lockregion.Walker{Info: pc.pass.TypesInfo, Visit: s.visit}
	w.WalkFunc(fd.Body, lockregion.Held{})
	for _, d := range s.found {
		if n := s.more[d]; n == 1 {
			d.Message += " (and 1 more write, listed as related)"
		} else if n > 1 {
			d.Message += fmt.Sprintf(" (and %d more writes, listed as related)", n)
		}
		pc.pass.Report(*d)
	}
}

func (s *splitState) visit(n ast.Node, held lockregion.Held) {
	if e, ok := n.(ast.Expr); ok {
		if root, ok := s.guards[e]; ok {
			for lock, region := range held {
				s.revalid[[3]string{root, lock, fmt.Sprint(region)}] = true
			}
		}
	}
	switch n := n.(type) {
	case *ast.AssignStmt:
		s.assign(n, held)
	case *ast.IncDecStmt:
		if id, ok := ast.Unparen(n.X).(*ast.Ident); ok {
			delete(s.copyOf, s.pc.pass.TypesInfo.ObjectOf(id))
		}
	case *ast.SelectorExpr, *ast.IndexExpr:
		if t := s.target(n.(ast.Expr)); t != "" && !s.lhs[n.(ast.Expr)] {
			s.markRead(t, held)
		}
	}
}

func (s *splitState) markRead(t string, held lockregion.Held) {
	for lock, region := range held {
		s.reread[[3]string{t, lock, fmt.Sprint(region)}] = true
	}
}

func (s *splitState) assign(as *ast.AssignStmt, held lockregion.Held) {
	info := s.pc.pass.TypesInfo
	// Reads on the right-hand side happen before the write.
	var fresh []guardedRead
	for _, r := range as.Rhs {
		ast.Inspect(r, func(n ast.Node) bool {
			if _, ok := n.(*ast.FuncLit); ok {
				return false
			}
			e, ok := n.(ast.Expr)
			if !ok {
				return true
			}
			if t := s.target(e); t != "" {
				s.markRead(t, held)
				for lock, region := range held {
					fresh = append(fresh, guardedRead{target: t, lock: lock, region: region, pos: e.Pos()})
				}
			}
			return true
		})
	}
	carried := func(r ast.Expr) []guardedRead {
		var out []guardedRead
		ast.Inspect(r, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.Ident:
				out = append(out, s.taint[info.Uses[n]]...)
			case *ast.CallExpr:
				if httpExchange(info, n) {
					ast.Inspect(n.Fun, func(m ast.Node) bool {
						if x, ok := m.(*ast.Ident); ok {
							out = append(out, s.taint[info.Uses[x]]...)
						}
						return true
					})
					return false // the arguments are the request, not the answer
				}
			}
			return true
		})
		return out
	}

	for i, l := range as.Lhs {
		l = ast.Unparen(l)
		rhs := as.Rhs
		if len(as.Rhs) == len(as.Lhs) {
			rhs = as.Rhs[i : i+1]
		}
		var from []guardedRead
		for _, r := range rhs {
			from = append(from, carried(r)...)
		}
		if id, ok := l.(*ast.Ident); ok {
			obj := info.ObjectOf(id)
			if obj == nil || id.Name == "_" {
				continue
			}
			if as.Tok != token.DEFINE && as.Tok != token.ASSIGN {
				from = append(from, s.taint[obj]...) // v += x keeps v's origin
			}
			// The local now carries what its right-hand side read.
			s.taint[obj] = append(from, fresh...)
			delete(s.copyOf, obj)
			if len(rhs) == 1 && (as.Tok == token.DEFINE || as.Tok == token.ASSIGN) {
				if t := s.target(ast.Unparen(rhs[0])); t != "" {
					s.copyOf[obj] = t
				} else if t := s.target(cloned(info, rhs[0])); t != "" && s.onlyRestored(obj, t) {
					s.copyOf[obj] = t
				}
			}
			continue
		}
		t := s.target(l)
		if t == "" {
			continue
		}
		s.lhs[l] = true
		if as.Tok != token.ASSIGN || s.claimed[as] {
			continue // s.n += d re-reads s.n under the current lock
		}
		if s.restores(t, rhs) {
			continue
		}
		if rd, v, ok := s.lostUpdate(l, t, from, held, rhs); ok {
			if s.pc.semaphores().serializes(s.fd, l) {
				continue // every writer holds the semaphore s.fd runs under
			}
			s.claimed[as] = true
			s.report(as, l, t, rd, v)
		}
	}
}

// lostUpdate finds a read of t carried into this write that was made in
// another critical section of a mutex held now, with no re-read of t in
// the current section.
func (s *splitState) lostUpdate(l ast.Expr, t string, from []guardedRead, held lockregion.Held, rhs []ast.Expr) (guardedRead, string, bool) {
	// The latest read first: the one nearest the write (an earlier read
	// in a branch that returned carries the same local but no path).
	sort.Slice(from, func(i, j int) bool { return from[i].pos > from[j].pos })
	for _, rd := range from {
		region, ok := held[rd.lock]
		if rd.target != t || !ok || region == rd.region {
			continue
		}
		if !region.IsValid() || !rd.region.IsValid() {
			continue // one path may still be in the read's critical section
		}
		if s.reread[[3]string{t, rd.lock, fmt.Sprint(region)}] {
			continue // re-validated under the current lock
		}
		if s.revalid[[3]string{rootName(t), rd.lock, fmt.Sprint(region)}] {
			continue // the owner's state was re-checked (if c.isClosed() { return })
		}
		if serialized(from, rd, held) {
			continue
		}
		if s.rechecked(fieldOf(s.pc.pass.TypesInfo, l), rootName(t), l.Pos(), section{rd.lock, region}) {
			continue // a ticket or a once-only phase re-checked (recheck.go)
		}
		if s.pc.underCallerLock(s.fd, fieldOf(s.pc.pass.TypesInfo, l), rd.lock) {
			continue // every caller, and every other writer, holds a wider lock (callerlock.go)
		}
		if s.pc.serialWriter(s.fd, l, rd.pos, fieldOf(s.pc.pass.TypesInfo, l)) {
			continue // one goroutine, started once per value, is the only writer (serial.go)
		}
		if s.outer != "" && !names(s.outer, rd.lock) {
			continue // a documented outer lock serializes the two sections
		}
		return rd, s.carrier(rhs, rd), true
	}
	return guardedRead{}, "", false
}

// serialized reports whether another lock, held at the read rd, is still
// held in the same critical section at the write: it serializes the whole
// read-modify-write (go-redis's setAddrsMu around SetAddrs, which drops
// c.mu while it builds the new shards).
func serialized(from []guardedRead, rd guardedRead, held lockregion.Held) bool {
	for _, o := range from {
		if o.pos != rd.pos || o.target != rd.target || o.lock == rd.lock {
			continue
		}
		if region, ok := held[o.lock]; ok && region == o.region {
			return true
		}
	}
	return false
}

// outerRe finds a doc sentence saying the caller holds a lock: "MUST be
// called with the chain state lock held (for writes)", "called with the
// overall files mutex (s.obfMutex) locked", "MUST be called during a
// database write transaction", "callers must hold".
var outerRe = regexp.MustCompile(`(?i)\b(?:called|invoked|run)\s+(?:with|while\s+holding|under)\s+(?:the\s+|a\s+)?(?:\S+\s+){0,4}?(?:held|locked|acquired)\b` +
	`|\bduring\s+(?:a\s+|the\s+)?(?:\S+\s+){0,2}?write\s+transaction\b` +
	`|\bcallers?\s+(?:must|should)\s+(?:hold|have\s+acquired|acquire)\b`)

// sharedRe: the sentence asks for a read lock, which serializes nothing.
var sharedRe = regexp.MustCompile(`(?i)\bfor\s+reads?\b|\bread[\s-]*lock|\brlock|\bread[\s-]+locked|\bshared\b`)

// negRe: a negation turns the sentence into the opposite requirement.
var negRe = regexp.MustCompile(`(?i)\b(?:not|never|without)\b|n't\b`)

// outerLock returns the sentence of doc that says the function's callers
// hold an exclusive lock, or "".
func outerLock(doc string) string {
	doc = strings.Join(strings.Fields(doc), " ")
	for _, sent := range strings.SplitAfter(doc, ". ") {
		loc := outerRe.FindStringIndex(sent)
		if loc == nil || negRe.MatchString(sent[:loc[1]]) || sharedRe.MatchString(sent) {
			continue
		}
		return sent
	}
	return ""
}

// names reports whether sentence names the mutex of lock (c.mu: "mu",
// "c.mu"), so that the lock the callers hold is the split one itself.
func names(sentence, lock string) bool {
	field := lock[strings.LastIndexByte(lock, '.')+1:]
	for _, w := range strings.FieldsFunc(sentence, func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_'
	}) {
		if strings.EqualFold(w, field) {
			return true
		}
	}
	return false
}

// restores reports whether rhs is a local holding an unmodified copy of
// t: the saved value is put back (a rollback, or a test restoring state).
func (s *splitState) restores(t string, rhs []ast.Expr) bool {
	if len(rhs) != 1 {
		return false
	}
	id, ok := ast.Unparen(rhs[0]).(*ast.Ident)
	return ok && s.copyOf[s.pc.pass.TypesInfo.ObjectOf(id)] == t
}

// cloned returns x of a shallow copy of x (maps.Clone(x), slices.Clone(x),
// append([]T(nil), x...)), or nil.
func cloned(info *types.Info, e ast.Expr) ast.Expr {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok {
		return nil
	}
	switch fn := typeutil.Callee(info, call).(type) {
	case *types.Func:
		if fn.Pkg() != nil && (fn.Pkg().Path() == "maps" || fn.Pkg().Path() == "slices") && fn.Name() == "Clone" && len(call.Args) == 1 {
			return ast.Unparen(call.Args[0])
		}
	case *types.Builtin:
		if fn.Name() == "append" && len(call.Args) == 2 && call.Ellipsis.IsValid() && isNil(info, call.Args[0]) {
			return ast.Unparen(call.Args[1])
		}
	}
	return nil
}

// isNil reports whether e is nil or an empty slice: nil, []T(nil), []T{}.
func isNil(info *types.Info, e ast.Expr) bool {
	switch e := ast.Unparen(e).(type) {
	case *ast.CompositeLit:
		return len(e.Elts) == 0
	case *ast.CallExpr:
		return len(e.Args) == 1 && info.Types[e.Fun].IsType() && isNil(info, e.Args[0])
	}
	tv, ok := info.Types[e]
	return ok && tv.IsNil()
}

// onlyRestored reports whether every use of the local obj in the function
// is the whole right-hand side of a write of t: a copy nothing modifies
// (a clone, unlike the shared original, would carry its changes back).
func (s *splitState) onlyRestored(obj types.Object, t string) bool {
	info := s.pc.pass.TypesInfo
	restoring := map[*ast.Ident]bool{}
	ast.Inspect(s.fd.Body, func(n ast.Node) bool {
		as, ok := n.(*ast.AssignStmt)
		if !ok || as.Tok != token.ASSIGN || len(as.Lhs) != len(as.Rhs) {
			return true
		}
		for i, r := range as.Rhs {
			if id, ok := ast.Unparen(r).(*ast.Ident); ok && info.Uses[id] == obj && s.target(ast.Unparen(as.Lhs[i])) == t {
				restoring[id] = true
			}
		}
		return true
	})
	all := true
	ast.Inspect(s.fd.Body, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && info.Uses[id] == obj && !restoring[id] {
			all = false
		}
		return all
	})
	return all && len(restoring) > 0
}

// carrier names the local in rhs that carries rd.
func (s *splitState) carrier(rhs []ast.Expr, rd guardedRead) string {
	info := s.pc.pass.TypesInfo
	name := ""
	for _, r := range rhs {
		ast.Inspect(r, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok && name == "" {
				for _, g := range s.taint[info.Uses[id]] {
					if g == rd {
						name = id.Name
					}
				}
			}
			return name == ""
		})
	}
	return name
}

func (s *splitState) report(as *ast.AssignStmt, l ast.Expr, t string, rd guardedRead, v string) {
	from := "a value computed from it"
	if v != "" {
		from = v
	}
	k := [2]string{rd.lock, fmt.Sprint(rd.region)}
	if d := s.first[k]; d != nil {
		d.Related = append(d.Related,
			analysis.RelatedInformation{Pos: as.Pos(), End: as.End(), Message: fmt.Sprintf("also %s written here from %s, read under %s in the same earlier critical section", t, from, rd.lock)},
			analysis.RelatedInformation{Pos: rd.pos, End: rd.pos + token.Pos(len(rd.target)), Message: t + " read under " + rd.lock + " here"})
		s.more[d]++
		return
	}
	d := &analysis.Diagnostic{
		Pos: as.Pos(), End: as.End(), Category: RuleSplitCriticalSection,
		Message: fmt.Sprintf("%s is written from %s, read under %s in an earlier critical section at %s; an update made while %s was released is lost", t, from, rd.lock, s.pc.shortPos(rd.pos), rd.lock),
		Related: []analysis.RelatedInformation{{Pos: rd.pos, End: rd.pos + token.Pos(len(rd.target)), Message: t + " read under " + rd.lock + " here"}},
	}
	s.first[k] = d
	s.found = append(s.found, d)
}

// target returns the shared location e denotes, as written: a field
// reached through a variable (s.n, s.cfg.n) or an entry of a map field
// (s.m[k]); "" otherwise. Mutexes and other sync values are not locations.
func (s *splitState) target(e ast.Expr) string {
	info := s.pc.pass.TypesInfo
	switch e := e.(type) {
	case *ast.SelectorExpr:
		sel := info.Selections[e]
		if sel == nil || sel.Kind() != types.FieldVal || passutil.RootIdent(e) == nil {
			return ""
		}
		if isSyncType(sel.Obj().Type()) {
			return ""
		}
		return types.ExprString(e)
	case *ast.IndexExpr:
		if _, isMap := info.TypeOf(e.X).Underlying().(*types.Map); !isMap || s.target(e.X) == "" || !pure(info, e.Index) {
			return ""
		}
		return types.ExprString(e)
	}
	return ""
}

// isSyncType reports whether t is a type from sync or sync/atomic.
func isSyncType(t types.Type) bool {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := t.(*types.Named)
	if !ok || n.Obj().Pkg() == nil {
		return false
	}
	path := n.Obj().Pkg().Path()
	return path == "sync" || path == "sync/atomic"
}

// exitGuards finds the if statements of body that leave the function when
// a method of some variable says so (if c.isClosed() { c.mu.Unlock();
// return }) and maps each condition to that variable's name.
func exitGuards(info *types.Info, body *ast.BlockStmt) map[ast.Expr]string {
	out := map[ast.Expr]string{}
	ast.Inspect(body, func(n ast.Node) bool {
		ifs, ok := n.(*ast.IfStmt)
		if !ok || len(ifs.Body.List) == 0 {
			return true
		}
		if _, ret := ifs.Body.List[len(ifs.Body.List)-1].(*ast.ReturnStmt); !ret {
			return true
		}
		ast.Inspect(ifs.Cond, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
			if !ok || info.Selections[sel] == nil || info.Selections[sel].Kind() != types.MethodVal {
				return true
			}
			if root := passutil.RootIdent(sel.X); root != nil {
				out[ifs.Cond] = root.Name
			}
			return true
		})
		return true
	})
	return out
}

// rootName is the variable a location as written starts with: c in c.n,
// c.m[k].
func rootName(target string) string {
	if i := strings.IndexAny(target, ".["); i >= 0 {
		return target[:i]
	}
	return target
}

// httpExchange reports whether call returns an *http.Response (of
// net/http): client.Do(req), http.Get(url), or a function of the package
// wrapping one (requestToken(grant, refreshToken)). What it returns is
// the server's answer: a value read earlier and sent as an argument (a
// refresh token, a request parameter) does not carry into it, so a
// location refilled from the answer (stackit-sdk-go's KeyFlow stores the
// token the endpoint issues for the refresh token it read) is not a
// read-modify-write of the value read. The old value carried into the
// write by any other path (merged with the answer, or computed from it
// locally) still is.
func httpExchange(info *types.Info, call *ast.CallExpr) bool {
	t := info.TypeOf(call)
	if t == nil {
		return false
	}
	if tup, ok := t.(*types.Tuple); ok {
		for v := range tup.Variables() {
			if isHTTPResponse(v.Type()) {
				return true
			}
		}
		return false
	}
	return isHTTPResponse(t)
}

func isHTTPResponse(t types.Type) bool {
	p, ok := t.(*types.Pointer)
	if !ok {
		return false
	}
	n, ok := p.Elem().(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "net/http" && n.Obj().Name() == "Response"
}
