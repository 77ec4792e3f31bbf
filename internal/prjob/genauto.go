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
	"github.com/interleave-dev/interleave/checks/claim"
)

// GenShare is the part of -budget that generated tests get, when the
// generated-test budget is automatic and a changed type claims thread
// safety or holds a mutex or atomic: Budget/GenShare goes to gen, the rest
// to the search.
const GenShare = 4

// splitGenBudget gives gen its automatic share of the budget when the
// change touches a type that claims safety for concurrent use.
func (r *job) splitGenBudget() {
	opts := r.opts
	r.givenBudget = opts.Budget
	if !opts.GenAuto || opts.Budget <= 0 || opts.Shard > 1 {
		return
	}
	names, guarded := claimedTypes(r.change.ModuleDir, r.change.ModulePath, r.change.Packages, r.touchedType, r.change.OnChangedLine)
	owners := candidateOwners(r.candidates, r.change.ModuleDir)
	if len(names)+len(guarded)+len(owners) == 0 {
		return
	}
	opts.GenBudget = opts.Budget / GenShare
	opts.Budget -= opts.GenBudget
	what, list := "claim safety for concurrent use", names
	if len(names) == 0 {
		what, list = "hold a mutex or atomic", guarded
	}
	if len(names)+len(guarded) == 0 {
		r.logf("gen: exported types that hold the unexported types static candidates are in: %s; %v of -budget goes to tests generated for them, %v to the affected tests (%v of it kept for gen's replays)",
			strings.Join(owners, ", "), opts.GenBudget, opts.Budget, r.genKeep())
		return
	}
	r.logf("gen: changed types that %s: %s; %v of -budget goes to tests generated for them, %v to the affected tests (%v of it kept for gen's replays)",
		what, strings.Join(list, ", "), opts.GenBudget, opts.Budget, r.genKeep())
	if len(names) > 0 && len(guarded) > 0 {
		r.logf("gen: and for the changed types that claim nothing but hold a mutex or atomic: %s", strings.Join(guarded, ", "))
	}
}

// touchedType reports whether the change touches type name of package pkg
// declared at file:line: the declaration is on a changed line or one of its
// methods changed.
func (r *job) touchedType(pkg, name, file string, line int) bool {
	if r.change.OnChangedLine(file, line) {
		return true
	}
	for _, f := range r.change.Funcs {
		if f.Test || f.Package != pkg || !strings.HasPrefix(f.Name, "(") {
			continue
		}
		recv := strings.TrimPrefix(f.Name[1:strings.Index(f.Name, ")")], "*")
		if i := strings.IndexByte(recv, '['); i >= 0 {
			recv = recv[:i]
		}
		if recv == name {
			return true
		}
	}
	return false
}

// changedMethod reports whether the change touches method name of type
// typ of package pkg: gen's goroutines call those first.
func (r *job) changedMethod(pkg, typ, name string) bool {
	for _, f := range r.change.Funcs {
		if f.Test || f.Package != pkg || !strings.HasPrefix(f.Name, "(") {
			continue
		}
		recv, method, _ := strings.Cut(f.Name[1:], ").")
		recv = strings.TrimPrefix(recv, "*")
		if i := strings.IndexByte(recv, '['); i >= 0 {
			recv = recv[:i]
		}
		if recv == typ && method == name {
			return true
		}
	}
	return false
}

// claimedTypes returns, as pkg.Type, the exported struct types of the given
// packages that touched accepts, or whose lock a changed line takes
// (lockedOnChangedLines), and whose doc comment claims safety for
// concurrent use (claimed), or that claim nothing, do not disclaim it and
// hold a mutex or an atomic (guarded, claim.Guard). It reads the source
// only (no type checking): it is a cheap look ahead of gen, which decides
// with types (gen.Target.LockedOn).
func claimedTypes(moduleDir, modulePath string, pkgs []string, touched func(pkg, name, file string, line int) bool, changedLine func(file string, line int) bool) (claimed, guarded []string) {
	for _, pkg := range pkgs {
		rel, ok := strings.CutPrefix(pkg, modulePath)
		if !ok || (rel != "" && !strings.HasPrefix(rel, "/")) {
			continue
		}
		dir := filepath.Join(moduleDir, filepath.FromSlash(strings.TrimPrefix(rel, "/")))
		entries, err := os.ReadDir(dir)
		if err != nil {
			continue
		}
		fset := token.NewFileSet()
		var files []*ast.File // the package's, for the lock wrappers claim.Guard looks into
		var paths []string
		for _, e := range entries {
			name := e.Name()
			if e.IsDir() || !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
				continue
			}
			file := filepath.Join(dir, name)
			f, err := parser.ParseFile(fset, file, nil, parser.ParseComments|parser.SkipObjectResolution)
			if err != nil || f.Name.Name == "main" {
				continue
			}
			files, paths = append(files, f), append(paths, file)
		}
		locked := lockedOnChangedLines(fset, files, paths, changedLine)
		for i, f := range files {
			file := paths[i]
			for ts, doc := range claim.StructDocs([]*ast.File{f}) {
				if !ts.Name.IsExported() || !touched(pkg, ts.Name.Name, file, fset.Position(ts.Pos()).Line) && !locked[ts.Name.Name] {
					continue
				}
				switch name := f.Name.Name + "." + ts.Name.Name; {
				case claim.Of(doc) != "":
					claimed = append(claimed, name)
				case !claim.Disclaims(doc) && claim.Guard(files, f, ts.Type.(*ast.StructType)) != "":
					guarded = append(guarded, name)
				}
			}
		}
	}
	sort.Strings(claimed)
	sort.Strings(guarded)
	return claimed, guarded
}

