// Package affected turns a git change into what interleave should look at:
// the changed files and lines, the changed functions, the changed packages,
// and the tests whose call graph reaches the changed code, ranked for the
// dynamic search. It needs git and the go command, not GitHub.
//
// Parsing the diff lives in the subpackage diff; this package decides what
// the parsed change means.
package affected

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/interleave-dev/interleave/affected/diff"
)

// Options says which change to analyze.
type Options struct {
	Dir  string // a directory inside the repository and the Go module (default ".")
	Base string // the base ref (branch, tag, commit), or Empty; required
	Head string // the head ref (default HEAD), or WorkTree
	// BuildFlags are passed to the go command (for example -tags=integration).
	BuildFlags []string
	// NoTests skips the call-graph stage: Tests stays empty.
	NoTests bool
}

// Change is a base..head change as interleave sees it.
type Change struct {
	Root       string // repository top level, absolute
	ModuleDir  string // root of the Go module analyzed, absolute
	ModulePath string
	Base       string // as given
	Head       string // as given (HEAD when none was)
	BaseCommit string
	HeadCommit string // empty for WorkTree
	MergeBase  string
	Files      []File   // every changed file, analyzed or not, sorted by path
	Packages   []string // import paths of packages with changed Go files, sorted
	Funcs      []Func   // changed functions and methods, by file and line
	Tests      []Test   // affected tests, best first
	// Broken lists the import paths of the packages FindTests looked at
	// (the changed ones and those importing them) that do not type-check,
	// with their tests or through an import; their tests are left out.
	Broken  []string
	Notes   []string // caveats the reader should know (head not checked out, ...)
	Timings map[string]time.Duration

	byPath      map[string]*File
	mod         *module
	declChanges map[string]string // import path -> file:line of a changed package-level declaration
}

// File is one changed file.
type File struct {
	Path    string      `json:"path"`              // slash-separated, relative to Root; the old path if deleted
	OldPath string      `json:"oldPath,omitempty"` // for renames, copies and deletions
	Status  diff.Status `json:"status"`
	Binary  bool        `json:"binary,omitempty"`
	OldMode string      `json:"oldMode,omitempty"`
	NewMode string      `json:"newMode,omitempty"`
	// Lines are the added or rewritten lines on the new side.
	Lines []diff.Range `json:"lines,omitempty"`
	// Deletions are the new-side lines after which lines were removed.
	Deletions []int `json:"deletions,omitempty"`
	// Edits are the diff's hunks (no context): how a line moved from the
	// old side (diff.OldLine).
	Edits []diff.Edit `json:"edits,omitempty"`
	// Hunks are the new-side ranges GitHub shows for the change (the
	// changes with ContextLines lines of context): review comments may
	// only be placed on these lines.
	Hunks    []diff.Range `json:"hunks,omitempty"`
	Package  string       `json:"package,omitempty"` // import path, for Go files in the module
	Analyzed bool         `json:"analyzed"`
	Skip     string       `json:"skip,omitempty"` // why the file is not analyzed
}

// OldSide is the file's path on the base side of the change.
func (f *File) OldSide() string {
	if f.OldPath != "" {
		return f.OldPath
	}
	return f.Path
}

// ModeChanged reports whether the file mode changed (for example +x).
func (f *File) ModeChanged() bool {
	return f.OldMode != "" && f.NewMode != "" && f.OldMode != f.NewMode
}

// ContextLines is git's default -U3, the context GitHub shows in a pull
// request diff.
const ContextLines = 3

// Func is a changed function or method.
type Func struct {
	Package string       `json:"package"`
	File    string       `json:"file"` // relative to Root
	Name    string       `json:"name"` // Transfer, (*Ledger).Transfer, (Ledger).Balance
	Line    int          `json:"line"`
	EndLine int          `json:"endLine"`
	Changed []diff.Range `json:"changed"` // changed lines inside the function
	Test    bool         `json:"test,omitempty"`
}

// FirstChange is the first changed line of the function.
func (f Func) FirstChange() int {
	if len(f.Changed) > 0 {
		return f.Changed[0].Start
	}
	return f.Line
}

