package prjob

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/interleave-dev/interleave/checks"
	"github.com/interleave-dev/interleave/checks/dynamic/gen"
)

// Access pairs for gen. A candidate names an access and the other side
// (its related positions: the locked write, the atomic update). The
// generated test that can confirm it calls the method holding the access
// against the method holding the other side, on one value (gen's
// Options.AccessPairs). An unexported method is reached through the
// exported methods of its type that call it (directly or through other
// unexported methods): geth's LegacyPool.Add reads pool.all, Clear
// replaces it; go-redis's hooks are read in unexported process helpers.

// typeKey names type typ declared in the package in dir.
func typeKey(dir, typ string) string {
	return filepath.Clean(dir) + "|" + typ
}

// pkgMethods is what accessPairs reads of a package: for each type, its
// methods' line spans per file, and which methods of the same type each
// method calls through its receiver.
type pkgMethods struct {
	spans map[string][]methodSpan    // file -> methods declared in it
	calls map[string]map[string]bool // typ.method -> methods of typ it calls on its receiver
	types map[string]map[string]bool // typ -> its methods
}

type methodSpan struct {
	typ, name  string
	start, end int
}

// parseMethods reads the non-test Go files of dir.
func parseMethods(dir string) *pkgMethods {
	pm := &pkgMethods{spans: map[string][]methodSpan{}, calls: map[string]map[string]bool{}, types: map[string]map[string]bool{}}
	ents, err := os.ReadDir(dir)
	if err != nil {
		return pm
	}
	for _, e := range ents {
		name := e.Name()
		if e.IsDir() || !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") || name == gen.FileName {
			continue
		}
		file := filepath.Join(dir, name)
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, file, nil, parser.SkipObjectResolution)
		if err != nil {
			continue
		}
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Recv == nil || len(fd.Recv.List) != 1 || fd.Body == nil {
				continue
			}
			typ := recvTypeName(fd.Recv.List[0].Type)
			if typ == "" {
				continue
			}
			if pm.types[typ] == nil {
				pm.types[typ] = map[string]bool{}
			}
			pm.types[typ][fd.Name.Name] = true
			pm.spans[file] = append(pm.spans[file], methodSpan{typ, fd.Name.Name, fset.Position(fd.Pos()).Line, fset.Position(fd.End()).Line})
			recv := ""
			if names := fd.Recv.List[0].Names; len(names) == 1 {
				recv = names[0].Name
			}
			key := typ + "." + fd.Name.Name
			pm.calls[key] = map[string]bool{}
			ast.Inspect(fd.Body, func(n ast.Node) bool {
				call, ok := n.(*ast.CallExpr)
				if !ok {
					return true
				}
				if sel, ok := call.Fun.(*ast.SelectorExpr); ok {
					if id, ok := sel.X.(*ast.Ident); ok && recv != "" && id.Name == recv {
						pm.calls[key][sel.Sel.Name] = true
					}
				}
				return true
			})
		}
	}
	return pm
}

// at returns the type and method whose body holds line of file.
func (pm *pkgMethods) at(file string, line int) (typ, name string, ok bool) {
	for _, s := range pm.spans[file] {
		if line >= s.start && line <= s.end {
			return s.typ, s.name, true
		}
	}
	return "", "", false
}

// entries returns the exported methods of typ that are method or reach it
// through calls on their receiver.
func (pm *pkgMethods) entries(typ, method string) []string {
	if ast.IsExported(method) {
		return []string{method}
	}
	var out []string
	for m := range pm.types[typ] {
		if !ast.IsExported(m) {
			continue
		}
		seen := map[string]bool{}
		stack := []string{m}
		for len(stack) > 0 {
			cur := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if seen[cur] {
				continue
			}
			seen[cur] = true
			if cur == method {
				out = append(out, m)
				break
			}
			for callee := range pm.calls[typ+"."+cur] {
				if pm.types[typ][callee] && !seen[callee] {
					stack = append(stack, callee)
				}
			}
		}
	}
	sort.Strings(out)
	return out
}

// candidatePairs returns, per typeKey, the pairs of exported methods that
// hold (or reach) a candidate's own position and one of its related
// positions, the same type on both sides.
func candidatePairs(cands []checks.Finding, dir string) map[string][][2]string {
	pkgs := map[string]*pkgMethods{}
	methods := func(file string) *pkgMethods {
		d := filepath.Dir(file)
		if pkgs[d] == nil {
			pkgs[d] = parseMethods(d)
		}
		return pkgs[d]
	}
	out := map[string][][2]string{}
	seen := map[string]bool{}
	for _, f := range cands {
		if f.Pos.File == "" || filepath.Base(f.Pos.File) == gen.FileName {
			continue
		}
		file := AbsIn(dir, f.Pos.File)
		pm := methods(file)
		typ, m, ok := pm.at(file, f.Pos.Line)
		if !ok {
			continue
		}
		sides := []checks.Position{}
		for _, r := range f.Related {
			sides = append(sides, r.Position)
		}
		if len(sides) == 0 {
			sides = append(sides, f.Pos) // the access against itself
		}
		for _, p := range sides {
			rfile := AbsIn(dir, p.File)
			if filepath.Dir(rfile) != filepath.Dir(file) {
				continue
			}
			rtyp, rm, ok := pm.at(rfile, p.Line)
			if !ok || rtyp != typ {
				continue
			}
			for _, a := range pm.entries(typ, m) {
				for _, b := range pm.entries(typ, rm) {
					k := typeKey(filepath.Dir(file), typ)
					id := k + "|" + a + "|" + b
					if seen[id] || seen[k+"|"+b+"|"+a] {
						continue
					}
					seen[id] = true
					out[k] = append(out[k], [2]string{a, b})
				}
			}
		}
	}
	return out
}
