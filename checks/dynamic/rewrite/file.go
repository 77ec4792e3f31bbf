package rewrite

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"go/version"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/tools/go/packages"
	"golang.org/x/tools/go/types/typeutil"
)

const rtp = rtImportName + "."

// methods maps a method (types.Func.FullName of its origin) to the runtime
// function replacing calls of it.
var methods = map[string]string{
	"(*sync.Mutex).Lock":       "Lock",
	"(*sync.Mutex).Unlock":     "Unlock",
	"(*sync.Mutex).TryLock":    "TryLock",
	"(*sync.RWMutex).Lock":     "WLock",
	"(*sync.RWMutex).Unlock":   "WUnlock",
	"(*sync.RWMutex).TryLock":  "TryWLock",
	"(*sync.RWMutex).RLock":    "RLock",
	"(*sync.RWMutex).RUnlock":  "RUnlock",
	"(*sync.RWMutex).TryRLock": "TryRLock",
	"(sync.Locker).Lock":       "LockerLock",
	"(sync.Locker).Unlock":     "LockerUnlock",
	"(*sync.WaitGroup).Add":    "WaitGroupAdd",
	"(*sync.WaitGroup).Done":   "WaitGroupDone",
	"(*sync.WaitGroup).Wait":   "WaitGroupWait",
	"(*sync.WaitGroup).Go":     "WaitGroupGo",
	"(*sync.Once).Do":          "OnceDo",
	"(*sync.Cond).Wait":        "CondWait",
	"(*sync.Cond).Signal":      "CondSignal",
	"(*sync.Cond).Broadcast":   "CondBroadcast",
	"(*sync.Pool).Get":         "PoolGet",
	"(*sync.Pool).Put":         "PoolPut",
	"(*time.Timer).Stop":       "TimerStop",
	"(*time.Timer).Reset":      "TimerReset",
	"(*time.Ticker).Stop":      "TickerStop",
	"(*time.Ticker).Reset":     "TickerReset",
	"(*testing.T).Parallel":    "Parallel",
	"(*testing.T).Run":         "Run",
}

// cleanupMethods are the spellings of t.Cleanup, rewritten to rt.Cleanup so
// that cleanups run inside the schedule.
var cleanupMethods = map[string]bool{
	"(*testing.common).Cleanup": true,
	"(testing.TB).Cleanup":      true,
}

// nameMethods are the spellings of t.Name(), rewritten to rt.TestName
// where the name is compared: under control the test runs as the driver's
// subtest, and a test that decides on its name must see go test's.
var nameMethods = map[string]bool{
	"(*testing.common).Name": true,
	"(testing.TB).Name":      true,
}

// usedBy returns the node whose operand the value of call c is (stack ends
// at c), past parentheses, and that operand (c or a ParenExpr around it).
func usedBy(c *ast.CallExpr, stack []ast.Node) (parent, child ast.Node) {
	child = c
	for i := len(stack) - 2; i >= 0; i-- {
		if p, ok := stack[i].(*ast.ParenExpr); ok {
			child = p
			continue
		}
		return stack[i], child
	}
	return nil, child
}

// compared reports whether the value of call c (stack ends at c) is
// compared: an operand of == or !=, or a switch's tag.
func compared(c *ast.CallExpr, stack []ast.Node) bool {
	parent, child := usedBy(c, stack)
	switch p := parent.(type) {
	case *ast.BinaryExpr:
		return p.Op == token.EQL || p.Op == token.NEQ
	case *ast.SwitchStmt:
		return p.Tag == child
	}
	return false
}

// inspected reports whether the value of call c (stack ends at c) is an
// argument of a function of package strings, path or path/filepath: a
// name cut or searched (a goroutine dump's "created by" of the test's own
// functions) or joined into a path (golden files), which must be go test's.
func inspected(info *types.Info, c *ast.CallExpr, stack []ast.Node) bool {
	p, child := usedBy(c, stack)
	call, ok := p.(*ast.CallExpr)
	if !ok || !slices.Contains(call.Args, child.(ast.Expr)) {
		return false
	}
	fn := typeutil.StaticCallee(info, call)
	if fn == nil || fn.Pkg() == nil || fn.Signature().Recv() != nil {
		return false
	}
	switch fn.Pkg().Path() {
	case "strings", "path", "path/filepath":
		return true
	}
	return false
}

// lateMethods are a test's reporting methods, whose receiver is passed
// through rt.Late (failures) or rt.LateLog (logs): called by a goroutine
// after its test returned, they panic as go test's do.
var lateMethods = map[string]string{}

func init() {
	for _, m := range []string{"Error", "Errorf", "Fail", "FailNow", "Fatal", "Fatalf", "Log", "Logf"} {
		fn := "Late"
		if strings.HasPrefix(m, "Log") {
			fn = "LateLog"
		}
		lateMethods["(*testing.common)."+m] = fn
		lateMethods["(testing.TB)."+m] = fn
	}
}

// funcs maps package-level functions to their runtime replacement.
var funcs = map[string]string{
	"time.Sleep":      "Sleep",
	"time.After":      "After",
	"time.Tick":       "Tick",
	"time.NewTimer":   "NewTimer",
	"time.NewTicker":  "NewTicker",
	"time.AfterFunc":  "AfterFunc",
	"runtime.Gosched": "Gosched",
	// A collection point: the shadow state lets go of dropped objects.
	"runtime.GC": "GC",
	"os.Exit":    "Exit",
	// Their once is controlled (OnceDo): re-entry is a deadlock seen.
	"sync.OnceFunc":   "OnceFunc",
	"sync.OnceValue":  "OnceValue",
	"sync.OnceValues": "OnceValues",
	// A bubble's goroutines are controlled; the clock is virtual anyway.
	"testing/synctest.Test": "SynctestTest",
	"testing/synctest.Wait": "SynctestWait",
	// Goroutine counts leave out the tool's goroutines.
	"runtime.NumGoroutine": "NumGoroutine",
	"runtime.Stack":        "Stack",
	// Counts of allocations are kept for the Result (rt's allocs.go).
	"testing.AllocsPerRun": "AllocsPerRun",
	"runtime.ReadMemStats": "ReadMemStats",
	// One clock: what reads or waits on time under control reads the
	// virtual clock (see rt's clock.go).
	"time.Now":                  "Now",
	"time.Since":                "Since",
	"time.Until":                "Until",
	"context.WithTimeout":       "WithTimeout",
	"context.WithDeadline":      "WithDeadline",
	"context.WithTimeoutCause":  "WithTimeoutCause",
	"context.WithDeadlineCause": "WithDeadlineCause",
	// Its function joins the schedule (rt's join.go).
	"context.AfterFunc": "ContextAfterFunc",
	// An address in use is told to the driver (another worker's port).
	"net.Listen": "Listen",
}

// randFuncs are math/rand's and math/rand/v2's top-level draws: under
// control they draw from a stream the schedule's seed fixes (rt's
// MathRand, MathRandV2), so a replay draws what the recording drew.
// Read stays as written; Seed (deprecated) is rt's MathRandSeed, which
// restarts that stream from the seed where Seed takes effect.
// NewSource and NewPCG take a seed read from the clock from that stream
// too (rt's NewSource), so a generator of the code's own replays.
var randFuncs = map[string]string{"math/rand/v2.N": "RandN", "math/rand.NewSource": "NewSource", "math/rand/v2.NewPCG": "NewPCG",
	"math/rand.Seed": "MathRandSeed"}

