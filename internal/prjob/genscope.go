package prjob

import (
	"fmt"
	"go/ast"
	"path/filepath"
	"slices"
	"strings"

	"github.com/interleave-dev/interleave/checks"
	"github.com/interleave-dev/interleave/checks/dynamic/explore"
	"github.com/interleave-dev/interleave/checks/dynamic/gen"
)

// What a generated test's failure is in pr. The tests do not exist on the
// base, so a failure is new; but gen calls every method of a type, and a
// race between two methods the change did not touch is older than it. A
// generated finding is the change's only when one side of it (a frame of
// a racing access, of a stuck goroutine or of the panic) is on a changed
// line or in a changed function; the others are counted in a note. The
// change's then confirm the static findings and candidates they hit (the
// same sites as the search's confirmation), and are grouped by cause with
// the search's findings (explore.Group).

// maxUnscopedListed caps the generated findings a note lists by place.
const maxUnscopedListed = 5

// genInChange reports whether one side of generated finding f is in the
// changed code. A finding with no place outside the generated test (a
// failure of the test's own check, with no goroutine stacks) is the
// change's when its goroutines called a changed method (Options.Focus,
// gen.Result.Focused).
func (r *job) genInChange(f *checks.Finding) bool {
	c := r.change
	var places []checks.Position
	judged := false
	add := func(file string, line int) {
		if file == "" || line <= 0 || filepath.Base(file) == gen.FileName {
			return
		}
		judged = true
		places = append(places, checks.Position{File: file, Line: line})
	}
	// A test's own failure is shown at its type's declaration, with the
	// test's line as the first related position: that place is gen's, not
	// the failure's.
	moved := len(f.Related) > 0 && filepath.Base(f.Related[0].File) == gen.FileName
	if !moved {
		add(f.Pos.File, f.Pos.Line)
	}
	for _, rel := range f.Related {
		add(rel.File, rel.Line)
	}
	for _, g := range f.Goroutines {
		if file, line, ok := splitSite(g.Site); ok {
			add(file, line)
		}
		for _, fr := range g.Stack {
			add(fr.File, fr.Line)
		}
	}
	if !judged {
		// Only when its goroutines called a changed method: a check
		// failing on methods the change did not touch is older than it.
		return r.genFocused == nil || r.genFocused[f.Package+"."+f.Test]
	}
	for _, p := range places {
		abs := AbsIn(c.ModuleDir, p.File)
		if c.OnChangedLine(abs, p.Line) {
			return true
		}
		for _, fn := range c.Funcs {
			if !fn.Test && p.Line >= fn.Line && p.Line <= fn.EndLine && abs == filepath.Join(c.Root, filepath.FromSlash(fn.File)) {
				return true
			}
		}
	}
	return false
}

// addGenFindings adds the generated findings gf to a run's report: those
// out of the change are a note; those in it confirm the static findings
// (final) and the unconfirmed candidates they hit, and the rest join the
// search's dynamic findings (news), one finding per cause.
func (r *job) addGenFindings(gf, final, news []checks.Finding) (newFinal, newNews []checks.Finding) {
	final = r.confirmByOnBase(final)
	var in []checks.Finding
	var out []string
	for i := range gf {
		if r.genInChange(&gf[i]) {
			in = append(in, gf[i])
			continue
		}
		out = append(out, fmt.Sprintf("%s at %s:%d in %s", gf[i].Kind, relTo(r.change.Root, AbsIn(r.change.ModuleDir, gf[i].Pos.File)), gf[i].Pos.Line, gf[i].Test))
	}
	if len(out) > 0 {
		list := out
		if len(list) > maxUnscopedListed {
			list = append(list[:maxUnscopedListed:maxUnscopedListed], fmt.Sprintf("%d more", len(out)-maxUnscopedListed))
		}
		r.notes = append(r.notes, fmt.Sprintf("gen: %d %s between code the change did not touch (no side on a changed line or in a changed function), not reported as the change's: %s",
			len(out), checks.Plural(len(out), "generated finding"), strings.Join(list, "; ")))
	}
	if len(in) == 0 {
		return final, news
	}
	for i := range in {
		r.placeOnChangedLine(&in[i])
	}
	// Confirmation: a generated schedule that hits a static finding's
	// sites confirms it, a candidate too (then it is posted).
	cands := r.confirm.unconfirmed
	merged := confirm(slices.Concat(final, cands), in, r.change.ModuleDir)
	newFinal = append(newFinal, merged[:len(final)]...)
	r.confirm.unconfirmed = nil
	for _, cand := range merged[len(final) : len(final)+len(cands)] {
		if cand.Evidence == checks.Confirmed {
			r.confirm.confirmed++
			r.confirm.byGen++
			newFinal = append(newFinal, cand)
		} else {
			r.confirm.unconfirmed = append(r.confirm.unconfirmed, cand)
		}
	}
	newFinal = foldConfirmed(newFinal)
	rest := merged[len(final)+len(cands):]
	kept, dup := dropSameAccesses(rest, slices.Concat(newFinal, news))
	if dup > 0 {
		r.notes = append(r.notes, fmt.Sprintf("gen: %d %s on the same two lines as a finding already reported, not reported again", dup, checks.Plural(dup, "finding")))
	}
	for i := range kept {
		kept[i].Baseline = checks.BaselineNew
	}
	return newFinal, explore.Group(append(news, kept...))
}

