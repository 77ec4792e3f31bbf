// Aiming the search at the change: the synchronization operations and shared-memory writes on changed lines or in changed functions become preemption targets, and the job says which ones the tests executed.

package prjob

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"sort"
	"strings"

	"github.com/interleave-dev/interleave/affected"
	"github.com/interleave-dev/interleave/affected/diff"
	"github.com/interleave-dev/interleave/checks/dynamic/explore"
	"github.com/interleave-dev/interleave/checks/dynamic/rt"
	"github.com/interleave-dev/interleave/report"

	"github.com/interleave-dev/interleave/checks"
)

// maxChangedSites caps the targets taken from the change: preempting
// everywhere is no aim. Sites on changed lines come first.
const maxChangedSites = 300

// syncMethods are the method names of sync and sync/atomic operations
// (and atomic's functions) a call site is taken for, by name alone.
var syncMethods = map[string]bool{
	"Lock": true, "Unlock": true, "RLock": true, "RUnlock": true, "TryLock": true, "TryRLock": true,
	"Wait": true, "Signal": true, "Broadcast": true, "Add": true, "Done": true, "Do": true, "Go": true,
	"Load": true, "Store": true, "Swap": true, "CompareAndSwap": true, "And": true, "Or": true,
	"LoadOrStore": true, "LoadAndDelete": true, "Delete": true, "Range": true,
}

// changedSites returns the "file.go:line" sites (absolute file names, as
// explore's Targets take them) of the synchronization operations (channel
// send, receive, select, close, sync and atomic calls) and the
// shared-memory writes (to a field, an element or through a pointer) on
// the changed lines of the change's Go files that are not tests, or
// anywhere in a changed function of them, except near a go statement
// (nearGo): sorted, at most maxChangedSites, those on changed lines first.
func changedSites(c *affected.Change) []string {
	funcs := map[string][]affected.Func{}
	for _, fn := range c.Funcs {
		if !fn.Test {
			funcs[fn.File] = append(funcs[fn.File], fn)
		}
	}
	var onLine, inFunc []string
	seen := map[string]bool{}
	for _, f := range c.Files {
		if !strings.HasSuffix(f.Path, ".go") || strings.HasSuffix(f.Path, "_test.go") || !f.Analyzed {
			continue
		}
		abs := filepath.Join(c.Root, filepath.FromSlash(f.Path))
		fset := token.NewFileSet()
		file, err := parser.ParseFile(fset, abs, nil, parser.SkipObjectResolution)
		if err != nil {
			continue
		}
		changed := func(line int) bool {
			for _, r := range f.Lines {
				if r.Contains(line) {
					return true
				}
			}
			return false
		}
		inChanged := func(line int) bool {
			for _, fn := range funcs[f.Path] {
				if line >= fn.Line && line <= fn.EndLine {
					return true
				}
			}
			return false
		}
		lines, goLines := syncLines(fset, file)
		for _, line := range lines {
			site := fmt.Sprintf("%s:%d", abs, line)
			switch {
			case seen[site], nearGo(line, goLines):
			case changed(line):
				seen[site] = true
				onLine = append(onLine, site)
			case inChanged(line):
				seen[site] = true
				inFunc = append(inFunc, site)
			}
		}
	}
	sites := append(onLine, inFunc...)
	if len(sites) > maxChangedSites {
		sites = sites[:maxChangedSites]
	}
	sort.Strings(sites)
	return sites
}

