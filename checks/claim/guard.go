// Guarded types: no claim in the doc, but a lock or an atomic among the fields.

package claim

import (
	"go/ast"
	"strconv"
	"strings"
)

// Guard returns the first field of st, declared in file f, whose type is
// sync.Mutex, sync.RWMutex or a type of sync/atomic (the field itself, not
// a pointer to it), as "name pkg.Type" ("mu sync.Mutex"); "" when there is
// none. It reads the source only: the package names are f's imports.
func Guard(f *ast.File, st *ast.StructType) string {
	names := map[string]string{} // local name -> "sync" or "sync/atomic"
	for _, imp := range f.Imports {
		path, _ := strconv.Unquote(imp.Path.Value)
		if path != "sync" && path != "sync/atomic" {
			continue
		}
		name := path[strings.LastIndex(path, "/")+1:]
		if imp.Name != nil {
			name = imp.Name.Name
		}
		names[name] = path
	}
	for _, fld := range st.Fields.List {
		typ := fld.Type
		if ix, ok := typ.(*ast.IndexExpr); ok { // atomic.Pointer[T]
			typ = ix.X
		}
		sel, ok := typ.(*ast.SelectorExpr)
		if !ok {
			continue
		}
		pkg, ok := sel.X.(*ast.Ident)
		if !ok {
			continue
		}
		path := names[pkg.Name]
		if path == "" || path == "sync" && sel.Sel.Name != "Mutex" && sel.Sel.Name != "RWMutex" {
			continue
		}
		name := sel.Sel.Name // embedded
		if len(fld.Names) > 0 {
			name = fld.Names[0].Name
		}
		return name + " " + path[strings.LastIndex(path, "/")+1:] + "." + sel.Sel.Name
	}
	return ""
}
