package gen

import (
	"go/ast"

	"github.com/interleave-dev/interleave/internal/claim"
)

// Directive marks a type as safe for concurrent use without prose.
const Directive = claim.Directive

// Claim returns the phrase of a doc comment that claims safety for
// concurrent use, or "".
func Claim(cg *ast.CommentGroup) string { return claim.Of(cg) }
