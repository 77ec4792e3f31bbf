package prjob

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/interleave-dev/interleave/affected"
	"github.com/interleave-dev/interleave/checks/static"
	"github.com/interleave-dev/interleave/internal/machine"

	"github.com/interleave-dev/interleave/checks"
)

// A package of the head that does not compile is left out and listed; the
// job goes on with the others. It fails only when the change is the cause:
// a package the change touches (a changed package, or one whose tests the
// change affects) does not compile on the head but did on the base, and
// some of its errors are in the repository's code. A package whose only
// errors are in a dependency outside the repository (nebula v1.8.0's new
// packages import gvisor, whose runtime linknames Go 1.26 no longer
// offers) is left out and listed, not the change's breakage: the change
// cannot fix that code, and the packages that compile still hold its bugs.

// maxPlainChecks caps the packages checked with plain go vet, on the head
// and on the base: each such run type-checks the package again.
const maxPlainChecks = 10

// showErrors is how many of a package's compiler lines are shown.
const showErrors = 3

// brokenPkg is a package of the head left out because it does not compile.
type brokenPkg struct {
	path    string
	errs    []string // the compiler's (or go list's) lines; none when only a dependency is broken
	touched bool     // changed, or among the packages whose tests the change affects
	// plain is plain go vet's verdict on the head: "fails", "passes" or ""
	// (not run); base is the same on the base commit, or "absent".
	plain, base string
	// machine is machine.Fault's words when the machine, not the code,
	// failed its build (in the loader's errors or a go vet run).
	machine string
	// elsewhere names where all its errors are when none is in the
	// repository ("its dependency D, outside this repository"): it is left
	// out without failing the job.
	elsewhere string
}

// brokenSet is the job's left-out packages, by import path.
type brokenSet struct {
	pkgs map[string]*brokenPkg
}

func (b *brokenSet) get(path string) *brokenPkg {
	if b.pkgs == nil {
		b.pkgs = map[string]*brokenPkg{}
	}
	p := b.pkgs[path]
	if p == nil {
		p = &brokenPkg{path: path}
		b.pkgs[path] = p
	}
	return p
}

// sorted lists the packages, the touched ones first, then by path.
func (b *brokenSet) sorted() []*brokenPkg {
	var out []*brokenPkg
	for _, p := range b.pkgs {
		out = append(out, p)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].touched != out[j].touched {
			return out[i].touched
		}
		return out[i].path < out[j].path
	})
	return out
}

// onMachine returns a package whose build the machine failed (nil: none).
func (b *brokenSet) onMachine() *brokenPkg {
	for _, p := range b.sorted() {
		if p.machine == "" {
			p.machine = machine.Fault(strings.Join(p.errs, "\n"))
		}
		if p.machine != "" {
			return p
		}
	}
	return nil
}

// addStatic records what the static stage left out: the packages that do
// not compile, and the changed packages not analyzed for them.
func (r *job) addStatic(res *static.Result) {
	for _, pe := range res.Broken {
		p := r.broken.get(pe.Path)
		p.errs = append(p.errs, pe.Errors...)
	}
	if len(res.Broken) == 0 {
		return
	}
	for _, path := range r.change.Packages {
		if slices.Contains(res.Packages, path) {
			continue
		}
		p := r.broken.get(path)
		p.touched = true
	}
}

// addAffected records the packages whose tests the change affects that do
// not type-check (the affected stage left their tests out).
func (r *job) addAffected() {
	for _, path := range r.change.Broken {
		r.broken.get(path).touched = true
	}
}

