package affected

import (
	"context"
	"fmt"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/tools/go/callgraph"
	"golang.org/x/tools/go/callgraph/cha"
	"golang.org/x/tools/go/callgraph/vta"
	"golang.org/x/tools/go/packages"
	"golang.org/x/tools/go/ssa"
	"golang.org/x/tools/go/ssa/ssautil"
)

// vtaLimit is the number of SSA functions above which the call graph is
// left at CHA: VTA's type propagation is worth its cost on the package sets
// a pull request touches, not on a whole large program.
const vtaLimit = 150_000

// affectedTests finds the tests of the changed packages and of the module
// packages that depend on them whose call graph reaches a changed function.
func (c *Change) affectedTests(ctx context.Context, buildFlags []string) error {
	patterns := c.candidatePackages()
	if len(patterns) == 0 {
		return nil
	}
	cfg := &packages.Config{
		Context:    ctx,
		Mode:       packages.LoadSyntax | packages.NeedForTest,
		Dir:        c.ModuleDir,
		Env:        append(os.Environ(), "GOWORK=off"),
		BuildFlags: buildFlags,
		Tests:      true,
	}
	pkgs, err := packages.Load(cfg, patterns...)
	if err != nil {
		return fmt.Errorf("load packages for the call graph: %w", err)
	}
	var broken []string
	for _, p := range pkgs {
		if p.IllTyped || len(p.Errors) > 0 {
			broken = append(broken, p.ID)
			path := p.PkgPath
			if p.ForTest != "" {
				path = p.ForTest
			}
			path = strings.TrimSuffix(path, ".test")
			if !slices.Contains(c.Broken, path) {
				c.Broken = append(c.Broken, path)
			}
		}
	}
	sort.Strings(c.Broken)
	if len(broken) > 0 {
		sort.Strings(broken)
		c.Notes = append(c.Notes, fmt.Sprintf("%d packages do not type-check, their tests are not considered: %s", len(broken), strings.Join(broken[:min(len(broken), 5)], ", ")))
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	prog, ssaPkgs := ssautil.Packages(pkgs, ssa.InstantiateGenerics)
	prog.Build()
	if err := ctx.Err(); err != nil {
		return err
	}
	funcs := ssautil.AllFunctions(prog)
	cg := cha.CallGraph(prog)
	if len(funcs) <= vtaLimit {
		cg = vta.CallGraph(funcs, cg)
	} else {
		c.Notes = append(c.Notes, fmt.Sprintf("call graph by class hierarchy analysis only (%d functions)", len(funcs)))
	}
	gr := newGraph(prog, funcs, cg)
	// A test that calls into a package its test package's init handed
	// closures to (Ginkgo's RunSpecs and Describe) runs those closures.
	// The internal and the external test package of one binary share the
	// framework's registry: keyed by the binary ("[p.test]").
	specs := map[*ssa.Function]*ssa.Function{} // closure -> the test it is reached from
	byBinary := map[string]map[*types.Package][]*ssa.Function{}
	for i, sp := range ssaPkgs {
		if sp == nil || !strings.Contains(pkgs[i].ID, " [") {
			continue
		}
		bin := pkgs[i].ID[strings.Index(pkgs[i].ID, " ["):]
		for p, fs := range registered(sp) {
			if byBinary[bin] == nil {
				byBinary[bin] = map[*types.Package][]*ssa.Function{}
			}
			byBinary[bin][p] = append(byBinary[bin][p], fs...)
		}
	}
	for i, sp := range ssaPkgs {
		if sp == nil || !strings.Contains(pkgs[i].ID, " [") {
			continue
		}
		regs := byBinary[pkgs[i].ID[strings.Index(pkgs[i].ID, " ["):]]
		if len(regs) == 0 {
			continue
		}
		for _, fn := range testFuncs(prog, sp) {
			if !callsInto(fn, regs) {
				continue
			}
			for _, cl := range regs {
				for _, f := range cl {
					gr.add(fn, f, 0) // a spec is the suite's subtest, as a t.Run closure
					specs[f] = fn
				}
			}
		}
	}
	targets := c.targets(prog, funcs)
	dist, next := gr.distances(targets)
	goes := gr.reaching(func(fn *ssa.Function) bool { return gr.flags[fn]&flagGo != 0 })
	syncs := gr.reaching(func(fn *ssa.Function) bool { return gr.flags[fn] != 0 })

	seen := map[string]bool{}
	for i, sp := range ssaPkgs {
		lp := pkgs[i]
		if sp == nil || !strings.Contains(lp.ID, " [") {
			continue
		}
		testPkg := strings.TrimSuffix(lp.ID[strings.Index(lp.ID, "[")+1:len(lp.ID)-1], ".test")
		for _, fn := range testFuncs(prog, sp) {
			key := testPkg + "." + fn.Name()
			if seen[key] {
				continue
			}
			d, reached := dist[fn]
			t := Test{Package: testPkg, Name: fn.Name(), Goroutines: goes[fn], Concurrent: syncs[fn]}
			switch {
			case reached:
				t.Distance = d
				target := fn
				for targets[target] == nil && next[target] != nil {
					target = next[target]
				}
				cf := targets[target]
				if cf == nil { // cannot happen: distance 0 is a target
					continue
				}
				t.Reaches = cf.Name
				switch {
				case d == 0 && cf.Test && cf.Name == fn.Name():
					t.Why = fmt.Sprintf("the test itself changed at %s:%d", cf.File, cf.FirstChange())
					if other, od := gr.nearestOther(fn, targets, cf); other != nil {
						t.Why += "; " + callsPhrase(other, od)
						t.Reaches = other.Name
					}
				case d == 0:
					t.Why = fmt.Sprintf("runs %s, changed at %s:%d", cf.Name, cf.File, cf.FirstChange())
				default:
					t.Why = callsPhrase(cf, d)
				}
				if sf := next[fn]; sf != nil && specs[sf] != nil {
					pos := prog.Fset.Position(sf.Pos())
					if rel, err := filepath.Rel(c.Root, pos.Filename); err == nil {
						pos.Filename = filepath.ToSlash(rel)
					}
					t.Why += fmt.Sprintf(" through a spec closure registered at init (%s:%d)", pos.Filename, pos.Line)
				}
			case c.declChanges[testPkg] != "":
				t.Distance = -1
				t.Why = fmt.Sprintf("in package %s, whose package-level declarations changed at %s", testPkg, c.declChanges[testPkg])
			default:
				continue
			}
			switch {
			case t.Goroutines:
				t.Why += "; starts goroutines"
			case t.Concurrent:
				t.Why += "; uses sync primitives or channels"
			default:
				t.Why += "; starts no goroutine and touches no sync primitive or channel"
			}
			t.Score = score(t)
			seen[key] = true
			c.Tests = append(c.Tests, t)
		}
	}
	sort.SliceStable(c.Tests, func(i, j int) bool { return testLess(c.Tests[i], c.Tests[j]) })
	return nil
}

// callsPhrase says how a test reaches a changed function d calls away.
func callsPhrase(cf *Func, d int) string {
	if d <= 1 {
		return fmt.Sprintf("calls %s, changed at %s:%d, directly", cf.Name, cf.File, cf.FirstChange())
	}
	return fmt.Sprintf("calls %s, changed at %s:%d, %d calls away", cf.Name, cf.File, cf.FirstChange(), d)
}

// score weighs a test for the dynamic search: nearer tests weigh more, and
// tests without concurrency almost nothing, since a scheduler has nothing
// to interleave in them.
func score(t Test) float64 {
	f := 0.05
	switch {
	case t.Goroutines:
		f = 1
	case t.Concurrent:
		f = 0.8
	}
	d := t.Distance
	if d < 0 {
		d = 4 // package-level change: as if a few calls away
	}
	return f / float64(1+d)
}

// testLess ranks tests: concurrent ones first; then by call distance
// (package-level matches last); then tests that start goroutines before
// those that only touch sync primitives; then by name.
func testLess(a, b Test) bool {
	if a.Concurrent != b.Concurrent {
		return a.Concurrent
	}
	da, db := a.Distance, b.Distance
	if da < 0 {
		da = 1 << 30
	}
	if db < 0 {
		db = 1 << 30
	}
	if da != db {
		return da < db
	}
	if a.Goroutines != b.Goroutines {
		return a.Goroutines
	}
	if a.Package != b.Package {
		return a.Package < b.Package
	}
	return a.Name < b.Name
}

// candidatePackages returns the changed packages and the module packages
// that import them, directly or not; packages whose tests alone import a
// changed package are included without propagating further.
func (c *Change) candidatePackages() []string {
	if c.mod == nil {
		return nil
	}
	rev := map[string][]string{}
	testRev := map[string][]string{}
	for _, p := range c.mod.pkgs {
		for _, imp := range p.Imports {
			rev[imp] = append(rev[imp], p.ImportPath)
		}
		for _, imp := range append(append([]string(nil), p.TestImports...), p.XTestImports...) {
			testRev[imp] = append(testRev[imp], p.ImportPath)
		}
	}
	in := map[string]bool{}
	queue := append([]string(nil), c.Packages...)
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		if in[p] || c.mod.byPath[p] == nil {
			continue
		}
		in[p] = true
		queue = append(queue, rev[p]...)
	}
	for p := range in {
		for _, q := range testRev[p] {
			if c.mod.byPath[q] != nil {
				in[q] = true
			}
		}
	}
	out := make([]string, 0, len(in))
	for p := range in {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}

// targets maps each SSA function whose source contains a changed line to
// the changed Func it belongs to.
func (c *Change) targets(prog *ssa.Program, funcs map[*ssa.Function]bool) map[*ssa.Function]*Func {
	byFile := map[string][]*Func{}
	for i := range c.Funcs {
		f := &c.Funcs[i]
		abs := filepath.Join(c.Root, filepath.FromSlash(f.File))
		byFile[abs] = append(byFile[abs], f)
	}
	out := map[*ssa.Function]*Func{}
	for fn := range funcs {
		syn := fn.Syntax()
		if syn == nil || fn.Blocks == nil {
			continue
		}
		start, end := prog.Fset.Position(syn.Pos()), prog.Fset.Position(syn.End())
		for _, f := range byFile[start.Filename] {
			if start.Line < f.Line || start.Line > f.EndLine {
				continue
			}
			if len(intersect(f.Changed, start.Line, end.Line)) > 0 {
				out[fn] = f
			}
		}
	}
	return out
}

// testFuncs returns the Test functions of an SSA test package, sorted.
func testFuncs(prog *ssa.Program, pkg *ssa.Package) []*ssa.Function {
	var out []*ssa.Function
	for name, m := range pkg.Members {
		fn, ok := m.(*ssa.Function)
		if !ok || !isTestName(name) || fn.Blocks == nil {
			continue
		}
		if !strings.HasSuffix(prog.Fset.Position(fn.Pos()).Filename, "_test.go") {
			continue
		}
		sig := fn.Signature
		if sig.Params().Len() != 1 || sig.Results().Len() != 0 || sig.TypeParams().Len() != 0 {
			continue
		}
		if ptr, ok := sig.Params().At(0).Type().(*types.Pointer); !ok || types.TypeString(ptr.Elem(), nil) != "testing.T" {
			continue
		}
		out = append(out, fn)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name() < out[j].Name() })
	return out
}