// baseTargets maps the head search's targets (absolute sites under
// c.Root) to the base commit checked out at baseRoot, and adds the base's
// synchronization operations and shared-memory writes on the lines the
// change removed or rewrote (as changedSites finds them on the head):
// the base's search is aimed where the head's was. A site in an unchanged
// file keeps its line; one in a changed file moves through the diff
// (diff.OldLine: a line the change wrote goes to the lines it replaced);
// one in an added or copied file has none. gocron v1.15.0's
// TestScheduler_Update failed on 2 and 4 of 6 aimed schedules of the
// head and on none of 22 unaimed ones of the base, and was posted as new;
// unaimed, both commits fail that test at like rates.
func baseTargets(c *affected.Change, head []string, baseRoot string) []string {
	byPath := map[string]*affected.File{}
	for i := range c.Files {
		byPath[c.Files[i].Path] = &c.Files[i]
	}
	var out []string
	seen := map[string]bool{}
	add := func(oldPath string, line int) {
		site := fmt.Sprintf("%s:%d", filepath.Join(baseRoot, filepath.FromSlash(oldPath)), line)
		if !seen[site] {
			seen[site] = true
			out = append(out, site)
		}
	}
	for _, site := range head {
		file, line, ok := splitSite(site)
		if !ok {
			continue
		}
		rel, err := filepath.Rel(c.Root, file)
		if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			continue
		}
		rel = filepath.ToSlash(rel)
		f := byPath[rel]
		if f == nil {
			add(rel, line)
			continue
		}
		if f.Status == diff.Added || f.Status == diff.Copied || f.Status == diff.Deleted {
			continue
		}
		old, _ := diff.OldLine(f.Edits, line)
		add(f.OldSide(), old)
	}
	removed := 0
	for i := range c.Files {
		f := &c.Files[i]
		if f.Status != diff.Modified && f.Status != diff.Renamed || !strings.HasSuffix(f.Path, ".go") || strings.HasSuffix(f.Path, "_test.go") {
			continue
		}
		changed := diff.OldChanged(f.Edits)
		if len(changed) == 0 {
			continue
		}
		fset := token.NewFileSet()
		file, err := parser.ParseFile(fset, filepath.Join(baseRoot, filepath.FromSlash(f.OldSide())), nil, parser.SkipObjectResolution)
		if err != nil {
			continue
		}
		lines, goLines := syncLines(fset, file)
		for _, line := range lines {
			if removed == maxChangedSites || nearGo(line, goLines) {
				continue
			}
			for _, r := range changed {
				if r.Contains(line) {
					removed++
					add(f.OldSide(), line)
					break
				}
			}
		}
	}
	sort.Strings(out)
	return out
}

// nearGo reports whether line is within rt.TargetNear lines of a go
// statement: the search matches a target against the callers of an
// operation too, and every operation of a goroutine has its go statement's
// line among its callers, so such a target would aim at all of them.
func nearGo(line int, goLines []int) bool {
	for _, g := range goLines {
		if line >= g-rt.TargetNear && line <= g+rt.TargetNear {
			return true
		}
	}
	return false
}

// syncLines returns the lines of file's synchronization operations and
// shared-memory writes, by syntax alone, and those of its go statements.
func syncLines(fset *token.FileSet, file *ast.File) (lines, goLines []int) {
	add := func(n ast.Node) { lines = append(lines, fset.Position(n.Pos()).Line) }
	shared := func(e ast.Expr) bool {
		switch ast.Unparen(e).(type) {
		case *ast.SelectorExpr, *ast.IndexExpr, *ast.StarExpr:
			return true
		}
		return false
	}
	ast.Inspect(file, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.GoStmt:
			goLines = append(goLines, fset.Position(n.Pos()).Line)
		case *ast.SendStmt, *ast.SelectStmt:
			add(n)
		case *ast.UnaryExpr:
			if n.Op == token.ARROW {
				add(n)
			}
		case *ast.CallExpr:
			switch fn := ast.Unparen(n.Fun).(type) {
			case *ast.Ident:
				if fn.Name == "close" {
					add(n)
				}
			case *ast.SelectorExpr:
				if x, ok := fn.X.(*ast.Ident); ok && x.Name == "atomic" || syncMethods[fn.Sel.Name] {
					add(n)
				}
			}
		case *ast.AssignStmt:
			for _, l := range n.Lhs {
				if shared(l) {
					add(n)
					break
				}
			}
		case *ast.IncDecStmt:
			if shared(n.X) {
				add(n)
			}
		}
		return true
	})
	return lines, goLines
}

// aimShown is how many sites the log and the summary name in each list.
const aimShown = 5

