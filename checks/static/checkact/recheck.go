package checkact

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"github.com/interleave-dev/interleave/checks/static/internal/lockregion"
	"github.com/interleave-dev/interleave/checks/static/internal/lockset"
	"github.com/interleave-dev/interleave/checks/static/internal/passutil"
)

// This file lets a second critical section that re-checks a ticket or a
// once-only phase stand for re-validation (IL4003):
//
//   - a ticket: the section leaves unless the receiver still holds this
//     call's own token (if d.closed || d.pending != sess { return }), and
//     every writer of the field, this one included, writes the ticket in
//     the same critical section (commits clear or replace it), so a
//     commit in between makes this one leave; a ticket compared with a
//     local (a generation read in the first section) must be stepped
//     (x.gen++) by every writer, since clearing a nil one changes nothing;
//   - a once-only phase: the write runs only while a field P of the same
//     value is nil or false (if m.conn != nil { return }, or inside
//     if m.conn == nil { … }) and the same section sets P, so it runs at
//     most once; every other writer of the field either runs only once P
//     is set (it tests P the other way, or tests set a field Q that is set
//     only where P is: a staged update, if len(m.pending) > 0, when P is
//     never cleared) or is the same kind of once-only step.
//
// Writers in constructors (NewT, Init) are set-up, before the value is
// shared. Only this package's non-test code is read: an exported field
// written by another package is not seen.

// section is one critical section: a mutex as written and its Lock call.
type section struct {
	lock   string
	region token.Pos
}

// fieldCheck is a test of a field made in a critical section: the field
// (rooted at root) has a known value in positions [from, to).
type fieldCheck struct {
	field *types.Var
	root  string
	zero  bool // P is nil or false there (else non-nil or true)
	// empty: a length test (len(x.P) == 0), which says nothing of nil.
	empty bool
	// token: the ticket is compared with a parameter, the caller's own
	// token; else with a local (a generation read earlier), which only a
	// step (x.T++) is sure to change.
	token    bool
	from, to token.Pos
}

// fieldWrite is a write of a field and the critical sections around it.
type fieldWrite struct {
	root    string
	pos     token.Pos
	nonZero bool // the value written is not nil or false
	step    bool // x.f++, x.f += n: a new value whatever the old one
	held    lockregion.Held
}

// sectionFacts are one function's tests and writes of fields, per
// critical section.
type sectionFacts struct {
	tickets map[section][]fieldCheck
	phases  map[section][]fieldCheck
	writes  map[*types.Var][]fieldWrite
}

func sectionsOf(held lockregion.Held) []section {
	out := make([]section, 0, len(held))
	for l, r := range held {
		if r.IsValid() {
			out = append(out, section{l, r})
		}
	}
	return out
}

// factsOf walks fd once and records its ticket and phase tests and its
// field writes with the sections they are made in.
func (pc *passContext) factsOf(fd *ast.FuncDecl) *sectionFacts {
	if f, ok := pc.facts[fd]; ok {
		return f
	}
	info := pc.pass.TypesInfo
	f := &sectionFacts{tickets: map[section][]fieldCheck{}, phases: map[section][]fieldCheck{}, writes: map[*types.Var][]fieldWrite{}}
	tickets, phases := fieldTests(info, fd)
	w := &lockregion.Walker{Info: info, Visit: func(n ast.Node, held lockregion.Held) {
		if e, ok := n.(ast.Expr); ok {
			for _, s := range sectionsOf(held) {
				f.tickets[s] = append(f.tickets[s], tickets[e]...)
				f.phases[s] = append(f.phases[s], phases[e]...)
			}
		}
		switch n := n.(type) {
		case *ast.AssignStmt:
			for i, l := range n.Lhs {
				v := fieldOf(info, l)
				if v == nil {
					continue
				}
				nonZero := n.Tok != token.ASSIGN || len(n.Rhs) != len(n.Lhs) || !isZero(info, n.Rhs[i])
				step := n.Tok == token.ADD_ASSIGN || n.Tok == token.SUB_ASSIGN
				f.writes[v] = append(f.writes[v], fieldWrite{root: rootOf(l), pos: l.Pos(), nonZero: nonZero, step: step, held: held})
			}
		case *ast.IncDecStmt:
			if v := fieldOf(info, n.X); v != nil {
				f.writes[v] = append(f.writes[v], fieldWrite{root: rootOf(n.X), pos: n.Pos(), nonZero: true, step: true, held: held})
			}
		}
	}}
	w.WalkFunc(fd.Body, lockregion.Held{})
	if pc.facts == nil {
		pc.facts = map[*ast.FuncDecl]*sectionFacts{}
	}
	pc.facts[fd] = f
	return f
}