// judgeBroken runs plain go vet on the left-out packages, on the head and,
// for the touched ones, on the base commit. It returns the touched packages
// the change broke: they do not compile on the head but did on the base (or
// are new).
func (r *job) judgeBroken(ctx context.Context, buildFlags []string) []*brokenPkg {
	if len(r.broken.pkgs) == 0 {
		return nil
	}
	c := r.change
	var onHead, touched []*brokenPkg
	for _, p := range r.broken.sorted() {
		if len(onHead) < maxPlainChecks && strings.HasPrefix(p.path+"/", c.ModulePath+"/") {
			onHead = append(onHead, p)
		}
	}
	for _, p := range onHead {
		if ctx.Err() != nil {
			return nil
		}
		if out, err := plainVet(ctx, c.ModuleDir, p.path, buildFlags); err == nil {
			p.plain = "passes"
		} else if f := machine.Fault(out); f != "" {
			p.machine = f // not judged: the machine's
		} else {
			p.plain = "fails"
			if len(p.errs) == 0 {
				p.errs = vetErrors(out)
			}
			p.elsewhere = errorsElsewhere(p.errs, c.Root, c.ModuleDir, c.ModulePath)
			if p.touched && p.elsewhere == "" {
				touched = append(touched, p)
			}
		}
	}
	if len(touched) == 0 {
		return nil
	}
	if c.MergeBase == "" || c.Base == affected.Empty {
		for _, p := range touched {
			p.base = "absent"
		}
		return touched
	}
	err := withBase(ctx, c.Root, c.MergeBase, func(root string) error {
		rel, err := filepath.Rel(c.Root, c.ModuleDir)
		if err != nil {
			return err
		}
		dir := filepath.Join(root, rel)
		for _, p := range touched {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			pdir := filepath.Join(dir, filepath.FromSlash(strings.TrimPrefix(strings.TrimPrefix(p.path, c.ModulePath), "/")))
			if !exists(filepath.Join(dir, "go.mod")) || !hasGoFiles(pdir) {
				p.base = "absent"
				continue
			}
			if out, err := plainVet(ctx, dir, p.path, buildFlags); err == nil {
				p.base = "passes"
			} else if f := machine.Fault(out); f != "" {
				p.machine = f
			} else {
				p.base = "fails"
			}
		}
		return nil
	})
	if err != nil {
		r.notes = append(r.notes, fmt.Sprintf("could not compare the packages that do not compile with the base commit: %v", err))
		return nil
	}
	var byChange []*brokenPkg
	for _, p := range touched {
		if p.base != "fails" {
			byChange = append(byChange, p)
		}
	}
	return byChange
}

// depHeader is the static stage's line before a dependency's errors.
var depHeader = regexp.MustCompile(`^its dependency (\S+) does not compile:$`)

// posLine is a compiler line that starts with its file's position.
var posLine = regexp.MustCompile(`^(.+\.(?:go|s|c|h|mod)):\d+(?::\d+)?: `)

// errorsElsewhere says where a package's errors are when none of them is
// in the repository at root: every line is the static stage's header of a
// dependency outside module, or a position in a file outside root (the
// module cache, GOROOT; a relative position is taken from dir, where the
// compiler ran: go vet writes "../dep/x.go"). It returns "" when any line
// is in the repository,
// names a package of the module, or does not say where it is (a change
// that breaks its own code still fails the job).
func errorsElsewhere(errs []string, root, dir, module string) string {
	if len(errs) == 0 || root == "" {
		return ""
	}
	var dep, file string
	for _, e := range errs {
		if m := depHeader.FindStringSubmatch(e); m != nil {
			if m[1] == module || strings.HasPrefix(m[1], module+"/") {
				return ""
			}
			if dep == "" {
				dep = m[1]
			}
			continue
		}
		m := posLine.FindStringSubmatch(e)
		if m == nil {
			return "" // says no place
		}
		f := m[1]
		if !filepath.IsAbs(f) {
			f = filepath.Join(dir, f)
		}
		if rel, err := filepath.Rel(root, f); err != nil || !strings.HasPrefix(rel, "..") {
			return ""
		}
		if file == "" {
			file = f
		}
	}
	switch {
	case dep != "":
		return "its dependency " + dep + ", outside this repository"
	case file != "":
		return "files outside this repository (" + file + ")"
	}
	return ""
}

// plainVet runs go vet -json (diagnostics do not fail it; a package that
// does not compile or load does) on one package; it returns what go vet
// printed on stderr.
func plainVet(ctx context.Context, dir, path string, buildFlags []string) (string, error) {
	args := append([]string{"vet"}, buildFlags...)
	args = append(args, "-json", path)
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err := cmd.Run()
	return stderr.String(), err
}

// vetErrors is the error lines of go vet's output: not its "# package"
// headers, without the vet tool's "vet: " prefix.
func vetErrors(out string) []string {
	var errs []string
	for _, l := range strings.Split(out, "\n") {
		if l = strings.TrimSpace(l); l == "" || strings.HasPrefix(l, "#") || strings.HasPrefix(l, "{") || strings.HasPrefix(l, "}") {
			continue
		}
		l = strings.TrimPrefix(l, "vet: ")
		if !slices.Contains(errs, l) {
			errs = append(errs, l)
		}
	}
	return errs
}

