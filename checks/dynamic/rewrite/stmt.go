package rewrite

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strconv"
	"strings"
)

// operand is one value a go or defer statement evaluates at once.
type operand struct {
	expr   ast.Expr // nil: inline text
	pre    string   // before the rendered expression (e.g. "&")
	post   string   // after it (an embedded-field path)
	name   string   // temporary it is bound to
	inline string   // text used in the body when expr is nil
	lazy   ast.Expr // or: node rendered (with its rewrites) into the body
	tuple  int      // >1: a multi-valued call spread over the parameters
}

// goDefer rewrites `go CALL` (always) and `defer CALL` (when CALL is an
// atomic operation, whose scheduling point must run when the deferred call
// runs). Function value, receiver and arguments are evaluated at the
// statement, as the original did, and bound to temporaries.
func (r *fileRW) goDefer(stmt ast.Stmt, call *ast.CallExpr, isGo bool) {
	fun := ast.Unparen(call.Fun)
	if lit, ok := fun.(*ast.FuncLit); ok && isGo && len(call.Args) == 0 && lit.Type.Results.NumFields() == 0 {
		r.addNode(stmt.Pos(), stmt.End(), func() string {
			return rtp + "Go(" + r.nl(stmt.Pos(), lit.Pos()) + r.rn(lit) + ")" + r.nl(lit.End(), stmt.End())
		})
		return
	}
	var ops []*operand
	var body func(refs []string) string
	fn := r.callee(fun)
	var sel *ast.SelectorExpr
	var s *types.Selection
	if x, ok := fun.(*ast.SelectorExpr); ok {
		sel, s = x, r.info.Selections[x]
	}
	kind := "plain"
	rtName := ""
	if fn != nil && fn.Pkg() != nil {
		if s != nil && s.Kind() == types.MethodVal {
			if name, ok := methods[fn.Origin().FullName()]; ok {
				kind, rtName = "method", name
			} else if fn.Pkg().Path() == "sync/atomic" {
				kind = "atomicMethod"
			}
		} else if fn.Type().(*types.Signature).Recv() == nil && fn.Pkg().Path() == "sync/atomic" {
			kind = "atomicFunc"
		}
	}
	if !isGo && kind != "atomicFunc" && kind != "atomicMethod" {
		return // defer of anything else: the call itself is rewritten in place
	}
	nargs := 0
	switch kind {
	case "method", "atomicMethod":
		path, ptr, ok := r.recvPath(sel, s)
		if !ok {
			r.warn(stmt.Pos(), "%s statement left as written: receiver reached through an inaccessible embedded field", stmtWord(isGo))
			r.handled[call] = true
			return
		}
		pre := ""
		if !ptr || kind == "atomicMethod" && !ptr {
			pre = "&"
		}
		ops = append(ops, &operand{expr: sel.X, pre: pre, post: path, name: "_ilr"})
		nargs = 1
	case "atomicFunc":
		if strings.Contains(r.raw(fun), "\n") {
			r.warn(stmt.Pos(), "%s statement left as written", stmtWord(isGo))
			return
		}
		ops = append(ops, &operand{inline: r.raw(fun)})
	default:
		tv := r.info.Types[fun]
		generic := false
		if fn != nil {
			if _, isIndex := fun.(*ast.IndexExpr); !isIndex {
				if _, isIndex := fun.(*ast.IndexListExpr); !isIndex {
					generic = fn.Type().(*types.Signature).TypeParams().Len() > 0
				}
			}
		}
		if tv.IsBuiltin() || generic {
			if strings.Contains(r.raw(fun), "\n") {
				r.warn(stmt.Pos(), "go statement left as written")
				return
			}
			ops = append(ops, &operand{lazy: fun})
		} else {
			ops = append(ops, &operand{expr: fun, name: "_ilf"})
		}
	}
	for i, a := range call.Args {
		tv := r.info.Types[a]
		if tv.Value != nil || tv.IsNil() {
			txt := r.raw(a)
			if strings.Contains(txt, "\n") {
				if strings.Contains(txt, "//") {
					r.warn(stmt.Pos(), "%s statement left as written (multi-line constant argument with a comment)", stmtWord(isGo))
					return
				}
				txt = strings.ReplaceAll(txt, "\n", " ")
			}
			ops = append(ops, &operand{inline: txt})
			continue
		}
		op := &operand{expr: a, name: "_ila" + strconv.Itoa(i)}
		if untypedResult(r.info, a) && tv.Type != nil && !types.Identical(tv.Type, types.Typ[types.Bool]) && !types.Identical(tv.Type, types.Typ[types.Int]) {
			// `_a := x == y` (or `1 << n`) would get the default type,
			// not the parameter's: convert to it.
			te, ok := r.typeExpr(tv.Type, a.Pos())
			if !ok {
				r.warn(stmt.Pos(), "%s statement left as written: argument type %s cannot be named here", stmtWord(isGo), tv.Type)
				return
			}
			op.pre, op.post = te+"(", ")"
		}
		if t, ok := tv.Type.(*types.Tuple); ok && t.Len() > 1 {
			op.tuple = t.Len()
		}
		ops = append(ops, op)
	}
	r.handled[call] = kind != "plain" || r.handled[call]
	spread := ""
	if call.Ellipsis.IsValid() {
		spread = "..."
	}
	body = func(refs []string) string {
		args := strings.Join(refs[nargs+boolInt(kind != "method" && kind != "atomicMethod"):], ", ") + spread
		switch kind {
		case "method":
			return rtp + rtName + "(" + strings.Join(append([]string{refs[0]}, refs[1:]...), ", ") + spread + ")"
		case "atomicMethod":
			return rtp + "Atomic(" + refs[0] + "); " + refs[0] + "." + sel.Sel.Name + "(" + args + ")"
		case "atomicFunc":
			addr := "nil"
			if len(refs) > 1 {
				addr = refs[1]
			}
			return rtp + "Atomic(" + addr + "); " + refs[0] + "(" + args + ")"
		default:
			return refs[0] + "(" + args + ")"
		}
	}
	r.addNode(stmt.Pos(), stmt.End(), func() string {
		var b strings.Builder
		var refs []string
		var names []string
		var tupleOp *operand
		for _, op := range ops {
			switch {
			case op.lazy != nil:
				refs = append(refs, r.rn(op.lazy))
			case op.expr == nil:
				refs = append(refs, op.inline)
			case op.tuple > 1:
				tupleOp = op
				for j := 0; j < op.tuple; j++ {
					refs = append(refs, op.name+"_"+strconv.Itoa(j))
				}
			default:
				refs = append(refs, op.name)
				names = append(names, op.name)
			}
		}
		tail := ""
		if isGo {
			tail = rtp + "GoCall(func() { " + body(refs) + " })"
		} else {
			tail = "defer func() { " + body(refs) + " }()"
		}
		cur := stmt.Pos()
		b.WriteString("{ ")
		if len(names) > 0 {
			b.WriteString(strings.Join(names, ", ") + " := ")
			first := true
			for _, op := range ops {
				if op.expr == nil || op.tuple > 1 {
					continue
				}
				if !first {
					b.WriteString(", ")
				}
				first = false
				b.WriteString(r.nl(cur, op.expr.Pos()) + op.pre + r.rn(op.expr) + op.post)
				cur = op.expr.End()
			}
			b.WriteString("; ")
		}
		if tupleOp != nil {
			var tn []string
			for j := 0; j < tupleOp.tuple; j++ {
				tn = append(tn, tupleOp.name+"_"+strconv.Itoa(j))
			}
			b.WriteString(strings.Join(tn, ", ") + " := " + r.nl(cur, tupleOp.expr.Pos()) + r.rn(tupleOp.expr) + "; ")
			cur = tupleOp.expr.End()
		}
		b.WriteString(tail + " }" + r.nl(cur, stmt.End()))
		return b.String()
	})
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

func stmtWord(isGo bool) string {
	if isGo {
		return "go"
	}
	return "defer"
}

// selectStmt rewrites a select into the shape documented on rt.Select. The
// channel operands are evaluated once, in source order, into temporaries on
// the select's line; each moved operand carries a /*line*/ directive naming
// its original position, and a directive after them restores the select's
// line, so positions (panics, vet) stay the original ones.
func (r *fileRW) selectStmt(s *ast.SelectStmt, stack []ast.Node) {
	type cas struct {
		ch   ast.Expr
		send bool
		val  ast.Expr // a send's value, evaluated on entry with the channels
		conv string   // a type to convert val to (untyped results)
	}
	hasDef := false
	var cases []cas
	var sendBodies []token.Pos // where each send case's body starts
	for _, cl := range s.Body.List {
		cc, ok := cl.(*ast.CommClause)
		if !ok {
			continue
		}
		switch comm := cc.Comm.(type) {
		case nil:
			hasDef = true
		case *ast.SendStmt:
			r.handled[comm] = true
			c := cas{ch: comm.Chan, send: true}
			// Go evaluates a send's value on entering the select, before
			// a case is chosen; a constant or nil may stay where it is.
			if tv := r.info.Types[comm.Value]; tv.Value == nil && !tv.IsNil() {
				c.val = comm.Value
				if untypedResult(r.info, comm.Value) && tv.Type != nil {
					if te, ok := r.typeExpr(tv.Type, comm.Value.Pos()); ok {
						c.conv = te
					} else {
						c.val = nil
					}
				}
			}
			cases = append(cases, c)
			sendBodies = append(sendBodies, cc.Colon+1)
		case *ast.ExprStmt:
			if u, ok := ast.Unparen(comm.X).(*ast.UnaryExpr); ok && u.Op == token.ARROW {
				r.handled[u] = true
				cases = append(cases, cas{ch: u.X})
			}
		case *ast.AssignStmt:
			if len(comm.Rhs) == 1 {
				if u, ok := ast.Unparen(comm.Rhs[0]).(*ast.UnaryExpr); ok && u.Op == token.ARROW {
					r.handled[u] = true
					cases = append(cases, cas{ch: u.X})
				}
			}
		}
	}
	start := s.Pos()
	if len(stack) >= 2 {
		if l, ok := stack[len(stack)-2].(*ast.LabeledStmt); ok && l.Stmt == s {
			// The temporaries' block goes around the label so that
			// `break L` still names the select; a goto L from outside
			// would then jump into the block.
			if len(cases) > 0 && gotoTarget(stack, l.Label.Name) {
				// Its communications stay marked handled: the select
				// runs as written, uncontrolled.
				r.warn(s.Pos(), "select left as written: its label is the target of a goto")
				return
			}
			start = l.Pos()
		}
	}
	// A send case's body starts after the send completed, as in Go: the
	// case joins a forwarder (see rt.PickSend) before its first statement.
	for _, at := range sendBodies {
		r.addNode(at, at, func() string { return " " + rtp + "SelectSent();" })
	}
	var self *edit
	if len(cases) == 0 {
		self = r.addNode(start, s.End(), func() string {
			return rtp + "Select(" + strconv.FormatBool(hasDef) + "); " + r.render(self.pos, self.end)
		})
		return
	}
	self = r.addNode(start, s.End(), func() string {
		var b strings.Builder
		b.WriteString("{ ")
		var names, temps, descs []string
		for i, c := range cases {
			n := "_ilc" + strconv.Itoa(i)
			names = append(names, n)
			temps = append(temps, n)
			if c.val != nil {
				temps = append(temps, "_ilv"+strconv.Itoa(i))
			}
			if c.send {
				descs = append(descs, rtp+"SendCase("+n+")")
			} else {
				descs = append(descs, rtp+"RecvCase("+n+")")
			}
		}
		b.WriteString(strings.Join(temps, ", ") + " := ")
		for i, c := range cases {
			if i > 0 {
				b.WriteString(", ")
			}
			p := r.p.Fset.Position(c.ch.Pos())
			fmt.Fprintf(&b, "/*line :%d:%d*/%s", p.Line, p.Column, r.rn(c.ch))
			if c.val != nil {
				p := r.p.Fset.Position(c.val.Pos())
				v := r.rn(c.val)
				if c.conv != "" {
					// `_v := x == y` would get the default type: convert.
					v = c.conv + "(" + v + ")"
				}
				fmt.Fprintf(&b, ", /*line :%d:%d*/%s", p.Line, p.Column, v)
			}
		}
		p := r.p.Fset.Position(start)
		fmt.Fprintf(&b, "; /*line :%d:%d*/_ilk := %sSelect(%t", p.Line, p.Column, rtp, hasDef)
		for _, d := range descs {
			b.WriteString(", " + d)
		}
		b.WriteString("); ")
		cur := start
		for i, c := range cases {
			b.WriteString(r.rr(cur, c.ch.Pos()))
			pick := "PickRecv"
			if c.send {
				pick = "PickSend"
			}
			fmt.Fprintf(&b, "%s%s(_ilk,%s %d, %s)", rtp, pick, r.nl(c.ch.Pos(), c.ch.End()), i, names[i])
			cur = c.ch.End()
			if c.val != nil {
				// The value's newlines go before the name: a newline after
				// it would end the statement.
				b.WriteString(r.rr(cur, c.val.Pos()) + "(" + r.nl(c.val.Pos(), c.val.End()) + "_ilv" + strconv.Itoa(i) + ")")
				cur = c.val.End()
			}
		}
		b.WriteString(r.rr(cur, s.End()) + " }")
		return b.String()
	})
}

// fixImports adds the runtime import (on the line of the last import
// declaration, or of the package clause) and blanks imports whose every use
// a rewrite replaced (time.Sleep, runtime.Gosched).
func (r *fileRW) fixImports() {
	imp := fmt.Sprintf("; import %s %q", rtImportName, r.rtImport)
	var last *ast.GenDecl
	for _, d := range r.f.Decls {
		if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.IMPORT {
			last = g
		}
	}
	at := r.f.Name.End()
	if last != nil {
		at = last.End()
	}
	r.add(r.off(at), r.off(at), func() string {
		if r.noRTImport {
			return ""
		}
		return imp
	})

	if len(r.removed) == 0 {
		return
	}
	uses := map[*types.PkgName]int{}
	for id, obj := range r.info.Uses {
		if pn, ok := obj.(*types.PkgName); ok && id.Pos() >= r.f.FileStart && id.Pos() <= r.f.FileEnd {
			uses[pn]++
		}
	}
	for _, spec := range r.f.Imports {
		var pn *types.PkgName
		if spec.Name != nil {
			pn, _ = r.info.Defs[spec.Name].(*types.PkgName)
		} else {
			pn, _ = r.info.Implicits[spec].(*types.PkgName)
		}
		if pn == nil || r.removed[pn] == 0 || r.removed[pn] < uses[pn] {
			continue
		}
		if spec.Name != nil {
			r.addNode(spec.Name.Pos(), spec.Name.End(), func() string { return "_" })
		} else {
			p := r.off(spec.Path.Pos())
			r.add(p, p, func() string { return "_ " })
		}
	}
}

// untypedResult reports whether e is a non-constant expression whose type
// comes from its context: a comparison or logical operation on untyped
// operands, or a shift of an untyped constant.
func untypedResult(info *types.Info, e ast.Expr) bool {
	switch e := ast.Unparen(e).(type) {
	case *ast.BinaryExpr:
		switch e.Op {
		case token.EQL, token.NEQ, token.LSS, token.LEQ, token.GTR, token.GEQ, token.LAND, token.LOR:
			return true
		case token.SHL, token.SHR:
			return info.Types[e.X].Value != nil
		}
	case *ast.UnaryExpr:
		return e.Op == token.NOT
	}
	return false
}

// gotoTarget reports whether the function enclosing the top of stack has a
// goto to label.
func gotoTarget(stack []ast.Node, label string) bool {
	var body *ast.BlockStmt
	for i := len(stack) - 1; i >= 0 && body == nil; i-- {
		switch f := stack[i].(type) {
		case *ast.FuncDecl:
			body = f.Body
		case *ast.FuncLit:
			body = f.Body
		}
	}
	found := false
	if body != nil {
		ast.Inspect(body, func(n ast.Node) bool {
			if b, ok := n.(*ast.BranchStmt); ok && b.Tok == token.GOTO && b.Label != nil && b.Label.Name == label {
				found = true
			}
			return !found
		})
	}
	return found
}