// writesIn reports whether f writes root's field v in section s (with a
// value other than nil or false when nonZero).
func (f *sectionFacts) writesIn(v *types.Var, root string, s section, nonZero bool) bool {
	for _, w := range f.writes[v] {
		if w.root == root && w.held[s.lock] == s.region && (w.nonZero || !nonZero) {
			return true
		}
	}
	return false
}

// stepsIn reports whether f writes root's field v in section s and every
// such write is a step (x.f++).
func (f *sectionFacts) stepsIn(v *types.Var, root string, s section) bool {
	found := false
	for _, w := range f.writes[v] {
		if w.root == root && w.held[s.lock] == s.region {
			if !w.step {
				return false
			}
			found = true
		}
	}
	return found
}

// fieldOf returns the struct field a location writes: f of x.f, m of
// x.m[k]; nil for anything else.
func fieldOf(info *types.Info, e ast.Expr) *types.Var {
	e = ast.Unparen(e)
	if ix, ok := e.(*ast.IndexExpr); ok {
		e = ast.Unparen(ix.X)
	}
	sel, ok := e.(*ast.SelectorExpr)
	if !ok || passutil.RootIdent(sel) == nil {
		return nil
	}
	s := info.Selections[sel]
	if s == nil || s.Kind() != types.FieldVal {
		return nil
	}
	v, _ := s.Obj().(*types.Var)
	return v
}

// rootOf names the variable a field location starts with: x of x.f.m[k].
func rootOf(e ast.Expr) string {
	e = ast.Unparen(e)
	if ix, ok := e.(*ast.IndexExpr); ok {
		e = ast.Unparen(ix.X)
	}
	if id := passutil.RootIdent(e); id != nil {
		return id.Name
	}
	return ""
}

// isZero reports whether e is nil or false.
func isZero(info *types.Info, e ast.Expr) bool {
	tv, ok := info.Types[ast.Unparen(e)]
	if !ok {
		return false
	}
	if tv.IsNil() {
		return true
	}
	return tv.Value != nil && tv.Value.String() == "false"
}