// withBase runs f on a worktree of commit, removed afterwards.
func withBase(ctx context.Context, root, commit string, f func(root string) error) error {
	tmp, err := os.MkdirTemp("", "interleave-base-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	wt := filepath.Join(tmp, "base")
	if out, err := git(ctx, root, "worktree", "add", "--detach", "--force", wt, commit); err != nil {
		return fmt.Errorf("git worktree add: %v: %s", err, out)
	}
	defer func() {
		rm, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		git(rm, root, "worktree", "remove", "--force", wt)
		git(rm, root, "worktree", "prune")
	}()
	return f(wt)
}

func hasGoFiles(dir string) bool {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return false
	}
	for _, e := range ents {
		if !e.IsDir() && strings.HasSuffix(e.Name(), ".go") {
			return true
		}
	}
	return false
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// why says what is known about a left-out package.
func (p *brokenPkg) why() string {
	parts := []string{"does not compile"}
	if p.machine != "" {
		parts = []string{"not built: " + p.machine}
	}
	switch p.plain {
	case "fails":
		parts = append(parts, "go vet fails on it too")
	case "passes":
		parts = append(parts, "go vet passes on it: interleave could not load it")
	}
	if p.elsewhere != "" {
		parts = append(parts, "its only errors are in "+p.elsewhere+": left out, not counted as broken by this change")
	}
	switch p.base {
	case "fails":
		parts = append(parts, "it does not compile on the base commit either")
	case "passes":
		parts = append(parts, "it compiles on the base commit")
	case "absent":
		parts = append(parts, "it is new in this change")
	}
	return strings.Join(parts, "; ")
}

// firstErrors is the compiler's first lines of p, and how many more.
func (p *brokenPkg) firstErrors() ([]string, int) {
	n := min(len(p.errs), showErrors)
	return p.errs[:n], len(p.errs) - n
}

// logBroken writes the left-out packages to stderr and the notes.
func (r *job) logBroken() {
	for _, p := range r.broken.sorted() {
		r.logf("not analyzed: package %s: %s", p.path, p.why())
		errs, more := p.firstErrors()
		for _, e := range errs {
			r.logf("\t%s", e)
		}
		if more > 0 {
			r.logf("\t... and %d more", more)
		}
		note := fmt.Sprintf("not analyzed: package %s: %s", p.path, p.why())
		if len(errs) > 0 {
			note += ": " + errs[0]
		}
		r.notes = append(r.notes, note)
	}
}

// brokenSummary is the summary's list of the left-out packages, shown
// outside the details: the findings say nothing about them.
func (r *job) brokenSummary() string {
	pkgs := r.broken.sorted()
	if len(pkgs) == 0 {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "\n**Not analyzed: %d %s that %s not compile** (the job went on with the others):\n\n", len(pkgs), checks.Plural(len(pkgs), "package"), map[bool]string{true: "does", false: "do"}[len(pkgs) == 1])
	const show = 20
	for i, p := range pkgs {
		if i == show {
			fmt.Fprintf(&b, "- … and %d more\n", len(pkgs)-show)
			break
		}
		fmt.Fprintf(&b, "- `%s`: %s\n", p.path, p.why())
		if errs, more := p.firstErrors(); len(errs) > 0 {
			b.WriteString("  ```\n")
			for _, e := range errs {
				fmt.Fprintf(&b, "  %s\n", strings.ReplaceAll(e, "```", "'''"))
			}
			if more > 0 {
				fmt.Fprintf(&b, "  ... and %d more\n", more)
			}
			b.WriteString("  ```\n")
		}
	}
	return b.String()
}

// brokenByChange is the failure for packages the change broke.
func (r *job) brokenByChange(pkgs []*brokenPkg) (*Result, error) {
	var names []string
	var detail strings.Builder
	for _, p := range pkgs {
		names = append(names, p.path)
		fmt.Fprintf(&detail, "package %s: %s\n", p.path, p.why())
		for _, e := range p.errs {
			fmt.Fprintf(&detail, "\t%s\n", e)
		}
	}
	what := fmt.Sprintf("the head does not compile: this change breaks %s %s", checks.Plural(len(names), "package"), strings.Join(names, ", "))
	return r.couldNotRun(what, strings.TrimRight(detail.String(), "\n"))
}