// isTestName reports whether name is a test name for go test: Test, or
// Test followed by a character that is not a lower-case letter.
func isTestName(name string) bool {
	rest, ok := strings.CutPrefix(name, "Test")
	if !ok {
		return false
	}
	if rest == "" {
		return true
	}
	r, _ := utf8.DecodeRuneInString(rest)
	return !unicode.IsLower(r)
}

// Concurrency flags of one function's own body.
const (
	flagGo   = 1 << iota // has a go statement
	flagSync             // touches sync, sync/atomic or channels
)

// graph is the call graph plus "creates a closure / takes a function value"
// edges, so that t.Run(func...) and callbacks count as reaching.
type graph struct {
	out   map[*ssa.Function][]edge
	in    map[*ssa.Function][]edge
	flags map[*ssa.Function]int
}

// edge has weight 0 for a closure defined inside its caller (its code is the
// caller's code) and 1 for a call.
type edge struct {
	fn     *ssa.Function
	weight int
}

func newGraph(prog *ssa.Program, funcs map[*ssa.Function]bool, cg *callgraph.Graph) *graph {
	g := &graph{out: map[*ssa.Function][]edge{}, in: map[*ssa.Function][]edge{}, flags: map[*ssa.Function]int{}}
	add := g.add
	for fn, n := range cg.Nodes {
		if fn == nil {
			continue
		}
		for _, e := range n.Out {
			add(fn, e.Callee.Func, 1)
		}
	}
	for fn := range funcs {
		if fn.Blocks == nil {
			continue
		}
		for _, anon := range fn.AnonFuncs {
			add(fn, anon, 0)
		}
		flags := 0
		var ops []*ssa.Value
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				flags |= instrFlags(instr)
				ops = instr.Operands(ops[:0])
				for _, op := range ops {
					if op == nil {
						continue
					}
					if f, ok := (*op).(*ssa.Function); ok {
						if _, isAnon := instr.(*ssa.MakeClosure); !isAnon || f.Parent() != fn {
							add(fn, f, 1)
						}
					}
				}
			}
		}
		if flags != 0 {
			g.flags[fn] = flags
		}
	}
	return g
}