func init() {
	for _, f := range []string{"ExpFloat64", "Float32", "Float64", "Int", "Int31", "Int31n", "Int63", "Int63n",
		"Intn", "NormFloat64", "Perm", "Shuffle", "Uint32", "Uint64"} {
		randFuncs["math/rand."+f] = "MathRand." + f
	}
	for _, f := range []string{"ExpFloat64", "Float32", "Float64", "Int", "Int32", "Int32N", "Int64", "Int64N",
		"IntN", "NormFloat64", "Perm", "Shuffle", "Uint", "Uint32", "Uint32N", "Uint64", "Uint64N", "UintN"} {
		randFuncs["math/rand/v2."+f] = "MathRandV2." + f
	}
	for k, v := range randFuncs {
		funcs[k] = v
	}
}

type fileRW struct {
	editor
	p          *packages.Package
	info       *types.Info
	tf         *token.File
	f          *ast.File
	rtImport   string
	handled    map[ast.Node]bool
	removed    map[*types.PkgName]int // uses of an import dropped by rewrites
	warns      []string
	rangeOK    bool // file's language version has range-over-func
	noRTImport bool // no edit calls the runtime (goleak options only)
	// timeOnly restricts the rewrite to time operations (timeOp), as
	// for a dependency's files; viewOnly to the views of goroutines
	// (viewOp), as for a kept leak checker's.
	timeOnly bool
	viewOnly bool
}

// rewriteFile rewrites one file of p. changed is false when nothing needed
// rewriting (the file is then not overlaid).
func rewriteFile(p *packages.Package, f *ast.File, src []byte, rtImport string) (out []byte, warns []string, changed bool, err error) {
	return rewriteFileMode(p, f, src, rtImport, false)
}

// rewriteFileMode is rewriteFile; timeOnly rewrites only time operations.
func rewriteFileMode(p *packages.Package, f *ast.File, src []byte, rtImport string, timeOnly bool) (out []byte, warns []string, changed bool, err error) {
	return rewriteFileOnly(p, f, src, rtImport, timeOnly, false)
}

// rewriteFileOnly is rewriteFile; timeOnly rewrites only time operations,
// viewOnly only the views of goroutines.
func rewriteFileOnly(p *packages.Package, f *ast.File, src []byte, rtImport string, timeOnly, viewOnly bool) (out []byte, warns []string, changed bool, err error) {
	r := &fileRW{
		timeOnly: timeOnly,
		viewOnly: viewOnly,
		editor:   editor{src: src},
		p:        p,
		info:     p.TypesInfo,
		tf:       p.Fset.File(f.Pos()),
		f:        f,
		rtImport: rtImport,
		handled:  map[ast.Node]bool{},
		removed:  map[*types.PkgName]int{},
		rangeOK:  true,
	}
	if r.tf.Size() != len(src) {
		return nil, nil, false, fmt.Errorf("file changed on disk since it was loaded")
	}
	lang := fileLang(p, f)
	if lang != "" && version.IsValid(lang) && version.Compare(lang, "go1.23") < 0 {
		r.rangeOK = false
	}
	var stack []ast.Node
	ast.Inspect(f, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return true
		}
		stack = append(stack, n)
		r.visit(n, stack)
		return true
	})
	r.timerEmbeds()
	if len(r.edits) == 0 {
		return nil, r.warns, false, nil
	}
	r.fixImports()
	if lang != "" && version.IsValid(lang) && version.Compare(lang, minGo) < 0 {
		r.raiseVersion()
	}
	text := r.render(0, len(src))
	if !rtUse.MatchString(text) {
		// Only goleak's options were added: the import would be unused.
		r.noRTImport = true
		text = r.render(0, len(src))
	}
	// A rewrite that does not parse is a bug here, never the user's: say so
	// rather than hand the compiler something confusing.
	if _, perr := parser.ParseFile(token.NewFileSet(), r.tf.Name(), text, parser.SkipObjectResolution); perr != nil {
		return nil, r.warns, false, fmt.Errorf("internal error: rewritten file does not parse: %v", perr)
	}
	return []byte(text), r.warns, true, nil
}

// rtUse matches a use of the runtime's package name (not the import path
// inside goleak's options).
var rtUse = regexp.MustCompile(`(^|[^/\w])` + regexp.QuoteMeta(rtp))

func (r *fileRW) off(p token.Pos) int { return r.tf.Offset(p) }

func (r *fileRW) addNode(pos, end token.Pos, text func() string) *edit {
	return r.add(r.off(pos), r.off(end), text)
}

// rn renders a node with the rewrites inside it.
func (r *fileRW) rn(n ast.Node) string { return r.render(r.off(n.Pos()), r.off(n.End())) }

// rr renders src between two positions.
func (r *fileRW) rr(s, e token.Pos) string { return r.render(r.off(s), r.off(e)) }

func (r *fileRW) nl(s, e token.Pos) string { return r.newlines(r.off(s), r.off(e)) }

func (r *fileRW) raw(n ast.Node) string { return string(r.src[r.off(n.Pos()):r.off(n.End())]) }

func (r *fileRW) warn(pos token.Pos, format string, args ...any) {
	p := r.p.Fset.Position(pos)
	r.warns = append(r.warns, fmt.Sprintf("%s:%d: %s", p.Filename, p.Line, fmt.Sprintf(format, args...)))
}

func (r *fileRW) visit(n ast.Node, stack []ast.Node) {
	if r.timeOnly || r.viewOnly {
		switch n := n.(type) {
		case *ast.FuncDecl:
			if r.timeOnly {
				r.linkedClock(n)
			}
			return
		case *ast.CallExpr:
			if fn := r.callee(ast.Unparen(n.Fun)); fn == nil || !r.only(fn) {
				return
			}
		case *ast.SelectorExpr, *ast.Ident:
			// methodValue and the Ident case check r.interesting.
		default:
			return
		}
	}
	switch n := n.(type) {
	case *ast.FuncDecl:
		r.linkedClock(n)
	case *ast.GoStmt:
		r.goDefer(n, n.Call, true)
	case *ast.DeferStmt:
		r.goDefer(n, n.Call, false)
	case *ast.SelectStmt:
		r.selectStmt(n, stack)
	case *ast.CallExpr:
		r.call(n, stack)
	case *ast.SendStmt:
		r.send(n)
	case *ast.UnaryExpr:
		if n.Op == token.ARROW && !r.handled[n] {
			fn := "Recv"
			if _, ok := r.info.Types[n].Type.(*types.Tuple); ok {
				fn = "Recv2"
			}
			r.addNode(n.Pos(), n.End(), func() string { return rtp + fn + "(" + r.rn(n.X) + ")" })
		}
	case *ast.RangeStmt:
		if n.X != nil && mapOf(r.info.Types[n.X].Type) {
			r.mapRange(n)
			return
		}
		if n.X == nil || chanOf(r.info.Types[n.X].Type) == nil {
			return
		}
		if !r.rangeOK {
			r.oldRange(n)
			return
		}
		x := n.X
		r.addNode(x.Pos(), x.End(), func() string { return rtp + "Range(" + r.rn(x) + ")" })
	case *ast.IndexExpr:
		r.mapStore(n, stack)
	case *ast.CompositeLit:
		r.mapLit(n)
	case *ast.SelectorExpr:
		r.methodValue(n, stack)
	case *ast.Ident:
		// dot-imported function used as a value
		if len(stack) >= 2 {
			if c, ok := stack[len(stack)-2].(*ast.CallExpr); ok && ast.Unparen(c.Fun) == n {
				return
			}
			if _, ok := stack[len(stack)-2].(*ast.SelectorExpr); ok {
				return
			}
		}
		if fn, ok := r.info.Uses[n].(*types.Func); ok && r.interesting(fn) {
			if name, ok := funcs[fn.Pkg().Path()+"."+fn.Name()]; ok && fn.Type().(*types.Signature).Recv() == nil {
				r.addNode(n.Pos(), n.End(), func() string { return rtp + name })
				return
			}
			r.warn(n.Pos(), "function value %s left as written (only calls are instrumented)", fn.FullName())
		}
	}
}