// Test is an affected test, ranked.
type Test struct {
	Package string `json:"package"` // import path to pass to go test
	Name    string `json:"name"`
	Why     string `json:"why"`
	// Distance is the number of calls from the test to the nearest changed
	// function (0: the test itself changed); -1 when the test is chosen
	// because package-level declarations of its package changed.
	Distance   int     `json:"distance"`
	Concurrent bool    `json:"concurrent"` // starts goroutines or touches sync primitives or channels
	Goroutines bool    `json:"goroutines"` // starts goroutines
	Reaches    string  `json:"reaches,omitempty"`
	Score      float64 `json:"score"` // in (0, 1]; higher first
}

// Analyze computes the change between the merge base of opts.Base and
// opts.Head and what it affects.
func Analyze(ctx context.Context, opts Options) (*Change, error) {
	dir := opts.Dir
	if dir == "" {
		dir = "."
	}
	dir, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	if opts.Base == "" {
		return nil, fmt.Errorf("no base ref given")
	}
	c := &Change{Base: opts.Base, Head: opts.Head, Timings: map[string]time.Duration{}}
	if c.Head == "" {
		c.Head = "HEAD"
	}
	start := time.Now()
	g, err := openRepo(ctx, dir)
	if err != nil {
		return nil, err
	}
	c.Root = g.dir
	var scope []string // pathspecs limiting the diff; none means the whole repository
	if opts.Base == Empty {
		if c.BaseCommit, err = g.emptyTree(ctx); err != nil {
			return nil, err
		}
		// Everything is new: limit the change to the directory asked for,
		// not the whole repository around it.
		rel, err := filepath.Rel(g.dir, dir)
		if err != nil {
			return nil, err
		}
		if rel != "." {
			scope = []string{filepath.ToSlash(rel)}
		}
	} else if c.BaseCommit, err = g.resolve(ctx, "base", opts.Base); err != nil {
		return nil, err
	}
	var headRev string // the commit merge-base compares the base with
	if c.Head != WorkTree {
		if c.HeadCommit, err = g.resolve(ctx, "head", c.Head); err != nil {
			return nil, err
		}
		headRev = c.HeadCommit
	} else if headRev, err = g.resolve(ctx, "head", "HEAD"); err != nil {
		return nil, err
	}
	if opts.Base == Empty {
		c.MergeBase = c.BaseCommit
	} else if c.MergeBase, err = g.mergeBase(ctx, c.BaseCommit, headRev); err != nil {
		return nil, err
	}
	files, err := g.diff(ctx, c.MergeBase, c.HeadCommit, scope...)
	if err != nil {
		return nil, err
	}
	if c.Head == WorkTree {
		untracked, err := g.untracked(ctx)
		if err != nil {
			return nil, err
		}
		for _, p := range untracked {
			files = append(files, &diff.File{NewPath: p, Status: diff.Added})
		}
	} else if cur, err := g.line(ctx, "rev-parse", "HEAD"); err == nil && cur != c.HeadCommit {
		c.Notes = append(c.Notes, fmt.Sprintf("head %s (%.12s) is not the checked-out commit: packages and tests are read from the work tree", c.Head, c.HeadCommit))
	}
	c.Timings["diff"] = time.Since(start)

	if err := c.classify(ctx, g, dir, files, opts.BuildFlags); err != nil {
		return nil, err
	}
	if !opts.NoTests {
		if err := c.FindTests(ctx, opts.BuildFlags); err != nil {
			return nil, err
		}
	}
	return c, nil
}

// FindTests fills c.Tests; Analyze calls it unless Options.NoTests is set,
// so that a caller can run other stages first.
func (c *Change) FindTests(ctx context.Context, buildFlags []string) error {
	start := time.Now()
	c.Tests, c.Broken = nil, nil
	if len(c.Packages) > 0 {
		if err := c.affectedTests(ctx, buildFlags); err != nil {
			return err
		}
	}
	c.Timings["affected"] = time.Since(start)
	return nil
}