// add adds an edge of weight w.
func (g *graph) add(from, to *ssa.Function, w int) {
	if from == nil || to == nil || from == to {
		return
	}
	g.out[from] = append(g.out[from], edge{to, w})
	g.in[to] = append(g.in[to], edge{from, w})
}

// instrFlags classifies one instruction.
func instrFlags(instr ssa.Instruction) int {
	switch x := instr.(type) {
	case *ssa.Go:
		return flagGo
	case *ssa.Send, *ssa.Select, *ssa.MakeChan:
		return flagSync
	case *ssa.UnOp:
		if x.Op == token.ARROW {
			return flagSync
		}
	case ssa.CallInstruction:
		common := x.Common()
		var pkg *types.Package
		if callee := common.StaticCallee(); callee != nil {
			if callee.Object() != nil {
				pkg = callee.Object().Pkg()
			} else if o := callee.Origin(); o != nil && o.Object() != nil {
				pkg = o.Object().Pkg()
			}
		} else if common.Method != nil {
			pkg = common.Method.Pkg()
			if named, ok := types.Unalias(common.Value.Type()).(*types.Named); ok && named.Obj().Pkg() != nil {
				pkg = named.Obj().Pkg() // sync.Locker
			}
		}
		if pkg != nil && (pkg.Path() == "sync" || pkg.Path() == "sync/atomic") {
			return flagSync
		}
		if b, ok := common.Value.(*ssa.Builtin); ok && b.Name() == "close" {
			return flagSync
		}
	}
	return 0
}

