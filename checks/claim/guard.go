// Guarded types: no claim in the doc, but a lock or an atomic among the fields.

package claim

import (
	"go/ast"
	"strconv"
	"strings"
)

// Guard returns the first field of st, declared in file f, whose type is
// sync.Mutex, sync.RWMutex or a type of sync/atomic (the field itself, not
// a pointer to it), as "name pkg.Type" ("mu sync.Mutex"), or whose type is
// one of the package's own that holds one the same way (a lock wrapper:
// logrus's `mu MutexWrap`, a struct around a sync.Mutex), as "name Type
// (inner field)"; "" when there is none. files are the package's files,
// where its own types are looked up. It reads the source only: the
// package names are each file's imports.
func Guard(files []*ast.File, f *ast.File, st *ast.StructType) string {
	g := guarder{local: map[string]localType{}, seen: map[*ast.TypeSpec]bool{}}
	for td := range typeDecls(files) {
		g.local[td.spec.Name.Name] = localType{td.file, td.spec}
	}
	return g.fields(f, st)
}

// GuardFields returns the names of every field of st that Guard would name
// (an embedded field by its type's name), in declaration order.
func GuardFields(files []*ast.File, f *ast.File, st *ast.StructType) []string {
	local := map[string]localType{}
	for td := range typeDecls(files) {
		local[td.spec.Name.Name] = localType{td.file, td.spec}
	}
	var out []string
	for _, fld := range st.Fields.List {
		g := guarder{local: local, seen: map[*ast.TypeSpec]bool{}}
		if g.typ(f, fld.Type, "") == "" {
			continue
		}
		if len(fld.Names) == 0 {
			out = append(out, embeddedName(fld.Type))
		}
		for _, n := range fld.Names {
			out = append(out, n.Name)
		}
	}
	return out
}

// embeddedName is the field name of an embedded field of type typ.
func embeddedName(typ ast.Expr) string {
	if ix, ok := typ.(*ast.IndexExpr); ok {
		typ = ix.X
	}
	switch t := typ.(type) {
	case *ast.SelectorExpr:
		return t.Sel.Name
	case *ast.Ident:
		return t.Name
	}
	return ""
}

type localType struct {
	file *ast.File
	spec *ast.TypeSpec
}

type guarder struct {
	local map[string]localType
	seen  map[*ast.TypeSpec]bool // the types looked into: a cycle ends
}

// fields is Guard for st, declared in f.
func (g *guarder) fields(f *ast.File, st *ast.StructType) string {
	for _, fld := range st.Fields.List {
		name := ""
		if len(fld.Names) > 0 {
			name = fld.Names[0].Name
		}
		if got := g.typ(f, fld.Type, name); got != "" {
			return got
		}
	}
	return ""
}

// typ returns "name T" when typ, written in f, is a lock or an atomic or
// a type of the package that holds one; name "" is an embedded field.
func (g *guarder) typ(f *ast.File, typ ast.Expr, name string) string {
	if ix, ok := typ.(*ast.IndexExpr); ok { // atomic.Pointer[T], wrap[T]
		typ = ix.X
	}
	switch t := typ.(type) {
	case *ast.SelectorExpr:
		if sync := syncType(f, t); sync != "" {
			if name == "" {
				name = t.Sel.Name
			}
			return name + " " + sync
		}
	case *ast.Ident:
		lt, ok := g.local[t.Name]
		if !ok || g.seen[lt.spec] {
			return ""
		}
		g.seen[lt.spec] = true
		inner := ""
		switch u := lt.spec.Type.(type) {
		case *ast.StructType:
			inner = g.fields(lt.file, u)
		default: // type locker sync.Mutex, type L = wrap
			inner = g.typ(lt.file, u, "")
		}
		if inner != "" {
			if name == "" {
				name = t.Name
			}
			return name + " " + t.Name + " (" + inner + ")"
		}
	}
	return ""
}

// syncType returns "sync.Mutex", "sync.RWMutex" or "atomic.T" when sel,
// written in f, names one; "" otherwise.
func syncType(f *ast.File, sel *ast.SelectorExpr) string {
	pkg, ok := sel.X.(*ast.Ident)
	if !ok {
		return ""
	}
	for _, imp := range f.Imports {
		path, _ := strconv.Unquote(imp.Path.Value)
		if path != "sync" && path != "sync/atomic" {
			continue
		}
		name := path[strings.LastIndex(path, "/")+1:]
		if imp.Name != nil {
			name = imp.Name.Name
		}
		if name != pkg.Name || path == "sync" && sel.Sel.Name != "Mutex" && sel.Sel.Name != "RWMutex" {
			continue
		}
		return path[strings.LastIndex(path, "/")+1:] + "." + sel.Sel.Name
	}
	return ""
}
