package gen

import (
	"go/ast"
	"go/types"
	"iter"
	"slices"
	"sort"
	"strings"

	"golang.org/x/tools/go/packages"
)

// Access pairs. A static candidate (an unguarded access of a field another
// method writes under a lock, a plain read of an atomically updated field)
// names two places: the access and the other side. A schedule confirms it
// only when the race detector fires at them, so the generated test worth
// running first calls an exported method reaching one side against one
// reaching the other, on the same value (Options.Sides, Target.Pairs):
// geth's LegacyPool.Add (reads pool.all) against Clear (replaces it under
// pool.mu). "Reaching" is the package's static call graph: a method's own
// body, the methods and functions it calls or takes the value of, those
// of the values it holds (go-redis's Client.Process reaches the
// unexported hooksMixin.processHook it embeds).
//
// When a side is in a method of an unexported type, the test goes through
// the exported types that hold a value of it (embedded, in a field, a
// slice or a map) and whose exported methods reach both sides: such an
// owner is a target even when the change did not touch it (Target.Owns).

// maxAccessPairs bounds the cases made from Target.Pairs.
const maxAccessPairs = 4

// maxOwners bounds the owner types added per unexported type.
const maxOwners = 2

// Method names a method of a type of a package, or a function (Type ""),
// exported or not: one side of a static candidate.
type Method struct{ Type, Name string }

// callGraph is a package's static calls: each function or method to the
// functions and methods of the same package its body names.
type callGraph map[*types.Func][]*types.Func

// packageFuncs yields the functions and methods of p's non-test files
// that have a body, with their declarations.
func packageFuncs(p *packages.Package) iter.Seq2[*types.Func, *ast.FuncDecl] {
	return func(yield func(*types.Func, *ast.FuncDecl) bool) {
		for _, f := range p.Syntax {
			if strings.HasSuffix(p.Fset.File(f.Pos()).Name(), "_test.go") {
				continue
			}
			for _, d := range f.Decls {
				fd, ok := d.(*ast.FuncDecl)
				if !ok || fd.Body == nil {
					continue
				}
				if fn, ok := p.TypesInfo.Defs[fd.Name].(*types.Func); ok && !yield(fn, fd) {
					return
				}
			}
		}
	}
}

// packageCalls reads p's non-test files.
func packageCalls(p *packages.Package) callGraph {
	g := callGraph{}
	for from, fd := range packageFuncs(p) {
		seen := map[*types.Func]bool{}
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			id, ok := n.(*ast.Ident)
			if !ok {
				return true
			}
			to, ok := p.TypesInfo.Uses[id].(*types.Func)
			if !ok || to.Pkg() != p.Types {
				return true
			}
			to = to.Origin()
			if !seen[to] {
				seen[to] = true
				g[from] = append(g[from], to)
			}
			return true
		})
	}
	return g
}

// dist is the number of calls from from to to (0: the same), or -1.
func (g callGraph) dist(from, to *types.Func) int {
	from, to = from.Origin(), to.Origin()
	depth := map[*types.Func]int{from: 0}
	queue := []*types.Func{from}
	for len(queue) > 0 {
		cur := queue[0]
		queue = queue[1:]
		if cur == to {
			return depth[cur]
		}
		for _, next := range g[cur] {
			if _, ok := depth[next]; !ok {
				depth[next] = depth[cur] + 1
				queue = append(queue, next)
			}
		}
	}
	return -1
}

// lookupSide returns the function or method m of p, or nil.
func lookupSide(p *packages.Package, m Method) *types.Func {
	scope := p.Types.Scope()
	if m.Type == "" {
		fn, _ := scope.Lookup(m.Name).(*types.Func)
		return fn
	}
	tn, ok := scope.Lookup(m.Type).(*types.TypeName)
	if !ok {
		return nil
	}
	named, ok := tn.Type().(*types.Named)
	if !ok {
		return nil
	}
	for i := 0; i < named.NumMethods(); i++ {
		if fn := named.Method(i); fn.Name() == m.Name {
			return fn
		}
	}
	return nil
}

// sides is a package's candidates' sides, resolved.
type sides struct {
	calls callGraph
	pairs [][2]*types.Func
	// unexported are the unexported types a side is a method of.
	unexported map[*types.TypeName]bool
}

func resolveSides(p *packages.Package, ms [][2]Method) *sides {
	s := &sides{unexported: map[*types.TypeName]bool{}}
	for _, m := range ms {
		a, b := lookupSide(p, m[0]), lookupSide(p, m[1])
		if a == nil || b == nil {
			continue
		}
		s.pairs = append(s.pairs, [2]*types.Func{a, b})
		for _, side := range m {
			if side.Type != "" && !ast.IsExported(side.Type) {
				if tn, ok := p.Types.Scope().Lookup(side.Type).(*types.TypeName); ok {
					s.unexported[tn] = true
				}
			}
		}
	}
	if len(s.pairs) == 0 {
		return nil
	}
	s.calls = packageCalls(p)
	return s
}

