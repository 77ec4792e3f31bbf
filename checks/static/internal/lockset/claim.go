package lockset

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"

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
		out[t.Name] = Claim{Phrase: t.Phrase, Quote: ClaimQuote(t.Doc, t.Phrase), Pos: t.Doc.Pos(), Spec: t.Spec}
	}
	return out
}

// Claim is a type's documented promise of safety for concurrent use.
type Claim struct {
	Phrase string        // the phrase, or ThreadSafeDirective
	Quote  string        // the phrase with the rest of its sentence (ClaimQuote)
	Pos    token.Pos     // the doc comment
	Spec   *ast.TypeSpec // the type's declaration
}

// maxQuote bounds a quoted claim: the phrase and what follows it.
const maxQuote = 120

// ClaimQuote returns phrase as the doc comment writes it, with the rest
// of its sentence: the qualifier a bare phrase loses ("safe for concurrent
// use on the server side", "safe for concurrent use, except Close"). It
// returns phrase when cg does not contain it (a directive).
func ClaimQuote(cg *ast.CommentGroup, phrase string) string {
	if cg == nil || phrase == ThreadSafeDirective {
		return phrase
	}
	text := strings.Join(strings.Fields(cg.Text()), " ")
	at := strings.Index(strings.ToLower(text), phrase)
	if at < 0 {
		return phrase
	}
	rest := text[at:]
	if end := strings.IndexAny(rest[len(phrase):], ".;:"); end >= 0 {
		rest = rest[:len(phrase)+end]
	}
	rest = strings.TrimRight(rest, " ,")
	if len(rest) > maxQuote {
		rest = strings.TrimRight(rest[:maxQuote], " ,") + "…"
	}
	return rest
}