// fieldTests maps the conditions of body's if statements to the ticket
// and phase tests they make, each valid from the test to the end of the
// block that holds the if (an if that leaves: if c { …; return }) or
// inside its body (if m.conn == nil { … }).
func fieldTests(info *types.Info, fd *ast.FuncDecl) (tickets, phases map[ast.Expr][]fieldCheck) {
	tickets, phases = map[ast.Expr][]fieldCheck{}, map[ast.Expr][]fieldCheck{}
	params := map[types.Object]bool{}
	for _, l := range fd.Type.Params.List {
		for _, n := range l.Names {
			params[info.Defs[n]] = true
		}
	}
	visitList := func(list []ast.Stmt, end token.Pos) {
		for _, st := range list {
			ifs, ok := st.(*ast.IfStmt)
			if !ok {
				continue
			}
			if lockregion.Leaves(info, ifs.Body) {
				// Every disjunct is false after the if.
				for _, d := range split(ifs.Cond, token.LOR) {
					if c, ok := ticketTest(info, d, params); ok {
						c.from, c.to = ifs.End(), end
						tickets[ifs.Cond] = append(tickets[ifs.Cond], c)
					}
					if c, ok := phaseTest(info, d); ok && !(c.empty && !c.zero) {
						c.zero = !c.zero // the test was false
						c.from, c.to = ifs.End(), end
						phases[ifs.Cond] = append(phases[ifs.Cond], c)
					}
				}
			}
			// Every conjunct is true inside the body.
			for _, d := range split(ifs.Cond, token.LAND) {
				if c, ok := phaseTest(info, d); ok && !(c.empty && c.zero) {
					c.from, c.to = ifs.Body.Pos(), ifs.Body.End()
					phases[ifs.Cond] = append(phases[ifs.Cond], c)
				}
			}
		}
	}
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.BlockStmt:
			visitList(n.List, n.End())
		case *ast.CaseClause:
			visitList(n.Body, n.End())
		case *ast.CommClause:
			visitList(n.Body, n.End())
		}
		return true
	})
	return tickets, phases
}

// split returns the operands of a chain of op (a || b || c).
func split(e ast.Expr, op token.Token) []ast.Expr {
	e = ast.Unparen(e)
	if b, ok := e.(*ast.BinaryExpr); ok && b.Op == op {
		return append(split(b.X, op), split(b.Y, op)...)
	}
	return []ast.Expr{e}
}

// ticketTest matches x.T != v (or v != x.T), v a local variable or
// parameter: the call's own token compared with the one the value holds.
func ticketTest(info *types.Info, e ast.Expr, params map[types.Object]bool) (fieldCheck, bool) {
	b, ok := e.(*ast.BinaryExpr)
	if !ok || b.Op != token.NEQ {
		return fieldCheck{}, false
	}
	for _, pair := range [][2]ast.Expr{{b.X, b.Y}, {b.Y, b.X}} {
		f := fieldOf(info, pair[0])
		id, ok := ast.Unparen(pair[1]).(*ast.Ident)
		if f == nil || !ok {
			continue
		}
		if v, ok := info.Uses[id].(*types.Var); ok && !v.IsField() && v.Parent() != nil && v.Parent() != v.Pkg().Scope() {
			return fieldCheck{field: f, root: passutil.RootIdent(pair[0]).Name, token: params[v]}, true
		}
	}
	return fieldCheck{}, false
}

// phaseTest matches x.P == nil (zero), x.P != nil, !x.P (zero) and x.P
// for a pointer, map, chan, func, interface or bool field P, and
// len(x.P) > 0, != 0 (set) or == 0 (empty) for a slice, map or chan.
func phaseTest(info *types.Info, e ast.Expr) (fieldCheck, bool) {
	if c, ok := lenTest(info, e); ok {
		return c, true
	}
	zero := false
	if u, ok := e.(*ast.UnaryExpr); ok && u.Op == token.NOT {
		e, zero = ast.Unparen(u.X), true
	}
	if b, ok := e.(*ast.BinaryExpr); ok && (b.Op == token.EQL || b.Op == token.NEQ) && !zero {
		for _, pair := range [][2]ast.Expr{{b.X, b.Y}, {b.Y, b.X}} {
			if tv, ok := info.Types[ast.Unparen(pair[1])]; ok && tv.IsNil() {
				if f := fieldOf(info, pair[0]); f != nil && !isIndex(pair[0]) {
					return fieldCheck{field: f, root: passutil.RootIdent(pair[0]).Name, zero: b.Op == token.EQL}, true
				}
			}
		}
		return fieldCheck{}, false
	}
	if f := fieldOf(info, e); f != nil && !isIndex(e) {
		if bt, ok := f.Type().Underlying().(*types.Basic); ok && bt.Kind() == types.Bool {
			return fieldCheck{field: f, root: passutil.RootIdent(e).Name, zero: zero}, true
		}
	}
	return fieldCheck{}, false
}