// setPairs fills t.Pairs with the exported methods of t reaching each side
// of s's pairs (the nearest first), and adds them to t.Focus: the cases
// that call them come first (focusFirst).
func (s *sides) setPairs(t *Target) {
	type reach struct {
		m Func
		d int
	}
	reaching := func(side *types.Func) []reach {
		var out []reach
		for _, m := range t.Methods {
			if d := s.calls.dist(m.Fn, side); d >= 0 {
				out = append(out, reach{m, d})
			}
		}
		sort.SliceStable(out, func(i, j int) bool { return out[i].d < out[j].d })
		return out
	}
	type pair struct {
		p [2]Func
		d int
	}
	var found []pair
	seen := map[[2]*types.Func]bool{}
	for _, sp := range s.pairs {
		for _, a := range reaching(sp[0]) {
			for _, b := range reaching(sp[1]) {
				if seen[[2]*types.Func{a.m.Fn, b.m.Fn}] || seen[[2]*types.Func{b.m.Fn, a.m.Fn}] {
					continue
				}
				seen[[2]*types.Func{a.m.Fn, b.m.Fn}] = true
				found = append(found, pair{[2]Func{a.m, b.m}, a.d + b.d})
			}
		}
	}
	sort.SliceStable(found, func(i, j int) bool { return found[i].d < found[j].d })
	for _, f := range found {
		t.Pairs = append(t.Pairs, f.p)
		for _, m := range f.p {
			if !slices.ContainsFunc(t.Focus, func(x Func) bool { return x.Fn == m.Fn }) {
				t.Focus = append(t.Focus, m)
			}
		}
	}
}

// owners returns the exported types of p, other than those in have, that
// hold a value of one of s's unexported types and whose exported methods
// reach both sides of one of its pairs, at most maxOwners per held type:
// those declared in the held type's file first (where a test author looks),
// then in the order of the files; sorted by name.
func (s *sides) owners(p *packages.Package, have []*Target) []*Target {
	if len(s.unexported) == 0 {
		return nil
	}
	type owner struct {
		tn   *types.TypeName
		spec *ast.TypeSpec
		doc  *ast.CommentGroup
		held *types.TypeName
	}
	var found []owner
	for _, f := range p.Syntax {
		if strings.HasSuffix(p.Fset.File(f.Pos()).Name(), "_test.go") {
			continue
		}
		for _, d := range f.Decls {
			gd, ok := d.(*ast.GenDecl)
			if !ok {
				continue
			}
			for _, spec := range gd.Specs {
				ts, ok := spec.(*ast.TypeSpec)
				if !ok {
					continue
				}
				tn, ok := p.TypesInfo.Defs[ts.Name].(*types.TypeName)
				if !ok || !tn.Exported() || slices.ContainsFunc(have, func(t *Target) bool { return t.Name == tn }) {
					continue
				}
				doc := ts.Doc
				if doc == nil {
					doc = gd.Doc
				}
				for u := range s.unexported {
					if holds(tn.Type().Underlying(), u, map[types.Type]bool{}) {
						found = append(found, owner{tn, ts, doc, u})
					}
				}
			}
		}
	}
	file := func(obj types.Object) string { return p.Fset.Position(obj.Pos()).Filename }
	sort.SliceStable(found, func(i, j int) bool {
		return file(found[i].tn) == file(found[i].held) && file(found[j].tn) != file(found[j].held)
	})
	var out []*Target
	count := map[*types.TypeName]int{} // owners per held type
	for _, o := range found {
		if count[o.held] == maxOwners || slices.ContainsFunc(out, func(t *Target) bool { return t.Name == o.tn }) {
			continue
		}
		t := newTarget(p, o.tn, o.spec, o.doc)
		if t == nil {
			continue
		}
		s.setPairs(t)
		if len(t.Pairs) == 0 {
			continue
		}
		t.Owns = o.held.Name()
		count[o.held]++
		out = append(out, t)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name.Name() < out[j].Name.Name() })
	return out
}

// holds reports whether a value of typ holds one of type u: is it, points
// to it, or has it in a field, an element or a map value.
func holds(typ types.Type, u *types.TypeName, seen map[types.Type]bool) bool {
	if seen[typ] {
		return false
	}
	seen[typ] = true
	switch x := typ.(type) {
	case *types.Named:
		if x.Obj() == u {
			return true
		}
		if x.Obj().Pkg() != u.Pkg() {
			return false
		}
		return holds(x.Underlying(), u, seen)
	case *types.Pointer:
		return holds(x.Elem(), u, seen)
	case *types.Slice:
		return holds(x.Elem(), u, seen)
	case *types.Array:
		return holds(x.Elem(), u, seen)
	case *types.Map:
		return holds(x.Elem(), u, seen)
	case *types.Struct:
		for i := 0; i < x.NumFields(); i++ {
			if holds(x.Field(i).Type(), u, seen) {
				return true
			}
		}
	}
	return false
}

// accessPairs are the cases of t.Pairs whose methods the generator can
// call on a fresh value, at most maxAccessPairs: each side in a goroutine
// of its own, the arguments drawn from one pool (the same key or handle
// in both when their types match).
func (g *Generator) accessPairs(t *Target) []*Case {
	var out []*Case
	cs := &caseState{t: t}
	for _, p := range t.Pairs {
		if len(out) == maxAccessPairs {
			break
		}
		if cs.callable(p[0]) && cs.callable(p[1]) {
			out = append(out, g.pair(t, p[0], p[1]))
		}
	}
	return out
}

// addSides gives the targets of each package of pkgs their pairs from the
// package's candidates' sides, and adds the owners of those in unexported
// types.
func addSides(pkgs []*packages.Package, targets []*Target, sidesOf func(*packages.Package) [][2]Method) []*Target {
	for _, p := range pkgs {
		if p.Types == nil || p.TypesInfo == nil {
			continue
		}
		ms := sidesOf(p)
		if len(ms) == 0 {
			continue
		}
		s := resolveSides(p, ms)
		if s == nil {
			continue
		}
		var have []*Target
		for _, t := range targets {
			if t.Pkg == p {
				s.setPairs(t)
				have = append(have, t)
			}
		}
		targets = append(targets, s.owners(p, have)...)
	}
	return targets
}