// candidateOwners returns, as pkg.Type, the exported struct types declared
// next to an unexported type that one of cands' accesses is a method of,
// with a field whose type names it (embedded, a pointer, a slice or map of
// it): gen tests such a candidate through them (gen's Target.Owns, which
// decides with types). It reads the source only, like claimedTypes.
func candidateOwners(cands []checks.Finding, moduleDir string) []string {
	held := map[string]map[string]bool{} // package dir -> unexported types
	for _, f := range cands {
		if f.Pos.File == "" || f.Pos.Line <= 0 {
			continue
		}
		file := AbsIn(moduleDir, f.Pos.File)
		if typ, _, ok := parseMethods(filepath.Dir(file)).at(file, f.Pos.Line); ok && !ast.IsExported(typ) {
			d := filepath.Dir(file)
			if held[d] == nil {
				held[d] = map[string]bool{}
			}
			held[d][typ] = true
		}
	}
	seen := map[string]bool{}
	var out []string
	for dir, typs := range held {
		entries, err := os.ReadDir(dir)
		if err != nil {
			continue
		}
		for _, e := range entries {
			name := e.Name()
			if e.IsDir() || !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
				continue
			}
			f, err := parser.ParseFile(token.NewFileSet(), filepath.Join(dir, name), nil, parser.SkipObjectResolution)
			if err != nil {
				continue
			}
			ast.Inspect(f, func(n ast.Node) bool {
				ts, ok := n.(*ast.TypeSpec)
				if !ok {
					return true
				}
				st, ok := ts.Type.(*ast.StructType)
				if !ok || !ts.Name.IsExported() {
					return false
				}
				for _, fld := range st.Fields.List {
					if k := f.Name.Name + "." + ts.Name.Name; namesAny(fld.Type, typs) && !seen[k] {
						seen[k] = true
						out = append(out, k)
					}
				}
				return false
			})
		}
	}
	sort.Strings(out)
	return out
}

// namesAny reports whether type expression e names one of typs.
func namesAny(e ast.Expr, typs map[string]bool) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && typs[id.Name] {
			found = true
		}
		return !found
	})
	return found
}

// lockedOnChangedLines are the struct types of a package's files whose
// lock a changed line takes through a field of another value:
// x.f.g.Lock() or RLock() where a struct of the package has a field f of
// type T or *T and T has a lock field g (logrus v1.5.0's Entry.WithFields:
// entry.Logger.mu.Lock()). By names, from the source only.
func lockedOnChangedLines(fset *token.FileSet, files []*ast.File, paths []string, changedLine func(file string, line int) bool) map[string]bool {
	fieldTypes := map[string][]string{} // field name -> the types named T or *T that fields of that name have
	lockFields := map[string]string{}   // type -> its lock field (claim.Guard)
	for _, f := range files {
		for ts := range claim.StructDocs([]*ast.File{f}) {
			st := ts.Type.(*ast.StructType)
			if g := claim.Guard(files, f, st); g != "" {
				lockFields[ts.Name.Name] = strings.Fields(g)[0]
			}
			for _, fld := range st.Fields.List {
				typ := fld.Type
				if star, ok := typ.(*ast.StarExpr); ok {
					typ = star.X
				}
				id, ok := typ.(*ast.Ident)
				if !ok {
					continue
				}
				for _, n := range fld.Names {
					fieldTypes[n.Name] = append(fieldTypes[n.Name], id.Name)
				}
			}
		}
	}
	locked := map[string]bool{}
	for i, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			lock, ok := call.Fun.(*ast.SelectorExpr)
			if !ok || lock.Sel.Name != "Lock" && lock.Sel.Name != "RLock" {
				return true
			}
			g, ok := lock.X.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			via, ok := g.X.(*ast.SelectorExpr)
			if !ok || !changedLine(paths[i], fset.Position(call.Pos()).Line) {
				return true
			}
			for _, typ := range fieldTypes[via.Sel.Name] {
				if lockFields[typ] == g.Sel.Name {
					locked[typ] = true
				}
			}
			return true
		})
	}
	return locked
}

// dropSameAccesses drops the findings of fs that repeat one in reported:
// the same two accesses (a position and a related one), or a data race one
// of whose accesses a reported finding already points at (a generated
// test's race on the read a confirmed static finding names is one bug for
// the reader, whichever write it raced with). dup counts the dropped.
func dropSameAccesses(fs, reported []checks.Finding) (kept []checks.Finding, dup int) {
	type line struct {
		file string
		n    int
	}
	at := map[line]bool{}
	pairs := map[[2]line]bool{}
	for _, f := range reported {
		pos := line{f.Pos.File, f.Pos.Line}
		at[pos] = true
		for _, rel := range f.Related {
			pairs[[2]line{pos, {rel.File, rel.Line}}] = true
		}
	}
	for _, f := range fs {
		pos := line{f.Pos.File, f.Pos.Line}
		same := f.Kind == checks.DataRace && at[pos]
		for _, rel := range f.Related {
			r := line{rel.File, rel.Line}
			same = same || pairs[[2]line{pos, r}] || f.Kind == checks.DataRace && at[r]
		}
		if same {
			dup++
			continue
		}
		kept = append(kept, f)
	}
	return kept, dup
}