// chanOf returns the channel type of t (its core type), or nil.
func chanOf(t types.Type) *types.Chan {
	if t == nil {
		return nil
	}
	if tp, ok := types.Unalias(t).(*types.TypeParam); ok {
		var ch *types.Chan
		all := true
		iface := tp.Constraint().Underlying().(*types.Interface)
		n := 0
		for i := 0; i < iface.NumEmbeddeds(); i++ {
			if u, ok := iface.EmbeddedType(i).Underlying().(*types.Union); ok {
				for j := 0; j < u.Len(); j++ {
					c, ok := u.Term(j).Type().Underlying().(*types.Chan)
					if !ok {
						all = false
					}
					ch = c
					n++
				}
			} else if c, ok := iface.EmbeddedType(i).Underlying().(*types.Chan); ok {
				ch = c
				n++
			}
		}
		if all && n > 0 {
			return ch
		}
		return nil
	}
	c, _ := t.Underlying().(*types.Chan)
	return c
}

// mapOf reports whether t is a map type or a type parameter whose type
// set holds one map type (its core type).
func mapOf(t types.Type) bool {
	if t == nil {
		return false
	}
	if tp, ok := types.Unalias(t).(*types.TypeParam); ok {
		var m types.Type
		same := true
		iface := tp.Constraint().Underlying().(*types.Interface)
		for i := 0; i < iface.NumEmbeddeds(); i++ {
			terms := []types.Type{iface.EmbeddedType(i)}
			if u, ok := iface.EmbeddedType(i).Underlying().(*types.Union); ok {
				terms = terms[:0]
				for j := 0; j < u.Len(); j++ {
					terms = append(terms, u.Term(j).Type())
				}
			}
			for _, x := range terms {
				u := x.Underlying()
				if _, isMap := u.(*types.Map); !isMap || m != nil && !types.Identical(m, u) {
					same = false
				}
				m = u
			}
		}
		return same && m != nil
	}
	_, ok := t.Underlying().(*types.Map)
	return ok
}

// mapStore wraps the key of a store into a map keyed by pointers or
// channels, or by structs, arrays or interfaces that may hold one (m[k] =
// v, m[k] op= v, m[k]++), in rt.MapKey, which numbers them when first
// stored: a range over such a map is ordered by those numbers
// (rt.sortByNum, rt.compareKeys), an order a replay meets again.
func (r *fileRW) mapStore(n *ast.IndexExpr, stack []ast.Node) {
	if len(stack) < 2 || !numberedKey(r.info.Types[n.X].Type) {
		return
	}
	switch p := stack[len(stack)-2].(type) {
	case *ast.AssignStmt:
		for _, l := range p.Lhs {
			if l == n {
				r.wrapKey(n.Index)
				return
			}
		}
	case *ast.IncDecStmt:
		if p.X == n {
			r.wrapKey(n.Index)
		}
	}
}

// mapLit wraps the keys of a map literal keyed by pointers or channels
// in rt.MapKey (mapStore). An elided key ({c, 1} for route{c, 1}, or for
// &T{...} of a pointer key) gets its type written out (keyTypeText); when
// it cannot be, the key is left as written (a range adopts it).
func (r *fileRW) mapLit(n *ast.CompositeLit) {
	t := r.info.Types[n].Type
	if !numberedKey(t) {
		return
	}
	for _, e := range n.Elts {
		kv, ok := e.(*ast.KeyValueExpr)
		if !ok {
			continue
		}
		cl, ok := kv.Key.(*ast.CompositeLit)
		if !ok || cl.Type != nil { // not elided
			r.wrapKey(kv.Key)
			continue
		}
		kt := t.Underlying().(*types.Map).Key()
		text, ok := r.keyTypeText(n, kt)
		if !ok {
			continue
		}
		r.addNode(cl.Pos(), cl.End(), func() string { return rtp + "MapKey(" + text + r.rn(cl) + ")" })
	}
}

// keyTypeText is what goes before an elided key of the map literal n,
// keyed by kt, to write it out: the literal's own map type's key ("route",
// "&T" for a pointer key *T), or else kt's name as this file spells it (a
// type of this package, or an exported one of a package it imports by
// name, not generic). ok is false when neither can be written.
func (r *fileRW) keyTypeText(n *ast.CompositeLit, kt types.Type) (string, bool) {
	ptr := false
	if p, isPtr := kt.Underlying().(*types.Pointer); isPtr {
		kt, ptr = p.Elem(), true
	}
	text := ""
	if mt, ok := n.Type.(*ast.MapType); ok {
		key := mt.Key
		if ptr {
			star, ok := ast.Unparen(key).(*ast.StarExpr)
			if !ok {
				return "", false // a named pointer type
			}
			key = star.X
		}
		text = r.raw(key)
	} else {
		named, ok := types.Unalias(kt).(*types.Named)
		if !ok || named.TypeArgs().Len() > 0 || named.Obj().Pkg() == nil || named.Obj().Parent() != named.Obj().Pkg().Scope() {
			return "", false
		}
		obj := named.Obj()
		switch {
		case obj.Pkg() == r.p.Types:
			text = obj.Name()
		case obj.Exported():
			name := r.importName(obj.Pkg())
			if name == "" {
				return "", false
			}
			text = name + "." + obj.Name()
		default:
			return "", false
		}
	}
	if ptr {
		return "&" + text, true
	}
	return text, true
}

// importName is the name this file imports pkg by ("" when it does not,
// or only as _ or .).
func (r *fileRW) importName(pkg *types.Package) string {
	for _, spec := range r.f.Imports {
		path, err := strconv.Unquote(spec.Path.Value)
		if err != nil || path != pkg.Path() {
			continue
		}
		if spec.Name == nil {
			return pkg.Name()
		}
		if spec.Name.Name != "_" && spec.Name.Name != "." {
			return spec.Name.Name
		}
	}
	return ""
}

// wrapKey wraps k in rt.MapKey, unless it is nil (no type to infer) or
// its type holds no pointer or channel (a string stored into a map keyed
// by any). MapKey's K is comparable, which an interface satisfies from
// go1.20: older files are raised to it (raiseVersion).
func (r *fileRW) wrapKey(k ast.Expr) {
	tv, ok := r.info.Types[k]
	if !ok || tv.IsNil() || tv.Type == nil || !holdsRefs(tv.Type) {
		return
	}
	r.addNode(k.Pos(), k.End(), func() string { return rtp + "MapKey(" + r.rn(k) + ")" })
}

