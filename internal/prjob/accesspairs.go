package prjob

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"

	"github.com/interleave-dev/interleave/checks"
	"github.com/interleave-dev/interleave/checks/dynamic/gen"
)

// Access pairs for gen. A candidate names an access and the other side
// (its related positions: the locked write, the atomic update). The
// generated test that can confirm it calls an exported method reaching the
// method holding the access against one reaching the method holding the
// other side, on one value (gen's Options.Sides): geth's LegacyPool.Add
// reads pool.all, Clear replaces it; go-redis's hooks are read in
// unexported helpers of the unexported hooksMixin that Client embeds. gen
// finds the exported methods (and the exported types holding an
// unexported one) from the package's types; here each side is only named.

// pkgMethods is what candidateSides reads of a package: for each type,
// its methods' line spans per file.
type pkgMethods struct {
	spans map[string][]methodSpan // file -> methods declared in it
}

type methodSpan struct {
	typ, name  string
	start, end int
}

// parseMethods reads the non-test Go files of dir.
func parseMethods(dir string) *pkgMethods {
	pm := &pkgMethods{spans: map[string][]methodSpan{}}
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
			pm.spans[file] = append(pm.spans[file], methodSpan{typ, fd.Name.Name, fset.Position(fd.Pos()).Line, fset.Position(fd.End()).Line})
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

// candidateSides returns, per package directory, the two sides of each
// candidate as methods of the package's types: the method holding its own
// position and the one holding each related position (the access against
// itself when it has none). A side outside a method, or in another
// package, gives none.
func candidateSides(cands []checks.Finding, dir string) map[string][][2]gen.Method {
	pkgs := map[string]*pkgMethods{}
	methods := func(file string) *pkgMethods {
		d := filepath.Dir(file)
		if pkgs[d] == nil {
			pkgs[d] = parseMethods(d)
		}
		return pkgs[d]
	}
	out := map[string][][2]gen.Method{}
	seen := map[[2]gen.Method]bool{}
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
		others := []checks.Position{}
		for _, r := range f.Related {
			others = append(others, r.Position)
		}
		if len(others) == 0 {
			others = append(others, f.Pos) // the access against itself
		}
		for _, p := range others {
			rfile := AbsIn(dir, p.File)
			if filepath.Dir(rfile) != filepath.Dir(file) {
				continue
			}
			rtyp, rm, ok := pm.at(rfile, p.Line)
			if !ok {
				continue
			}
			pair := [2]gen.Method{{Type: typ, Name: m}, {Type: rtyp, Name: rm}}
			if seen[pair] || seen[[2]gen.Method{pair[1], pair[0]}] {
				continue
			}
			seen[pair] = true
			k := filepath.Clean(filepath.Dir(file))
			out[k] = append(out[k], pair)
		}
	}
	return out
}