// lenTest matches len(x.P) > 0, len(x.P) != 0 and len(x.P) == 0 (and
// 0 < len(x.P)) for a slice, map or chan field P: non-empty means set.
func lenTest(info *types.Info, e ast.Expr) (fieldCheck, bool) {
	b, ok := ast.Unparen(e).(*ast.BinaryExpr)
	if !ok {
		return fieldCheck{}, false
	}
	x, op, y := b.X, b.Op, b.Y
	if isZeroConst(info, x) { // 0 < len(x.P)
		x, y = y, x
		switch op {
		case token.LSS:
			op = token.GTR
		case token.GTR:
			op = token.LSS
		}
	}
	if !isZeroConst(info, y) || !passutil.IsBuiltinCall(info, x, "len") {
		return fieldCheck{}, false
	}
	arg := ast.Unparen(ast.Unparen(x).(*ast.CallExpr).Args[0])
	f := fieldOf(info, arg)
	if f == nil || isIndex(arg) {
		return fieldCheck{}, false
	}
	switch f.Type().Underlying().(type) {
	case *types.Slice, *types.Map, *types.Chan:
	default:
		return fieldCheck{}, false
	}
	switch op {
	case token.GTR, token.NEQ:
		return fieldCheck{field: f, root: passutil.RootIdent(arg).Name, empty: true}, true
	case token.EQL:
		return fieldCheck{field: f, root: passutil.RootIdent(arg).Name, zero: true, empty: true}, true
	}
	return fieldCheck{}, false
}

// isZeroConst reports whether e is the constant 0.
func isZeroConst(info *types.Info, e ast.Expr) bool {
	tv, ok := info.Types[ast.Unparen(e)]
	return ok && tv.Value != nil && tv.Value.ExactString() == "0"
}

func isIndex(e ast.Expr) bool {
	_, ok := ast.Unparen(e).(*ast.IndexExpr)
	return ok
}

// setUp reports whether fd only sets up a value before it is shared: a
// constructor (NewT, newT) or an Init method.
func setUp(fd *ast.FuncDecl) bool {
	name := fd.Name.Name
	if lockset.IsConstructorName(name) {
		return true
	}
	rest, ok := strings.CutPrefix(name, "Init")
	return fd.Recv != nil && ok && (rest == "" || rest[0] >= 'A' && rest[0] <= 'Z')
}

// writers returns the non-test functions of the package that write the
// field v (with a plain write: assignment or ++/--).
func (pc *passContext) writers(v *types.Var) []*ast.FuncDecl {
	if pc.writerIdx == nil {
		pc.writerIdx = map[*types.Var][]*ast.FuncDecl{}
		for _, file := range pc.pass.Files {
			if strings.HasSuffix(pc.pass.Fset.Position(file.Pos()).Filename, "_test.go") {
				continue
			}
			for _, d := range file.Decls {
				fd, ok := d.(*ast.FuncDecl)
				if !ok || fd.Body == nil {
					continue
				}
				seen := map[*types.Var]bool{}
				ast.Inspect(fd.Body, func(n ast.Node) bool {
					var lhs []ast.Expr
					switch n := n.(type) {
					case *ast.AssignStmt:
						lhs = n.Lhs
					case *ast.IncDecStmt:
						lhs = []ast.Expr{n.X}
					case *ast.UnaryExpr:
						if n.Op == token.AND {
							lhs = []ast.Expr{n.X} // &x.f: written through the pointer, say
						}
					}
					for _, l := range lhs {
						if f := fieldOf(pc.pass.TypesInfo, l); f != nil && !seen[f] {
							seen[f] = true
							pc.writerIdx[f] = append(pc.writerIdx[f], fd)
						}
					}
					return true
				})
			}
		}
	}
	return pc.writerIdx[v]
}