// numberedKey: is t a map type keyed by pointers, channels or
// unsafe.Pointer, or by structs, arrays or interfaces that may hold one
// (not a type parameter's)?
func numberedKey(t types.Type) bool {
	if t == nil {
		return false
	}
	if _, isTP := types.Unalias(t).(*types.TypeParam); isTP {
		return false
	}
	m, ok := t.Underlying().(*types.Map)
	if !ok {
		return false
	}
	if _, isTP := types.Unalias(m.Key()).(*types.TypeParam); isTP {
		return false
	}
	return holdsRefs(m.Key())
}

// holdsRefs: may a value of type t hold a pointer, channel or
// unsafe.Pointer (an interface may; a type parameter is not looked into)?
func holdsRefs(t types.Type) bool {
	if _, isTP := types.Unalias(t).(*types.TypeParam); isTP {
		return false
	}
	switch u := t.Underlying().(type) {
	case *types.Pointer, *types.Chan, *types.Interface:
		return true
	case *types.Basic:
		return u.Kind() == types.UnsafePointer
	case *types.Array:
		return u.Len() > 0 && holdsRefs(u.Elem())
	case *types.Struct:
		for i := 0; i < u.NumFields(); i++ {
			if holdsRefs(u.Field(i).Type()) {
				return true
			}
		}
	}
	return false
}

// mapRange rewrites a range over a map into a three-clause loop over
// rt.MapIter (see there), whose order the schedule fixes:
//
//	for k, v := range m {      ->  for _ilit, k, v := rt.MapIter(m); _ilit.Next(&k, &v); {
//	for a[i], b = range m {    ->  for _ilit, _, _ := rt.MapIter(m); _ilit.Next(nil, nil); { a[i], b = _ilit.Key(), _ilit.Value();
//
// The variables are declared by the loop's init as the range's were (once
// per loop before go1.22, once per iteration since), the body is kept as
// written (labels, break, continue, goto, return, defer work as before),
// and no range-over-func is needed: any file from go1.20 on (older ones
// are raised to it, see raiseVersion; MapIter's K is comparable, which an
// interface key satisfies from go1.20).
func (r *fileRW) mapRange(n *ast.RangeStmt) {
	names, next, assign := "_ilit, _, _", "_ilit.Next(nil, nil)", false
	switch n.Tok {
	case token.DEFINE:
		k, v := n.Key.(*ast.Ident).Name, "_"
		if n.Value != nil {
			v = n.Value.(*ast.Ident).Name
		}
		ref := func(name string) string {
			if name == "_" {
				return "nil"
			}
			return "&" + name
		}
		names = "_ilit, " + k + ", " + v
		next = "_ilit.Next(" + ref(k) + ", " + ref(v) + ")"
	case token.ASSIGN:
		// The targets are evaluated at each iteration, as the range's.
		for _, e := range []ast.Expr{n.Key, n.Value} {
			if e != nil && strings.Contains(r.raw(e), "\n") {
				r.warn(n.Pos(), "range over map left as written: its variables span lines")
				return
			}
		}
		assign = true
	}
	x := n.X
	r.addNode(n.For, n.Body.Lbrace+1, func() string {
		a := ""
		if assign && n.Value == nil {
			a = r.rn(n.Key) + " = _ilit.Key(); "
		} else if assign {
			a = r.rn(n.Key) + ", " + r.rn(n.Value) + " = _ilit.Key(), _ilit.Value(); "
		}
		return "for " + names + " := " + r.nl(n.For, x.Pos()) + rtp + "MapIter(" + r.rn(x) + "); " + next + "; {" + a + r.nl(x.End(), n.Body.Lbrace)
	})
}

// interesting is interestingFunc, restricted to time operations in a
// time-only rewrite and to views of goroutines in a view-only one.
func (r *fileRW) interesting(fn *types.Func) bool {
	return interestingFunc(fn) && (!r.timeOnly && !r.viewOnly || r.only(fn))
}

// only reports whether a restricted rewrite rewrites calls of fn.
func (r *fileRW) only(fn *types.Func) bool {
	return r.timeOnly && (timeOp(fn) || subtestOp(fn) || cleanupOp(fn)) || r.viewOnly && viewOp(fn)
}

// cleanupOp reports whether fn registers a test's cleanup: t.Cleanup, or
// Cleanup(func()) of another interface (cleanerCleanup). Rewritten in
// dependencies too, so that a test helper's cleanup (a server it stops)
// runs inside the schedule.
func cleanupOp(fn *types.Func) bool {
	return fn != nil && cleanupMethods[fn.Origin().FullName()] || cleanerCleanup(fn)
}

// cleanerCleanup reports whether fn is the method Cleanup(func()) of an
// interface other than testing.TB (rt.CleanupCleaner): a helper's own
// interface for the test it is given.
func cleanerCleanup(fn *types.Func) bool {
	if fn == nil || fn.Name() != "Cleanup" || cleanupMethods[fn.Origin().FullName()] {
		return false
	}
	sig := fn.Type().(*types.Signature)
	if sig.Recv() == nil || !types.IsInterface(sig.Recv().Type()) {
		return false
	}
	ps := sig.Params()
	if sig.Variadic() || ps.Len() != 1 || sig.Results().Len() != 0 {
		return false
	}
	f, ok := types.Unalias(ps.At(0).Type()).(*types.Signature)
	return ok && f.Params().Len() == 0 && f.Results().Len() == 0
}

// subtestOp reports whether fn starts a subtest: (*testing.T).Run, or Run
// of an interface a *testing.T satisfies (testify's suite runs each method
// through one). Rewritten in dependencies too, so that the subtests a test
// framework starts (a suite's methods) run under control as the test's own.
func subtestOp(fn *types.Func) bool {
	return fn != nil && fn.Origin().FullName() == "(*testing.T).Run" || runnerRun(fn)
}

// runnerRun reports whether fn is the method Run(string, func(*testing.T))
// bool of an interface (rt.RunRunner).
func runnerRun(fn *types.Func) bool {
	if fn == nil || fn.Name() != "Run" {
		return false
	}
	sig := fn.Type().(*types.Signature)
	if sig.Recv() == nil || !types.IsInterface(sig.Recv().Type()) {
		return false
	}
	ps, rs := sig.Params(), sig.Results()
	if sig.Variadic() || ps.Len() != 2 || rs.Len() != 1 {
		return false
	}
	f, ok := ps.At(1).Type().Underlying().(*types.Signature)
	return types.Identical(ps.At(0).Type(), types.Typ[types.String]) &&
		types.Identical(rs.At(0).Type(), types.Typ[types.Bool]) &&
		ok && f.Params().Len() == 1 && f.Results().Len() == 0 && !f.Variadic() &&
		types.TypeString(f.Params().At(0).Type(), nil) == "*testing.T"
}

// viewOp reports whether fn shows the process's goroutines
// (runtime.Stack, runtime.NumGoroutine), which the runtime's wrappers show
// without the scheduler's own.
func viewOp(fn *types.Func) bool {
	if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != "runtime" {
		return false
	}
	return fn.Name() == "Stack" || fn.Name() == "NumGoroutine"
}

func interestingFunc(fn *types.Func) bool {
	if fn.Pkg() == nil {
		return false
	}
	sig := fn.Type().(*types.Signature)
	if sig.Recv() == nil {
		_, ok := funcs[fn.Pkg().Path()+"."+fn.Name()]
		return ok || fn.Pkg().Path() == "sync/atomic"
	}
	fn = fn.Origin()
	_, ok := methods[fn.FullName()]
	return ok || fn.Pkg().Path() == "sync/atomic"
}

