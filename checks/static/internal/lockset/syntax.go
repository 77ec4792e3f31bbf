package lockset

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"
)

// Syntax maps the positions SSA instructions carry back to the source
// expressions, so diagnostics can quote the code as the user wrote it.
type Syntax struct {
	sels  map[token.Pos]*ast.SelectorExpr // by Sel position (FieldAddr, Field)
	calls map[token.Pos]*ast.CallExpr     // by Lparen (Call, Defer, Go)
}

// NewSyntax indexes the selector and call expressions of files.
func NewSyntax(files []*ast.File) *Syntax {
	s := &Syntax{sels: map[token.Pos]*ast.SelectorExpr{}, calls: map[token.Pos]*ast.CallExpr{}}
	for _, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.SelectorExpr:
				s.sels[n.Sel.Pos()] = n
			case *ast.CallExpr:
				s.calls[n.Lparen] = n
			}
			return true
		})
	}
	return s
}

// Selector returns the selector expression whose Sel is at pos.
func (s *Syntax) Selector(pos token.Pos) *ast.SelectorExpr { return s.sels[pos] }

// Call returns the call expression whose Lparen is at pos.
func (s *Syntax) Call(pos token.Pos) *ast.CallExpr { return s.calls[pos] }

// Receiver returns the source text of the receiver of the method call
// whose Lparen is at pos (c.mu for c.mu.Lock()), or "" if unknown.
func (s *Syntax) Receiver(pos token.Pos) string {
	c := s.calls[pos]
	if c == nil {
		return ""
	}
	if sel, ok := ast.Unparen(c.Fun).(*ast.SelectorExpr); ok {
		return types.ExprString(sel.X)
	}
	return ""
}

// LockName returns the source text naming h's lock: the receiver of the
// call that acquired it when known, else the path.
func (s *Syntax) LockName(h Held) string {
	if s != nil && h.Pos.IsValid() {
		if r := s.Receiver(h.Pos); r != "" {
			// An embedded mutex locked as s.Lock() is named s.Mutex.
			for _, emb := range []string{".Mutex", ".RWMutex"} {
				if strings.HasSuffix(h.Lock.Fields, emb) && !strings.HasSuffix(r, emb) {
					return r + emb
				}
			}
			return r
		}
	}
	return h.Lock.String()
}