// changedReport is what the search did at the changed sites: how many
// its unperturbed runs executed, the preemptions there, the first few
// executed (most hits first) and not executed.
func changedReport(changed []string, st explore.Stats, root string) *report.ChangedSites {
	if len(changed) == 0 {
		return nil
	}
	is := map[string]bool{}
	for _, s := range changed {
		is[s] = true
	}
	out := &report.ChangedSites{Sites: len(changed)}
	var hit []report.SiteRun
	var missed []string
	for _, ts := range st.Targets {
		if !is[ts.Site] {
			continue
		}
		site := relSite(root, ts.Site)
		out.Preempted += ts.Preempted
		if ts.Hits == 0 {
			missed = append(missed, site)
			continue
		}
		hit = append(hit, report.SiteRun{Site: site, Hits: ts.Hits, Tests: ts.Tests, Preempted: ts.Preempted})
	}
	out.Exercised = len(hit)
	sort.SliceStable(hit, func(i, j int) bool { return hit[i].Hits > hit[j].Hits })
	out.ExercisedSites = hit[:min(len(hit), aimShown)]
	out.NotExercised = len(missed)
	out.NotExercisedSites = missed[:min(len(missed), aimShown)]
	return out
}

// relSite makes a site's file relative to root.
func relSite(root, site string) string {
	file, line, ok := splitSite(site)
	if !ok {
		return site
	}
	if rel, err := filepath.Rel(root, file); err == nil && !strings.HasPrefix(rel, "..") {
		file = filepath.ToSlash(rel)
	}
	return fmt.Sprintf("%s:%d", file, line)
}

// aimLine is the one-line account of the changed sites, for the log.
func aimLine(cs *report.ChangedSites) string {
	s := fmt.Sprintf("changed sites: %d targeted, %d exercised by the tests' unperturbed runs, %d preemptions there", cs.Sites, cs.Exercised, cs.Preempted)
	if cs.NotExercised > 0 {
		s += fmt.Sprintf("; %d with no scheduling point at or near them (a plain write counts only with a synchronization operation there or in a function it calls)", cs.NotExercised)
	}
	return s
}

// aimVerbose names the first few sites of each list, for -v.
func aimVerbose(cs *report.ChangedSites) []string {
	var out []string
	for _, h := range cs.ExercisedSites {
		out = append(out, fmt.Sprintf("  exercised %s: %d %s in the unperturbed runs of %d %s, preempted %d %s", h.Site, h.Hits, checks.Plural(h.Hits, "operation"), h.Tests, checks.Plural(h.Tests, "test"), h.Preempted, checks.Plural(h.Preempted, "time")))
	}
	if len(cs.NotExercisedSites) > 0 {
		more := ""
		if n := cs.NotExercised - len(cs.NotExercisedSites); n > 0 {
			more = fmt.Sprintf(" and %d more", n)
		}
		out = append(out, "  no scheduling point at or near them in any test: "+strings.Join(cs.NotExercisedSites, ", ")+more)
	}
	return out
}

// aimSummary is the markdown of the changed sites, for the job summary.
func aimSummary(cs *report.ChangedSites) string {
	if cs == nil {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "\n<details><summary>Changed sites: %d targeted, %d exercised, %d preemptions there</summary>\n\n", cs.Sites, cs.Exercised, cs.Preempted)
	for _, h := range cs.ExercisedSites {
		fmt.Fprintf(&b, "- `%s`: %d %s in the unperturbed runs of %d %s, preempted %d %s\n", h.Site, h.Hits, checks.Plural(h.Hits, "operation"), h.Tests, checks.Plural(h.Tests, "test"), h.Preempted, checks.Plural(h.Preempted, "time"))
	}
	if cs.NotExercised > 0 {
		more := ""
		if n := cs.NotExercised - len(cs.NotExercisedSites); n > 0 {
			more = fmt.Sprintf(" and %d more", n)
		}
		fmt.Fprintf(&b, "- no scheduling point at or near them in any test: `%s`%s\n", strings.Join(cs.NotExercisedSites, "`, `"), more)
	}
	b.WriteString("\n</details>\n")
	return b.String()
}