// methodValue rewrites method values, method expressions and function
// values of instrumented operations (`unlock := mu.Unlock`, `go
// run(wg.Done)`, `now := time.Now`) so that calling them is controlled:
// a package function becomes its runtime twin (same signature), a method
// value binds its receiver, evaluated here, to the runtime function
// (rt.Bind), a method expression on the method's own receiver type
// becomes the runtime function. What cannot be rewritten is warned about.
func (r *fileRW) methodValue(sel *ast.SelectorExpr, stack []ast.Node) {
	if len(stack) >= 2 {
		if c, ok := stack[len(stack)-2].(*ast.CallExpr); ok && ast.Unparen(c.Fun) == sel {
			return
		}
		if p, ok := stack[len(stack)-2].(*ast.ParenExpr); ok && len(stack) >= 3 {
			if c, ok := stack[len(stack)-3].(*ast.CallExpr); ok && c.Fun == p {
				return
			}
		}
	}
	var fn *types.Func
	s := r.info.Selections[sel]
	if s != nil {
		fn, _ = s.Obj().(*types.Func)
	} else {
		fn, _ = r.info.Uses[sel.Sel].(*types.Func)
	}
	if fn == nil || !r.interesting(fn) {
		return
	}
	full := fn.Origin().FullName()
	sig := fn.Type().(*types.Signature)
	switch {
	case s == nil && sig.Recv() == nil:
		if name, ok := funcs[fn.Pkg().Path()+"."+fn.Name()]; ok {
			r.addNode(sel.Pos(), sel.End(), func() string { return rtp + name })
			r.dropPkgUse(sel)
			return
		}
	case s != nil && s.Kind() == types.MethodExpr:
		if name, ok := methods[full]; ok && types.Identical(s.Recv(), sig.Recv().Type()) {
			r.addNode(sel.Pos(), sel.End(), func() string { return rtp + name })
			r.dropPkgUses(sel.X)
			return
		}
	case s != nil && s.Kind() == types.MethodVal:
		name, ok := methods[full]
		bind := bindFor(sig)
		if !ok || bind == "" {
			break
		}
		if _, isTP := types.Unalias(s.Recv()).(*types.TypeParam); isTP {
			break // the binding's receiver type would not unify
		}
		path, ptr, ok := r.recvPath(sel, s)
		if !ok {
			break
		}
		amp := ""
		if !ptr {
			amp = "&"
		}
		r.addNode(sel.Pos(), sel.End(), func() string {
			return rtp + bind + "(" + amp + r.rn(sel.X) + path + ", " + r.nl(sel.X.End(), sel.End()) + rtp + name + ")"
		})
		return
	}
	r.warn(sel.Pos(), "method or function value %s left as written (only calls are instrumented)", full)
}

// bindFor names the rt.Bind variant for a method of signature sig, or "".
func bindFor(sig *types.Signature) string {
	switch p, res := sig.Params().Len(), sig.Results().Len(); {
	case sig.Variadic() || res > 1:
		return ""
	case p == 0 && res == 0:
		return "Bind"
	case p == 1 && res == 0:
		return "Bind1"
	case p == 0 && res == 1:
		return "BindR"
	case p == 1 && res == 1:
		return "Bind1R"
	case p == 2 && res == 1:
		return "Bind2R"
	}
	return ""
}

// callee returns the function or method a call statically calls.
func (r *fileRW) callee(fun ast.Expr) *types.Func {
	switch f := ast.Unparen(fun).(type) {
	case *ast.Ident:
		fn, _ := r.info.Uses[f].(*types.Func)
		return fn
	case *ast.SelectorExpr:
		fn, _ := r.info.Uses[f.Sel].(*types.Func)
		return fn
	}
	return nil
}

// recvPath returns how to name the receiver operand of a method call
// through sel: the embedded-field path appended to sel.X (".Mutex") and
// whether the final operand already is a pointer or interface (no & needed).
func (r *fileRW) recvPath(sel *ast.SelectorExpr, s *types.Selection) (path string, ptr bool, ok bool) {
	t := s.Recv()
	idx := s.Index()
	for _, i := range idx[:len(idx)-1] {
		u := t
		if p, isPtr := types.Unalias(u).Underlying().(*types.Pointer); isPtr {
			u = p.Elem()
		}
		st, isStruct := u.Underlying().(*types.Struct)
		if !isStruct || i >= st.NumFields() {
			return "", false, false
		}
		fld := st.Field(i)
		if !fld.Exported() && fld.Pkg() != r.p.Types {
			return "", false, false
		}
		path += "." + fld.Name()
		t = fld.Type()
	}
	switch types.Unalias(t).Underlying().(type) {
	case *types.Pointer, *types.Interface:
		ptr = true
	}
	if _, isTP := types.Unalias(t).(*types.TypeParam); isTP {
		ptr = true // a type parameter constrained by an interface (sync.Locker)
	}
	return path, ptr, true
}

// packageVar reports whether e is a package-level variable or a field of
// one, reached without a pointer.
func (r *fileRW) packageVar(e ast.Expr) bool {
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		v, ok := r.info.Uses[e].(*types.Var)
		return ok && v.Pkg() != nil && v.Parent() == v.Pkg().Scope()
	case *ast.SelectorExpr:
		if s := r.info.Selections[e]; s != nil {
			return s.Kind() == types.FieldVal && !s.Indirect() && r.packageVar(e.X)
		}
		v, ok := r.info.Uses[e.Sel].(*types.Var) // pkg.Var
		return ok && v.Pkg() != nil && v.Parent() == v.Pkg().Scope()
	}
	return false
}

// isChan reports whether t is a channel type (not a type parameter).
func isChan(t types.Type) bool {
	if t == nil {
		return false
	}
	_, ok := types.Unalias(t).Underlying().(*types.Chan)
	return ok
}

// pure reports whether evaluating e twice is harmless and its text is on
// one line: identifiers, selectors, &, *, parens, indexing by such.
func (r *fileRW) pure(e ast.Expr) bool {
	ok := true
	ast.Inspect(e, func(n ast.Node) bool {
		switch n := n.(type) {
		case nil, *ast.Ident, *ast.SelectorExpr, *ast.StarExpr, *ast.ParenExpr, *ast.IndexExpr, *ast.BasicLit:
		case *ast.UnaryExpr:
			if n.Op != token.AND {
				ok = false
			}
		default:
			ok = false
		}
		return ok
	})
	return ok && !strings.Contains(r.raw(e), "\n")
}

