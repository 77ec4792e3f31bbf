package lockset

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/interleave-dev/interleave/internal/claim"
)

// ThreadSafeDirective marks a type as safe for concurrent use without prose.
const ThreadSafeDirective = claim.Directive

// ThreadSafeClaim returns the phrase of a doc comment that claims safety for
// concurrent use, or "" (also for a negated phrase: "not thread-safe").
func ThreadSafeClaim(cg *ast.CommentGroup) string { return claim.Of(cg) }

// ThreadSafeTypes returns the struct types declared in files whose doc
// comment claims safety for concurrent use, with the claim and the
// position of the comment that makes it.
func ThreadSafeTypes(files []*ast.File, info *types.Info) map[*types.TypeName]Claim {
	out := map[*types.TypeName]Claim{}
	for _, f := range files {
		for _, decl := range f.Decls {
			gd, ok := decl.(*ast.GenDecl)
			if !ok || gd.Tok != token.TYPE {
				continue
			}
			for _, spec := range gd.Specs {
				ts := spec.(*ast.TypeSpec)
				if _, ok := ts.Type.(*ast.StructType); !ok {
					continue
				}
				docs := ts.Doc
				if docs == nil && len(gd.Specs) == 1 {
					docs = gd.Doc
				}
				phrase := ThreadSafeClaim(docs)
				if phrase == "" {
					continue
				}
				if obj, ok := info.Defs[ts.Name].(*types.TypeName); ok {
					out[obj] = Claim{Phrase: phrase, Pos: docs.Pos(), Spec: ts}
				}
			}
		}
	}
	return out
}

// Claim is a type's documented promise of safety for concurrent use.
type Claim struct {
	Phrase string        // the phrase, or ThreadSafeDirective
	Pos    token.Pos     // the doc comment
	Spec   *ast.TypeSpec // the type's declaration
}