// File returns the changed file at path (relative to Root, or absolute).
func (c *Change) File(path string) *File {
	if c.byPath == nil {
		c.byPath = make(map[string]*File, len(c.Files))
		for i := range c.Files {
			c.byPath[c.Files[i].Path] = &c.Files[i]
		}
	}
	if f := c.byPath[filepath.ToSlash(path)]; f != nil && !filepath.IsAbs(path) {
		return f
	}
	for _, base := range []string{c.Root, c.ModuleDir} {
		if base == "" {
			continue
		}
		abs := path
		if !filepath.IsAbs(abs) {
			abs = filepath.Join(base, path)
		}
		if rel, err := filepath.Rel(c.Root, abs); err == nil {
			if f := c.byPath[filepath.ToSlash(rel)]; f != nil {
				return f
			}
		}
	}
	return nil
}

// OnChangedLine reports whether line of file was added or rewritten by the
// change. file may be absolute, relative to the repository root, or
// relative to the module directory.
func (c *Change) OnChangedLine(file string, line int) bool {
	f := c.File(file)
	if f == nil {
		return false
	}
	for _, r := range f.Lines {
		if r.Contains(line) {
			return true
		}
	}
	return false
}

// InChangedFunc reports whether line of file is inside a function (not a
// test) that the change touched: a changed line or a deletion in its body.
func (c *Change) InChangedFunc(file string, line int) bool {
	f := c.File(file)
	if f == nil {
		return false
	}
	for _, fn := range c.Funcs {
		if !fn.Test && fn.File == f.Path && fn.Line <= line && line <= fn.EndLine {
			return true
		}
	}
	return false
}

// InHunk reports whether line of file is shown in the pull request diff
// (a changed line or its context), so that a review comment can go there.
func (c *Change) InHunk(file string, line int) bool {
	f := c.File(file)
	if f == nil {
		return false
	}
	for _, r := range f.Hunks {
		if r.Contains(line) {
			return true
		}
	}
	return false
}

// Skipped returns the changed files that are not analyzed, with reasons.
func (c *Change) Skipped() []File {
	var out []File
	for _, f := range c.Files {
		if !f.Analyzed {
			out = append(out, f)
		}
	}
	return out
}

// AnalyzedFiles counts the files that are analyzed.
func (c *Change) AnalyzedFiles() int {
	n := 0
	for _, f := range c.Files {
		if f.Analyzed {
			n++
		}
	}
	return n
}

// WriteSummary writes a plain-text account of the change: what is analyzed,
// what is not and why, the changed functions and the chosen tests.
func (c *Change) WriteSummary(w io.Writer) error {
	ew := &errWriter{w: w}
	head := c.Head
	if head == WorkTree {
		head = "the work tree"
	}
	ew.printf("change %s...%s (merge base %.12s): %d files, %d analyzed, %d packages, %d functions\n",
		c.Base, head, c.MergeBase, len(c.Files), c.AnalyzedFiles(), len(c.Packages), len(c.Funcs))
	if skipped := c.Skipped(); len(skipped) > 0 {
		ew.printf("not analyzed (%d):\n", len(skipped))
		groups := map[string][]string{}
		var reasons []string
		for _, f := range skipped {
			if _, ok := groups[f.Skip]; !ok {
				reasons = append(reasons, f.Skip)
			}
			groups[f.Skip] = append(groups[f.Skip], f.Path)
		}
		sort.Strings(reasons)
		const show = 5 // per reason; the rest is counted
		for _, r := range reasons {
			paths := groups[r]
			list := strings.Join(paths[:min(len(paths), show)], ", ")
			if len(paths) > show {
				list += fmt.Sprintf(" and %d more", len(paths)-show)
			}
			ew.printf("  %s: %s\n", r, list)
		}
	}
	for _, p := range c.Packages {
		ew.printf("package %s\n", p)
	}
	for _, f := range c.Funcs {
		ew.printf("  changed %s at %s:%d\n", f.Name, f.File, f.FirstChange())
	}
	for i, t := range c.Tests {
		ew.printf("test %d. %s %s: %s\n", i+1, t.Package, t.Name, t.Why)
	}
	for _, n := range c.Notes {
		ew.printf("note: %s\n", n)
	}
	return ew.err
}

type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) printf(format string, args ...any) {
	if e.err == nil {
		_, e.err = fmt.Fprintf(e.w, format, args...)
	}
}

// exists reports whether path exists.
func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}