func (r *fileRW) call(c *ast.CallExpr, stack []ast.Node) {
	if r.handled[c] {
		return
	}
	fun := ast.Unparen(c.Fun)
	if id, ok := fun.(*ast.Ident); ok {
		if b, ok := r.info.Uses[id].(*types.Builtin); ok && b.Name() == "close" {
			r.addNode(id.Pos(), id.End(), func() string { return rtp + "Close" })
			return
		}
		if b, ok := r.info.Uses[id].(*types.Builtin); ok && b.Name() == "len" && len(c.Args) == 1 && isChan(r.info.TypeOf(c.Args[0])) {
			r.addNode(id.Pos(), id.End(), func() string { return rtp + "ChanLen" })
			return
		}
	}
	fn := r.callee(fun)
	if fn == nil || fn.Pkg() == nil {
		return
	}
	sig := fn.Type().(*types.Signature)
	if sig.Recv() == nil {
		path := fn.Pkg().Path()
		if name, ok := funcs[path+"."+fn.Name()]; ok {
			r.addNode(fun.Pos(), fun.End(), func() string { return rtp + name })
			r.dropPkgUse(fun)
			return
		}
		if path == goleakPath {
			r.goleak(c, fn)
			return
		}
		if path == "sync/atomic" && len(c.Args) > 0 {
			addr := "nil"
			if r.pure(c.Args[0]) {
				addr = r.raw(c.Args[0])
			}
			r.atomic(c, stack, addr, sig.Results().Len() == 0)
		}
		return
	}
	sel, ok := fun.(*ast.SelectorExpr)
	if !ok {
		return
	}
	s := r.info.Selections[sel]
	if s != nil && s.Kind() == types.MethodExpr {
		if name, ok := methods[fn.Origin().FullName()]; ok && types.Identical(s.Recv(), sig.Recv().Type()) {
			r.addNode(sel.Pos(), sel.End(), func() string { return rtp + name })
			r.dropPkgUses(sel.X)
			return
		}
	}
	if s == nil || s.Kind() != types.MethodVal {
		if interestingFunc(fn) {
			r.warn(c.Pos(), "method expression %s left as written", fn.Origin().FullName())
		}
		return
	}
	full := fn.Origin().FullName()
	if runnerRun(fn) {
		r.addNode(c.Pos(), c.End(), func() string {
			return rtp + "RunRunner(" + r.rn(sel.X) + ", " + r.nl(sel.X.End(), c.Lparen+1) + r.rr(c.Lparen+1, c.Rparen) + ")"
		})
		return
	}
	if cleanupMethods[full] {
		// Promoted from testing's unexported common: the receiver itself
		// (a *testing.T, *testing.B, *testing.F or a testing.TB) is passed
		// as a testing.TB.
		switch types.Unalias(r.info.TypeOf(sel.X)).Underlying().(type) {
		case *types.Pointer, *types.Interface:
		default:
			return
		}
		r.addNode(c.Pos(), c.End(), func() string {
			return rtp + "Cleanup(" + r.rn(sel.X) + ", " + r.nl(sel.X.End(), c.Lparen+1) + r.rr(c.Lparen+1, c.Rparen) + ")"
		})
		return
	}
	if cleanerCleanup(fn) {
		r.addNode(c.Pos(), c.End(), func() string {
			return rtp + "CleanupCleaner(" + r.rn(sel.X) + ", " + r.nl(sel.X.End(), c.Lparen+1) + r.rr(c.Lparen+1, c.Rparen) + ")"
		})
		return
	}
	if nameMethods[full] {
		// Only a name compared (==, !=, a switch's tag) or inspected (cut,
		// searched, joined into a path): a test that re-runs its binary
		// with -test.run=^t.Name()$ must name the driver's subtest, which
		// its child runs plainly. Only receivers that are a testing.TB as
		// they are, as for lateMethods.
		if !compared(c, stack) && !inspected(r.info, c, stack) {
			return
		}
		switch types.TypeString(r.info.TypeOf(sel.X), nil) {
		case "*testing.T", "*testing.B", "*testing.F", "testing.TB":
		default:
			return
		}
		r.addNode(c.Pos(), c.End(), func() string {
			return rtp + "TestName(" + r.rn(sel.X) + r.nl(sel.X.End(), c.End()) + ")"
		})
		return
	}
	if fn, ok := lateMethods[full]; ok {
		// Only receivers that are a testing.TB as they are (a type that
		// embeds *testing.T may not be one).
		switch types.TypeString(r.info.TypeOf(sel.X), nil) {
		case "*testing.T", "*testing.B", "*testing.F", "testing.TB":
		default:
			return
		}
		r.addNode(sel.X.Pos(), sel.X.End(), func() string {
			return rtp + fn + "(" + r.rn(sel.X) + ")"
		})
		return
	}
	if name, ok := methods[full]; ok {
		path, ptr, ok := r.recvPath(sel, s)
		if !ok {
			r.warn(c.Pos(), "%s through an inaccessible embedded field left as written", full)
			return
		}
		amp := ""
		if !ptr {
			amp = "&"
		}
		if name == "OnceDo" && !ptr && !s.Indirect() && r.packageVar(sel.X) {
			name = "OnceDoPackage" // what its function starts lives for the process
		}
		r.addNode(c.Pos(), c.End(), func() string {
			recv := amp + r.rn(sel.X) + path
			if len(c.Args) == 0 {
				return rtp + name + "(" + r.nl(sel.X.End(), c.End()) + recv + ")"
			}
			return rtp + name + "(" + recv + ", " + r.nl(sel.X.End(), c.Lparen+1) + r.rr(c.Lparen+1, c.Rparen) + ")"
		})
		return
	}
	if fn.Pkg().Path() == "sync/atomic" {
		path, ptr, ok := r.recvPath(sel, s)
		addr := "nil"
		if ok && r.pure(sel.X) {
			addr = r.raw(sel.X) + path
			if !ptr {
				addr = "&" + addr
			}
		}
		r.atomic(c, stack, addr, sig.Results().Len() == 0)
	}
}

// atomic puts a scheduling point before the atomic operation c (a load's
// point says so: a loop of loads is a polling loop).
func (r *fileRW) atomic(c *ast.CallExpr, stack []ast.Node, addr string, void bool) {
	point := rtp + "Atomic(" + addr + ")"
	if fn := r.callee(ast.Unparen(c.Fun)); fn != nil && strings.HasPrefix(fn.Name(), "Load") {
		point = rtp + "AtomicLoad(" + addr + ")"
	}
	if n := len(c.Args); n > 0 && r.schedules(c.Args...) && r.typedValue(c.Args[n-1]) {
		// The arguments' calls (n.Store(n.Load()+1)) run before the point:
		// Go evaluates them before the operation.
		last := c.Args[n-1]
		r.addNode(last.Pos(), last.End(), func() string { return rtp + "Last(" + r.rn(last) + ", " + point + ")" })
		return
	}
	var self *edit
	body := func() string { return r.render(self.pos, self.end) }
	form := "expr"
	if len(stack) >= 3 {
		if es, ok := stack[len(stack)-2].(*ast.ExprStmt); ok && es.X == c {
			form = "init"
			switch stack[len(stack)-3].(type) {
			case *ast.BlockStmt, *ast.CaseClause, *ast.CommClause, *ast.LabeledStmt:
				form = "stmt"
			}
		}
	}
	switch {
	case form == "stmt":
		self = r.addNode(c.Pos(), c.End(), func() string { return point + "; " + body() })
	case void:
		self = r.addNode(c.Pos(), c.End(), func() string { return "func() { " + point + "; " + body() + " }()" })
	default:
		self = r.addNode(c.Pos(), c.End(), func() string { return rtp + "Then(" + point + ", " + body() + ")" })
	}
}

// schedules reports whether evaluating es may run a call or a receive
// (a function literal's body is not run).
func (r *fileRW) schedules(es ...ast.Expr) bool {
	found := false
	for _, e := range es {
		ast.Inspect(e, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncLit:
				return false
			case *ast.CallExpr:
				if tv, ok := r.info.Types[n.Fun]; !ok || !tv.IsType() {
					found = true
				}
			case *ast.UnaryExpr:
				if n.Op == token.ARROW {
					found = true
				}
			}
			return !found
		})
	}
	return found
}