// genPreExisting returns the generated findings in the change whose tests
// fail the same way on the base commit (gen.Result.OnBase): older than the
// change, for the summary only, as the search's pre-existing failures.
// Those out of the change are counted in a note.
func (r *job) genPreExisting() []checks.Finding {
	var pre []checks.Finding
	var list []string
	for _, f := range r.genOnBase {
		if len(list) < maxUnscopedListed {
			list = append(list, fmt.Sprintf("%s at %s:%d in %s", f.Kind, relTo(r.change.Root, AbsIn(r.change.ModuleDir, f.Pos.File)), f.Pos.Line, f.Test))
		}
		if !r.genInChange(&f) {
			continue
		}
		f.Baseline = checks.BaselineUnchanged
		pre = append(pre, f)
	}
	if n := len(r.genOnBase); n > 0 {
		if n > len(list) {
			list = append(list, fmt.Sprintf("%d more", n-len(list)))
		}
		r.notes = append(r.notes, fmt.Sprintf("gen: %d %s whose test fails the same way on the base commit %.12s, not the change's (%d in the summary: those with a side in the changed code): %s",
			n, checks.Plural(n, "generated finding"), r.change.MergeBase, len(pre), strings.Join(list, "; ")))
	}
	return pre
}

// methodKey names method of type typ declared in the package in dir.
func methodKey(dir, typ, method string) string {
	return filepath.Clean(dir) + "|" + typ + "." + method
}

// candidateMethods returns, as methodKey, the methods whose bodies hold a
// position of one of the candidates (its own or a related one): the code
// a generated test must call for a schedule to confirm it.
func candidateMethods(cands []checks.Finding, dir string) map[string]bool {
	out := map[string]bool{}
	pkgs := map[string]*pkgMethods{} // by directory, read once
	for _, f := range cands {
		for _, p := range append([]checks.Position{f.Pos}, relatedPositions(f.Related)...) {
			if p.File == "" || p.Line <= 0 || filepath.Base(p.File) == gen.FileName {
				continue
			}
			file := AbsIn(dir, p.File)
			pkg := filepath.Dir(file)
			pm, ok := pkgs[pkg]
			if !ok {
				pm = parseMethods(pkg)
				pkgs[pkg] = pm
			}
			if typ, name, ok := pm.at(file, p.Line); ok {
				out[methodKey(pkg, typ, name)] = true
			}
		}
	}
	return out
}

func relatedPositions(rs []checks.Related) []checks.Position {
	out := make([]checks.Position, len(rs))
	for i, r := range rs {
		out[i] = r.Position
	}
	return out
}

// recvTypeName is the name of a receiver's type: T of T, *T, T[P], *T[P].
func recvTypeName(e ast.Expr) string {
	for {
		switch x := e.(type) {
		case *ast.StarExpr:
			e = x.X
		case *ast.ParenExpr:
			e = x.X
		case *ast.IndexExpr:
			e = x.X
		case *ast.IndexListExpr:
			e = x.X
		case *ast.Ident:
			return x.Name
		default:
			return ""
		}
	}
}

// placeOnChangedLine shows a deadlock or a leak whose place is not on a
// changed line at the first of its stuck goroutines that is: gocron's
// restart deadlock was shown at its executor's select (in a changed
// function, unchanged) while two Stop calls were stuck on the changed send.
// A data race is shown at its other access when that one is on a changed
// line: zap v1.26.0's race was reported at the read in Logger.check
// (unchanged) and the previous write in the new lazy_with.go.
func (r *job) placeOnChangedLine(f *checks.Finding) {
	c := r.change
	if f.Pos.IsValid() && c.OnChangedLine(AbsIn(c.ModuleDir, f.Pos.File), f.Pos.Line) {
		return
	}
	if f.Kind == checks.DataRace {
		for i, rel := range f.Related {
			if rel.File == "" || rel.Line <= 0 || !c.OnChangedLine(AbsIn(c.ModuleDir, rel.File), rel.Line) {
				continue
			}
			fn := ""
			for _, g := range f.Goroutines {
				for _, fr := range g.Stack {
					if fn == "" && fr.Line == rel.Line && filepath.Base(fr.File) == filepath.Base(rel.File) {
						fn = fr.Func
					}
				}
			}
			f.Related[i] = checks.Related{Position: f.Pos, Message: "the other access, unchanged"}
			f.Pos = rel.Position
			f.Func, f.Snippet = fn, explore.SourceLine(AbsIn(c.ModuleDir, rel.File), rel.Line)
			return
		}
		return
	}
	if f.Kind != checks.Deadlock && f.Kind != checks.Leak {
		return
	}
	for _, g := range f.Goroutines {
		file, line, ok := splitSite(g.Site)
		if !ok || !c.OnChangedLine(AbsIn(c.ModuleDir, file), line) {
			continue
		}
		f.Pos = checks.Position{File: file, Line: line}
		f.Func, f.Snippet = "", explore.SourceLine(AbsIn(c.ModuleDir, file), line)
		if len(g.Stack) > 0 {
			f.Func = g.Stack[0].Func
		}
		return
	}
	// No goroutine is stuck on a changed line: the first frame of a stuck
	// goroutine that is, the call that blocked as the change made it
	// (logrus v1.5.0: stuck in its lock wrapper's MutexWrap.Lock, called
	// by WithFields on the changed entry.Logger.mu.Lock()).
	for _, g := range f.Goroutines {
		for _, fr := range g.Stack {
			if fr.File == "" || fr.Line <= 0 || !c.OnChangedLine(AbsIn(c.ModuleDir, fr.File), fr.Line) {
				continue
			}
			f.Pos = checks.Position{File: fr.File, Line: fr.Line}
			f.Func, f.Snippet = fr.Func, explore.SourceLine(AbsIn(c.ModuleDir, fr.File), fr.Line)
			return
		}
	}
}
