package lockpair

// Diagnostics of the walk: reports decided after the walk and their related positions.

import (
	"fmt"
	"go/token"
	"path/filepath"

	"golang.org/x/tools/go/analysis"
)

// pendingDiag is a diagnostic whose condition (keep) can only be decided
// once the whole function has been walked.
type pendingDiag struct {
	analysis.Diagnostic
	keep func() bool // nil: always
}

func (w *walker) report(pos token.Pos, rule string, related []analysis.RelatedInformation, format string, args ...any) {
	w.reportIf(nil, pos, rule, related, format, args...)
}

func (w *walker) reportIf(keep func() bool, pos token.Pos, rule string, related []analysis.RelatedInformation, format string, args ...any) {
	w.diags = append(w.diags, pendingDiag{analysis.Diagnostic{
		Pos:      pos,
		Category: rule,
		Message:  fmt.Sprintf(format, args...),
		Related:  related,
	}, keep})
}

// locksHere reports whether this function locks key itself: an unlock of
// a lock it never takes belongs to a caller, or to a hand-off between
// goroutines.
func (w *walker) locksHere(key string) func() bool {
	return func() bool { _, ok := w.lockedHere[key]; return ok }
}

func (pc *passContext) posString(pos token.Pos) string {
	if !pos.IsValid() {
		return ""
	}
	p := pc.pass.Fset.Position(pos)
	return fmt.Sprintf("%s:%d", filepath.Base(p.Filename), p.Line)
}

func (pc *passContext) relatedAt(pos token.Pos, msg string) []analysis.RelatedInformation {
	if !pos.IsValid() {
		return nil
	}
	return []analysis.RelatedInformation{{Pos: pos, Message: msg}}
}