// rechecked reports whether the write of field v at pos, made in the
// critical section cur of the function s.fd, follows a ticket or phase
// re-check that no write of v made while the lock was released can pass.
func (s *splitState) rechecked(v *types.Var, root string, pos token.Pos, cur section) bool {
	if v == nil {
		return false
	}
	pc := s.pc
	facts := pc.factsOf(s.fd)
	for _, c := range facts.tickets[cur] {
		if c.root == root && c.from <= pos && pos < c.to && pc.ticketed(v, c.field, c.token) {
			return true
		}
	}
	for _, c := range facts.phases[cur] {
		if c.root == root && c.zero && c.from <= pos && pos < c.to && facts.writesIn(c.field, root, cur, true) && pc.phased(v, c.field) {
			return true
		}
	}
	return false
}

// ticketed reports whether every non-constructor writer of v writes the
// ticket t in the critical section of each of its writes of v (steps it,
// unless the ticket is the caller's own token).
func (pc *passContext) ticketed(v, t *types.Var, token bool) bool {
	for _, fd := range pc.writers(v) {
		if setUp(fd) {
			continue
		}
		f := pc.factsOf(fd)
		if len(f.writes[v]) == 0 {
			return false // written through a pointer or a closure
		}
		for _, w := range f.writes[v] {
			ok := false
			for _, s := range sectionsOf(w.held) {
				if token && f.writesIn(t, w.root, s, false) || !token && f.stepsIn(t, w.root, s) {
					ok = true
				}
			}
			if !ok {
				return false
			}
		}
	}
	return true
}

// phased reports whether every non-constructor writer of v writes it
// only where the phase field p was tested in the same critical section:
// set already (it runs after the once-only step; also when a field set
// only after p, see setOnlyAfter, was tested set), or still unset with p
// set in that section (another once-only step; one of them runs).
func (pc *passContext) phased(v, p *types.Var) bool {
	for _, fd := range pc.writers(v) {
		if setUp(fd) {
			continue
		}
		f := pc.factsOf(fd)
		if len(f.writes[v]) == 0 {
			return false
		}
		for _, w := range f.writes[v] {
			ok := false
			for _, s := range sectionsOf(w.held) {
				for _, c := range f.phases[s] {
					if c.root != w.root || w.pos < c.from || c.to <= w.pos {
						continue
					}
					if c.field == p && (!c.zero || f.writesIn(p, w.root, s, true)) || c.field != p && !c.zero && pc.setOnlyAfter(c.field, p) {
						ok = true
					}
				}
			}
			if !ok {
				return false
			}
		}
	}
	return true
}

// setOnlyAfter reports whether field q is set (written other than nil or
// false) only where the latch p is set, and p, once set, is never
// cleared: every non-constructor write of p sets it, and every one of q
// that sets it is made where p was tested set in the same critical
// section (m.pending staged inside if m.conn != nil). Then q set implies
// p set: a writer that runs only while q is set runs after the once-only
// step.
func (pc *passContext) setOnlyAfter(q, p *types.Var) bool {
	for _, fd := range pc.writers(p) {
		if setUp(fd) {
			continue
		}
		f := pc.factsOf(fd)
		if len(f.writes[p]) == 0 {
			return false // written through a pointer or a closure
		}
		for _, w := range f.writes[p] {
			if !w.nonZero {
				return false // the latch is cleared
			}
		}
	}
	for _, fd := range pc.writers(q) {
		if setUp(fd) {
			continue
		}
		f := pc.factsOf(fd)
		if len(f.writes[q]) == 0 {
			return false
		}
		for _, w := range f.writes[q] {
			if !w.nonZero {
				continue
			}
			ok := false
			for _, s := range sectionsOf(w.held) {
				for _, c := range f.phases[s] {
					if c.field == p && c.root == w.root && !c.zero && c.from <= w.pos && w.pos < c.to {
						ok = true
					}
				}
			}
			if !ok {
				return false
			}
		}
	}
	return true
}
