package guardedby

import (
	"go/ast"
	"go/token"
	"go/types"
	"regexp"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/interleave-dev/interleave/checks/static/internal/lockset"
)

// Annotation grammar. A guard names a mutex field of the same struct
// (mu) or of the receiver (s.mu, for function annotations).
var (
	funcGuardRe = regexp.MustCompile(`(?i)\b(?:called|call)\s+with\s+(?:the\s+)?([A-Za-z_][A-Za-z0-9_.]*)\s+(?:held|locked)` +
		`|\b(?:must|should)\s+hold\s+(?:the\s+)?([A-Za-z_][A-Za-z0-9_.]*)` +
		`|\b([A-Za-z_][A-Za-z0-9_.]*)\s+(?:must|should)\s+be\s+(?:held|locked)` +
		`|\bassumes\s+([A-Za-z_][A-Za-z0-9_.]*)\s+is\s+(?:held|locked)` +
		`|\+checklocks(read)?:([A-Za-z_][A-Za-z0-9_.]*)`)
)

// guard is a field annotation: the mutex field that guards a field.
type guard struct {
	mutex *types.Var // sibling mutex field
	pos   token.Pos  // the annotated field
}

// requirement is a function that must be called with the receiver's
// mutex held.
type requirement struct {
	mutex *types.Var // nil when the name says a lock is held but not which
	mode  lockset.Mode
	why   string // "named fooLocked" or "documented"
}

// mutexFields returns the mutex fields of struct s.
func mutexFields(s *types.Struct) []*types.Var {
	var out []*types.Var
	for i := 0; i < s.NumFields(); i++ {
		if f := s.Field(i); lockset.IsMutex(f.Type()) {
			out = append(out, f)
		}
	}
	return out
}

func fieldByName(s *types.Struct, name string) *types.Var {
	for i := 0; i < s.NumFields(); i++ {
		if s.Field(i).Name() == name {
			return s.Field(i)
		}
	}
	return nil
}

// guardName trims a receiver prefix and trailing punctuation from an
// annotated lock name: "c.mu." -> "mu" when the receiver is c.
func guardName(name, recv string) (string, bool) {
	name = strings.TrimRight(name, ".")
	if recv != "" && strings.HasPrefix(name, recv+".") {
		name = name[len(recv)+1:]
	}
	return name, name != "" && !strings.Contains(name, ".")
}

// fieldGuards collects the guarded-by annotations of struct fields.
func fieldGuards(pass *analysis.Pass) map[*types.Var]guard {
	out := map[*types.Var]guard{}
	for f, g := range lockset.FieldGuards(pass.Files, pass.TypesInfo) {
		out[f] = guard{mutex: g.Mutex, pos: g.Pos}
	}
	return out
}

// requirements collects the methods that must be called with the
// receiver's mutex held: named fooLocked, or documented as such.
func requirements(pass *analysis.Pass) map[*types.Func]requirement {
	out := map[*types.Func]requirement{}
	for _, f := range pass.Files {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Recv == nil || len(fd.Recv.List) != 1 {
				continue
			}
			fn, ok := pass.TypesInfo.Defs[fd.Name].(*types.Func)
			if !ok {
				continue
			}
			recv := fn.Signature().Recv()
			if _, isPtr := recv.Type().(*types.Pointer); !isPtr {
				continue // a value receiver copies the mutex
			}
			s, ok := lockset.StructOf(recv.Type())
			if !ok {
				continue
			}
			recvName := ""
			if names := fd.Recv.List[0].Names; len(names) == 1 {
				recvName = names[0].Name
			}
			if m := funcGuardRe.FindStringSubmatch(fd.Doc.Text()); m != nil {
				name, ok := guardName(m[1]+m[2]+m[3]+m[4]+m[6], recvName)
				if mu := fieldByName(s, name); ok && mu != nil && lockset.IsMutex(mu.Type()) {
					mode := lockset.Exclusive
					if m[5] != "" {
						mode = lockset.Shared
					}
					out[fn] = requirement{mutex: mu, mode: mode, why: "documented as requiring it"}
					continue
				}
			}
			name := fd.Name.Name
			if !strings.HasSuffix(name, "Locked") || strings.HasSuffix(name, "Unlocked") || name == "Locked" {
				continue
			}
			mus := mutexFields(s)
			if len(mus) != 1 || nestedMutex(s) {
				// Which lock is meant is unclear: the method holds one,
				// so its accesses prove nothing either way.
				out[fn] = requirement{why: "ambiguous"}
				continue
			}
			mode := lockset.Exclusive
			if strings.HasSuffix(name, "RLocked") {
				mode = lockset.Shared
			}
			if locksItself(fd.Body, recvName, mus[0]) {
				continue // fooLocked(needLock bool): the name does not bind callers
			}
			out[fn] = requirement{mutex: mus[0], mode: mode, why: "its name says the lock is held"}
		}
	}
	return out
}

// nestedMutex reports whether s has a struct-valued field (or pointer to
// struct) that carries its own mutex: c.in.Mutex next to c.mu makes
// "fooLocked" ambiguous.
func nestedMutex(s *types.Struct) bool {
	for i := 0; i < s.NumFields(); i++ {
		f := s.Field(i)
		if lockset.IsMutex(f.Type()) {
			continue
		}
		if inner, ok := lockset.StructOf(f.Type()); ok && len(mutexFields(inner)) > 0 {
			return true
		}
	}
	return false
}

// locksItself reports whether body locks the receiver's mutex mu
// (recv.mu.Lock(), recv.RLock() for an embedded mutex) anywhere.
func locksItself(body *ast.BlockStmt, recv string, mu *types.Var) bool {
	if body == nil || recv == "" {
		return false
	}
	want := recv + "." + mu.Name()
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok || found {
			return !found
		}
		sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
		if !ok {
			return true
		}
		switch sel.Sel.Name {
		case "Lock", "RLock", "TryLock", "TryRLock":
			x := types.ExprString(sel.X)
			found = x == want || mu.Embedded() && x == recv
		}
		return !found
	})
	return found
}
