package lockset

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/interleave-dev/interleave/checks/claim"
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
	for _, t := range claim.Types(files, info) {
		out[t.Name] = Claim{Phrase: t.Phrase, Pos: t.Doc.Pos(), Spec: t.Spec}
	}
	return out
}

// Claim is a type's documented promise of safety for concurrent use.
type Claim struct {
	Phrase string        // the phrase, or ThreadSafeDirective
	Pos    token.Pos     // the doc comment
	Spec   *ast.TypeSpec // the type's declaration
}