// distances computes, for each function, the fewest calls to a target
// (0-1 BFS backwards from the targets) and the next function on such a
// shortest path.
func (g *graph) distances(targets map[*ssa.Function]*Func) (map[*ssa.Function]int, map[*ssa.Function]*ssa.Function) {
	dist := map[*ssa.Function]int{}
	next := map[*ssa.Function]*ssa.Function{}
	// Deterministic order: targets sorted by position.
	ts := make([]*ssa.Function, 0, len(targets))
	for fn := range targets {
		ts = append(ts, fn)
	}
	sort.Slice(ts, func(i, j int) bool {
		if ts[i].Pos() != ts[j].Pos() {
			return ts[i].Pos() < ts[j].Pos()
		}
		return ts[i].String() < ts[j].String()
	})
	// Level by level: weight-0 edges extend the current level, weight-1
	// edges feed the next one.
	cur := ts
	for _, fn := range ts {
		dist[fn] = 0
	}
	for d := 0; len(cur) > 0; d++ {
		var nxt []*ssa.Function
		for i := 0; i < len(cur); i++ {
			fn := cur[i]
			if dist[fn] != d {
				continue // improved later at a lower level, already expanded
			}
			for _, e := range g.in[fn] {
				nd := d + e.weight
				if old, ok := dist[e.fn]; ok && old <= nd {
					continue
				}
				dist[e.fn] = nd
				next[e.fn] = fn
				if e.weight == 0 {
					cur = append(cur, e.fn)
				} else {
					nxt = append(nxt, e.fn)
				}
			}
		}
		cur = nxt
	}
	return dist, next
}

// nearestOther finds, for a test that changed itself, the nearest changed
// function other than the test (forward 0-1 BFS), so the reason can say
// what changed code the test exercises.
func (g *graph) nearestOther(test *ssa.Function, targets map[*ssa.Function]*Func, own *Func) (*Func, int) {
	dist := map[*ssa.Function]int{test: 0}
	cur := []*ssa.Function{test}
	for d := 0; len(cur) > 0; d++ {
		var nxt []*ssa.Function
		var best *Func
		for i := 0; i < len(cur); i++ {
			fn := cur[i]
			if dist[fn] != d {
				continue
			}
			if cf := targets[fn]; cf != nil && cf != own {
				// Several at the same distance: the first by position.
				if best == nil || cf.File < best.File || cf.File == best.File && cf.Line < best.Line {
					best = cf
				}
				continue
			}
			for _, e := range g.out[fn] {
				nd := d + e.weight
				if old, ok := dist[e.fn]; ok && old <= nd {
					continue
				}
				dist[e.fn] = nd
				if e.weight == 0 {
					cur = append(cur, e.fn)
				} else {
					nxt = append(nxt, e.fn)
				}
			}
		}
		if best != nil {
			return best, d
		}
		cur = nxt
	}
	return nil, 0
}

// reaching returns the functions from which a function satisfying p is
// reachable (including those functions themselves).
func (g *graph) reaching(p func(*ssa.Function) bool) map[*ssa.Function]bool {
	out := map[*ssa.Function]bool{}
	var stack []*ssa.Function
	for fn := range g.flags {
		if p(fn) {
			out[fn] = true
			stack = append(stack, fn)
		}
	}
	for len(stack) > 0 {
		fn := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, e := range g.in[fn] {
			if !out[e.fn] {
				out[e.fn] = true
				stack = append(stack, e.fn)
			}
		}
	}
	return out
}