// typedValue reports whether e is a typed non-constant value, one a generic
// function returns with its own type.
func (r *fileRW) typedValue(e ast.Expr) bool {
	tv, ok := r.info.Types[e]
	if !ok || tv.Value != nil || !tv.IsValue() || tv.Type == nil {
		return false
	}
	if b, ok := tv.Type.(*types.Basic); ok && b.Info()&types.IsUntyped != 0 {
		return false
	}
	_, tuple := tv.Type.(*types.Tuple)
	return !tuple
}

// dropPkgUses records every package name used in e as removed (e is
// replaced as a whole).
func (r *fileRW) dropPkgUses(e ast.Expr) {
	ast.Inspect(e, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			if pn, ok := r.info.Uses[id].(*types.PkgName); ok {
				r.removed[pn]++
			}
		}
		return true
	})
}

func (r *fileRW) dropPkgUse(fun ast.Expr) {
	if sel, ok := fun.(*ast.SelectorExpr); ok {
		if id, ok := sel.X.(*ast.Ident); ok {
			if pn, ok := r.info.Uses[id].(*types.PkgName); ok {
				r.removed[pn]++
			}
		}
	}
}

func (r *fileRW) send(s *ast.SendStmt) {
	if r.handled[s] {
		return
	}
	ch := chanOf(r.info.Types[s.Chan].Type)
	if ch == nil {
		return
	}
	inst := ""
	if tv := r.info.Types[s.Value]; !tv.IsNil() && tv.Type != nil && !isUntyped(tv.Type) &&
		!types.Identical(tv.Type, ch.Elem()) {
		// Assignable but not identical (an interface element, or a
		// defined func type sent on a chan func()): name the element
		// type, or inference would pick the value's.
		te, ok := r.typeExpr(ch.Elem(), s.Pos())
		if !ok {
			r.warn(s.Pos(), "send left as written: its element type %s cannot be named here", ch.Elem())
			return
		}
		inst = "[" + te + "]"
	}
	r.addNode(s.Pos(), s.End(), func() string {
		return rtp + "Send" + inst + "(" + r.rn(s.Chan) + ", " + r.nl(s.Chan.End(), s.Value.Pos()) + r.rn(s.Value) + ")"
	})
}

func isUntyped(t types.Type) bool {
	b, ok := t.(*types.Basic)
	return ok && b.Info()&types.IsUntyped != 0
}

// typeExpr spells t as it can be written at pos in this file.
func (r *fileRW) typeExpr(t types.Type, pos token.Pos) (string, bool) {
	ok := true
	qual := func(p *types.Package) string {
		if p == r.p.Types {
			return ""
		}
		for _, spec := range r.f.Imports {
			path, _ := strconv.Unquote(spec.Path.Value)
			if path != p.Path() {
				continue
			}
			if spec.Name == nil {
				return p.Name()
			}
			if spec.Name.Name == "." {
				return ""
			}
			if spec.Name.Name != "_" {
				return spec.Name.Name
			}
		}
		ok = false
		return p.Name()
	}
	s := types.TypeString(t, qual)
	scope := r.p.Types.Scope().Innermost(pos)
	var check func(t types.Type)
	check = func(t types.Type) {
		switch t := t.(type) {
		case *types.Basic:
		case *types.Alias:
			r.checkObj(t.Obj(), scope, pos, &ok)
		case *types.Named:
			r.checkObj(t.Obj(), scope, pos, &ok)
			for i := 0; i < t.TypeArgs().Len(); i++ {
				check(t.TypeArgs().At(i))
			}
		case *types.TypeParam:
			r.checkObj(t.Obj(), scope, pos, &ok)
		case *types.Pointer:
			check(t.Elem())
		case *types.Slice:
			check(t.Elem())
		case *types.Array:
			check(t.Elem())
		case *types.Map:
			check(t.Key())
			check(t.Elem())
		case *types.Chan:
			check(t.Elem())
		case *types.Signature:
			if t.TypeParams().Len() > 0 {
				ok = false
			}
			for _, tup := range []*types.Tuple{t.Params(), t.Results()} {
				for i := 0; i < tup.Len(); i++ {
					check(tup.At(i).Type())
				}
			}
		case *types.Interface:
			if !t.Empty() {
				ok = false
			}
		default:
			ok = false
		}
	}
	check(t)
	return s, ok
}

func (r *fileRW) checkObj(obj *types.TypeName, scope *types.Scope, pos token.Pos, ok *bool) {
	if obj.Pkg() == nil {
		return // universe (error, any, comparable)
	}
	if obj.Pkg() != r.p.Types {
		if !obj.Exported() {
			*ok = false
		}
		return
	}
	if scope == nil {
		*ok = false
		return
	}
	if _, found := scope.LookupParent(obj.Name(), pos); found != obj {
		*ok = false
	}
}

// oldRange rewrites a range over a channel in a file older than go1.23
// into a three-clause loop (see rt.RangeInit).
func (r *fileRW) oldRange(n *ast.RangeStmt) {
	v, assign := "_ilv", ""
	if id, ok := n.Key.(*ast.Ident); ok && n.Tok == token.DEFINE && id.Name != "_" {
		v = id.Name
	} else if n.Key != nil && n.Tok == token.ASSIGN {
		assign = r.raw(n.Key) + " = _ilv; "
		if strings.Contains(assign, "\n") {
			r.warn(n.Pos(), "range over channel left as written: its variable spans lines")
			return
		}
	}
	x := n.X
	r.addNode(n.For, n.Body.Lbrace+1, func() string {
		return "for _ilch, " + v + ", _ilok := " + r.nl(n.For, x.Pos()) + rtp + "RangeInit(" + r.rn(x) + "); ; { if " + v + ", _ilok = " +
			rtp + "Recv2(_ilch); !_ilok { break }; _ = " + v + "; " + assign + "{" + r.nl(x.End(), n.Body.Lbrace)
	})
	r.add(r.off(n.Body.Rbrace), r.off(n.Body.Rbrace), func() string { return "}" })
}

// goleakPath is go.uber.org/goleak, whose checks would count the
// scheduler's own goroutines as leaks.
const goleakPath = "go.uber.org/goleak"

// goleak adds options to a goleak check (VerifyNone, Find, VerifyTestMain)
// that ignore the runtime's own goroutines (the scheduler and its
// short-lived helpers), which go test does not have.
func (r *fileRW) goleak(c *ast.CallExpr, fn *types.Func) {
	switch fn.Name() {
	case "VerifyNone", "Find", "VerifyTestMain":
	default:
		return
	}
	sel, ok := ast.Unparen(c.Fun).(*ast.SelectorExpr)
	var q string
	if ok {
		if id, isID := sel.X.(*ast.Ident); isID {
			if _, isPkg := r.info.Uses[id].(*types.PkgName); isPkg {
				q = id.Name
			}
		}
	}
	if q == "" || fn.Pkg().Scope().Lookup("IgnoreAnyFunction") == nil {
		r.warn(c.Pos(), "goleak.%s left as written: it may count the scheduler's goroutines as leaks (needs goleak v1.3 or later, called as goleak.%s)", fn.Name(), fn.Name())
		return
	}
	rtPkg := r.rtImport
	opts := q + ".IgnoreAnyFunction(" + strconv.Quote(rtPkg+".(*sched).loop") + "), " + q + ".IgnoreAnyFunction(" + strconv.Quote(rtPkg+".helperMain") + ")"
	switch {
	case c.Ellipsis.IsValid():
		last := c.Args[len(c.Args)-1]
		r.addNode(last.Pos(), last.End(), func() string {
			return "append(append([]" + q + ".Option(nil), " + r.rn(last) + "...), " + opts + ")"
		})
	case len(c.Args) == 0:
		r.add(r.off(c.Lparen+1), r.off(c.Lparen+1), func() string { return opts })
	default:
		last := c.Args[len(c.Args)-1]
		r.add(r.off(last.End()), r.off(last.End()), func() string { return ", " + opts })
	}
}

