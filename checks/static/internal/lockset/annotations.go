package lockset

import (
	"go/ast"
	"go/token"
	"go/types"
	"regexp"
	"strings"
)

// Field annotation grammar: "guarded by mu", "protected by mu" (in the
// field's doc or line comment) and gVisor's "+checklocks:mu". A comment
// that says "also guarded by" names a second guard and is ignored, and
// one that says "not guarded by" is a disclaimer, not an annotation.
var (
	fieldGuardRe = regexp.MustCompile(`(?i)\b(?:guarded|protected)\s+by\s+(?:the\s+)?([A-Za-z_][A-Za-z0-9_.]*)|\+checklocks:([A-Za-z_][A-Za-z0-9_.]*)`)
	alsoRe       = regexp.MustCompile(`(?i)\b(?:also|not)\s+(?:guarded|protected)\s+by`)
)

// Guard is the mutex a field is annotated as guarded by.
type Guard struct {
	Mutex *types.Var // a mutex field of the same struct
	Pos   token.Pos  // the annotated field's name
	Doc   token.Pos  // the comment that documents the guard (DocGuards)
	How   string     // ByAnnotation, ByBlock or ByName (DocGuards)
}

// FieldGuards returns the guarded-by annotations of the struct fields
// declared in files. Annotations naming anything but a sibling mutex
// field are ignored.
func FieldGuards(files []*ast.File, info *types.Info) map[*types.Var]Guard {
	out := map[*types.Var]Guard{}
	for _, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			st, ok := n.(*ast.StructType)
			if !ok {
				return true
			}
			tst, ok := info.Types[st].Type.(*types.Struct)
			if !ok {
				return true
			}
			for _, fld := range st.Fields.List {
				text := fld.Doc.Text() + "\n" + fld.Comment.Text()
				m := fieldGuardRe.FindStringSubmatch(text)
				if m == nil || alsoRe.MatchString(text) {
					continue
				}
				name := strings.TrimRight(m[1]+m[2], ".")
				var mu *types.Var
				for i := 0; i < tst.NumFields(); i++ {
					if tst.Field(i).Name() == name {
						mu = tst.Field(i)
					}
				}
				if mu == nil || !IsMutex(mu.Type()) {
					continue
				}
				for _, id := range fld.Names {
					if v, ok := info.Defs[id].(*types.Var); ok {
						out[v] = Guard{Mutex: mu, Pos: id.Pos(), Doc: fld.Pos(), How: ByAnnotation}
					}
				}
			}
			return true
		})
	}
	return out
}
