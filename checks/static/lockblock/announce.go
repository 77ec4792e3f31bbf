package lockblock

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/interleave-dev/interleave/checks/static/internal/lockset"
)

// announced reports whether partner p, after taking lock want at lc,
// stores a field under it that the waiter w reads under its own lock
// (held) before waiting: the waiter's operation then runs only for a
// partner already past lc. A started flag set under the lock is the
// idiom (Start sets stopped = false; Stop sends only when !stopped).
func (cf *cycleFinder) announced(w, p *syncOp, lc lockCall, want, held lockset.Path) bool {
	fields := map[*types.Var]bool{}
	for _, b := range p.instr.Parent().Blocks {
		for _, instr := range b.Instrs {
			st, ok := instr.(*ssa.Store)
			if !ok || !reaches(lc.instr, st) || !reaches(st, p.instr) {
				continue
			}
			f := lockset.FieldOf(st.Addr)
			if f == nil {
				continue
			}
			if s, ok := p.r.Before(st); ok {
				if _, ok := s.Holds(want); ok {
					fields[f.Origin()] = true
				}
			}
		}
	}
	if len(fields) == 0 {
		return false
	}
	for _, b := range w.instr.Parent().Blocks {
		for _, instr := range b.Instrs {
			ld, ok := instr.(*ssa.UnOp)
			if !ok || ld.Op != token.MUL || !reaches(ld, w.instr) {
				continue
			}
			if f := lockset.FieldOf(ld.X); f == nil || !fields[f.Origin()] {
				continue
			}
			if s, ok := w.r.Before(ld); ok {
				if _, ok := s.Holds(held); ok {
					return true
				}
			}
		}
	}
	return false
}