// timerEmbeds gives every struct type of the file that embeds *time.Timer
// or *time.Ticker its own Stop and Reset, calling the runtime's: the
// promoted methods are reached through interfaces (a clock library's
// Timer interface), where no call can be rewritten, and the standard
// methods do not know virtual timers. They are appended at the end of the
// file, which keeps every line where it was.
func (r *fileRW) timerEmbeds() {
	var b strings.Builder
	for _, d := range r.f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.TYPE {
			continue
		}
		for _, spec := range g.Specs {
			ts := spec.(*ast.TypeSpec)
			st, ok := ts.Type.(*ast.StructType)
			if !ok || ts.Assign.IsValid() {
				continue
			}
			tn, _ := r.info.Defs[ts.Name].(*types.TypeName)
			if tn == nil {
				continue
			}
			recv := ts.Name.Name
			if ts.TypeParams != nil {
				var names []string
				for _, f := range ts.TypeParams.List {
					for _, n := range f.Names {
						names = append(names, n.Name)
					}
				}
				recv += "[" + strings.Join(names, ", ") + "]"
			}
			for _, fld := range st.Fields.List {
				if len(fld.Names) != 0 {
					continue
				}
				star, ok := fld.Type.(*ast.StarExpr)
				if !ok {
					continue
				}
				sel, ok := star.X.(*ast.SelectorExpr)
				if !ok {
					continue
				}
				pkgID, ok := sel.X.(*ast.Ident)
				if !ok {
					continue
				}
				if pn, ok := r.info.Uses[pkgID].(*types.PkgName); !ok || pn.Imported().Path() != "time" {
					continue
				}
				var stop, reset string
				switch sel.Sel.Name {
				case "Timer":
					stop, reset = "func (_ilt %[1]s) Stop() bool { return %[2]sTimerStop(_ilt.Timer) }\n", "func (_ilt %[1]s) Reset(d %[3]s.Duration) bool { return %[2]sTimerReset(_ilt.Timer, d) }\n"
				case "Ticker":
					stop, reset = "func (_ilt %[1]s) Stop() { %[2]sTickerStop(_ilt.Ticker) }\n", "func (_ilt %[1]s) Reset(d %[3]s.Duration) { %[2]sTickerReset(_ilt.Ticker, d) }\n"
				default:
					continue
				}
				for i, name := range []string{"Stop", "Reset"} {
					form := []string{stop, reset}[i]
					obj, _, _ := types.LookupFieldOrMethod(tn.Type(), true, r.p.Types, name)
					fn, ok := obj.(*types.Func)
					if !ok || fn.Pkg() == nil || fn.Pkg().Path() != "time" {
						continue // the type's own method, or a field
					}
					fmt.Fprintf(&b, form, recv, rtp, pkgID.Name)
				}
			}
		}
	}
	if b.Len() == 0 {
		return
	}
	end := len(r.src)
	r.add(end, end, func() string { return "\n" + b.String() })
}

// fileLang is the language version f of p compiles with: the type
// checker's, or go1.16 when p's go.mod has no go line (the go command's
// default, which the loader does not pass on: golang.org/x/time v0.3.0's
// go.mod is such a one), or "" when unknown.
func fileLang(p *packages.Package, f *ast.File) string {
	if v := p.TypesInfo.FileVersions[f]; v != "" {
		return v
	}
	if p.Module != nil && p.Module.GoVersion == "" {
		return "go1.16"
	}
	return ""
}

// minGo is the language version the runtime's API needs in a file that
// calls it: its generic functions, whose comparable keys (MapIter,
// MapKey) an interface satisfies from go1.20. Go 1.19 and 1.20 add to the
// language without changing what older code means (go1.22's
// per-iteration loop variables would).
const minGo = "go1.20"

// raiseVersion sets the file's language version to minGo with a build
// constraint (files of older modules: robfig/cron's go.mod says go1.12).
// The file is in the build already, so its own constraint is true and is
// kept only for show. A new constraint line is followed by a line
// directive, on a line of its own (a //go: directive may open the file),
// that puts the file's first line back on line 1.
func (r *fileRW) raiseVersion() {
	for _, g := range r.f.Comments {
		if g.Pos() >= r.f.Package {
			break
		}
		for _, c := range g.List {
			if x, ok := strings.CutPrefix(c.Text, "//go:build "); ok {
				r.addNode(c.Pos(), c.End(), func() string { return "//go:build " + minGo + " && (" + strings.TrimSpace(x) + ")" })
				return
			}
		}
	}
	r.add(0, 0, func() string { return "//go:build " + minGo + "\n\n//line " + r.tf.Name() + ":1\n" })
}

// linkedClocks are the runtime's clocks a package may pull in by name
// (//go:linkname now time.now on a declaration without a body, as
// go-limiter's fasttime does), each with its signature and the rt
// function that reads the virtual clock in its stead.
var linkedClocks = map[string]struct{ sig, rt string }{
	"time.now":         {"func() (sec int64, nsec int32, mono int64)", "LinkedTimeNow"},
	"runtime.nanotime": {"func() int64", "LinkedNanotime"},
}

// linkedClock gives a body-less declaration linked to a runtime clock
// (linkedClocks) a body that reads the virtual clock, and drops its
// //go:linkname and //go:noescape lines (a declaration with a body would
// push the symbol instead). Under the scheduler a sleep moves the virtual
// clock only: go-limiter v0.7.1's TestStore_Take slept its interval and
// found no token refilled (its store read time.now), noted as the tool's
// doing.
func (r *fileRW) linkedClock(n *ast.FuncDecl) {
	if n.Body != nil || n.Recv != nil {
		return
	}
	fn, ok := r.info.Defs[n.Name].(*types.Func)
	if !ok {
		return
	}
	var target string
	var lines []*ast.Comment
	for _, g := range r.f.Comments {
		for _, c := range g.List {
			if f := strings.Fields(c.Text); len(f) == 3 && f[0] == "//go:linkname" && f[1] == n.Name.Name {
				target = f[2]
				lines = append(lines, c)
			}
		}
	}
	clock, ok := linkedClocks[target]
	if !ok || types.TypeString(fn.Type(), nil) != clock.sig {
		return
	}
	if n.Doc != nil {
		for _, c := range n.Doc.List {
			if strings.HasPrefix(c.Text, "//go:noescape") {
				lines = append(lines, c)
			}
		}
	}
	for _, c := range lines {
		r.addNode(c.Pos(), c.End(), func() string {
			return "// (interleave: " + strings.TrimPrefix(c.Text, "//") + ", read from the scheduler's clock)"
		})
	}
	end := n.Type.End()
	r.addNode(end, end, func() string { return " { return " + rtp + clock.rt + "() }" })
}
