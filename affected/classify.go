package affected

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/interleave-dev/interleave/affected/diff"
)

// Reasons a changed file is recorded but not analyzed.
const (
	skipBinary    = "binary file"
	skipVendor    = "vendored code (vendor/)"
	skipTestdata  = "under testdata (the go command ignores it)"
	skipNonGo     = "not a Go file"
	skipGenerated = "generated file (Code generated ... DO NOT EDIT)"
	skipDeleted   = "deleted (its package is analyzed)"
	skipModeOnly  = "file mode change only"
	skipBuild     = "excluded by build constraints"
	skipNoPackage = "in no package of the module (ignored directory, or package removed)"
	skipParse     = "does not parse"
	skipSubmodule = "submodule"
)

// gitlinkMode is the mode git gives a submodule entry.
const gitlinkMode = "160000"

// listPackage is the part of `go list -json` output used here.
type listPackage struct {
	ImportPath     string
	Name           string
	Dir            string
	GoFiles        []string
	CgoFiles       []string
	TestGoFiles    []string
	XTestGoFiles   []string
	IgnoredGoFiles []string
	InvalidGoFiles []string
	Imports        []string
	TestImports    []string
	XTestImports   []string
	Error          *struct{ Err string }
}

// module is the Go module being analyzed and its packages.
type module struct {
	dir, path string
	pkgs      []*listPackage
	byDir     map[string]*listPackage
	byPath    map[string]*listPackage
}

// goCmd runs the go command in dir with the module's settings.
func goCmd(ctx context.Context, dir string, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = dir
	// One module at a time: a go.work around it would change what ./... means.
	cmd.Env = append(os.Environ(), "GOWORK=off")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		if errors.Is(err, exec.ErrNotFound) {
			return nil, errors.New("the go command is not installed or not in PATH")
		}
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		msg := strings.TrimSpace(stderr.String())
		if msg == "" {
			msg = err.Error()
		}
		return nil, fmt.Errorf("go %s: %s", strings.Join(args, " "), msg)
	}
	return stdout.Bytes(), nil
}

// loadModule finds the module containing dir and lists its packages.
func loadModule(ctx context.Context, dir string, buildFlags []string) (*module, error) {
	out, err := goCmd(ctx, dir, "env", "GOMOD")
	if err != nil {
		return nil, err
	}
	gomod := strings.TrimSpace(string(out))
	if gomod == "" || gomod == os.DevNull {
		return nil, fmt.Errorf("%s is not in a Go module: no go.mod in it or its parents", dir)
	}
	m := &module{dir: filepath.Dir(gomod), byDir: map[string]*listPackage{}, byPath: map[string]*listPackage{}}
	args := append([]string{"list", "-e", "-json=ImportPath,Name,Dir,GoFiles,CgoFiles,TestGoFiles,XTestGoFiles,IgnoredGoFiles,InvalidGoFiles,Imports,TestImports,XTestImports,Error"}, buildFlags...)
	args = append(args, "./...")
	out, err = goCmd(ctx, m.dir, args...)
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		p := new(listPackage)
		if err := dec.Decode(p); err == io.EOF {
			break
		} else if err != nil {
			return nil, fmt.Errorf("decode go list output: %w", err)
		}
		if p.Dir == "" {
			continue // "matched no packages" placeholder
		}
		m.pkgs = append(m.pkgs, p)
		m.byDir[p.Dir] = p
		m.byPath[p.ImportPath] = p
	}
	out, err = goCmd(ctx, m.dir, "list", "-m", "-f", "{{.Path}}")
	if err != nil {
		return nil, err
	}
	m.path = strings.TrimSpace(string(out))
	return m, nil
}

// classify fills c.Files, c.Packages and c.Funcs from the parsed diff.
func (c *Change) classify(ctx context.Context, g *git, dir string, files []*diff.File, buildFlags []string) error {
	start := time.Now()
	mod, err := loadModule(ctx, dir, buildFlags)
	if err != nil {
		return err
	}
	c.ModuleDir, c.ModulePath = mod.dir, mod.path
	c.mod = mod
	c.Timings["load"] = time.Since(start)

	c.Files = make([]File, len(files))
	var wantContent []string
	for i, df := range files {
		f := &c.Files[i]
		*f = File{Path: df.Path(), Status: df.Status, Binary: df.Binary, OldMode: df.OldMode, NewMode: df.NewMode,
			Lines: df.AddedLines(), Deletions: df.DeletionPoints(), Edits: df.Edits()}
		if df.Status == diff.Renamed || df.Status == diff.Copied || df.Status == diff.Deleted {
			f.OldPath = df.OldPath
		}
		if df.Status == diff.Added && len(df.Hunks) == 0 && !df.Binary {
			wantContent = append(wantContent, f.Path) // untracked file: all lines are new
		}
		f.Skip = c.skipByPath(f, mod)
		if f.Skip == "" && f.Status != diff.Deleted {
			wantContent = append(wantContent, f.Path)
		}
	}
	contents, err := g.contents(ctx, c.HeadCommit, dedupe(wantContent))
	if err != nil {
		return err
	}
	pkgs := map[string]bool{}
	c.declChanges = map[string]string{}
	for i := range c.Files {
		f := &c.Files[i]
		src, haveSrc := contents[f.Path]
		if haveSrc && f.Status == diff.Added && len(f.Lines) == 0 && !f.Binary {
			if bytes.IndexByte(src[:min(len(src), 8000)], 0) >= 0 {
				f.Binary = true // git's own test: a NUL in the first 8000 bytes
				if f.Skip == "" {
					f.Skip = skipBinary
				}
			} else if n := lineCount(src); n > 0 {
				f.Lines = []diff.Range{{Start: 1, End: n}}
			}
		}
		n := 0
		if haveSrc {
			n = lineCount(src)
		}
		f.Hunks = contextRanges(f.Lines, f.Deletions, n)
		if f.Skip != "" {
			continue
		}
		lp := mod.byDir[filepath.Join(c.Root, filepath.FromSlash(path.Dir(f.Path)))]
		if f.Status == diff.Deleted {
			f.Skip = skipDeleted
			if lp != nil {
				f.Package = lp.ImportPath
				pkgs[lp.ImportPath] = true
			}
			continue
		}
		if f.ModeChanged() && len(f.Lines) == 0 && len(f.Deletions) == 0 && f.Status == diff.Modified {
			f.Skip = skipModeOnly + fmt.Sprintf(" (%s to %s)", f.OldMode, f.NewMode)
			continue
		}
		f.Package = lp.ImportPath
		if f.Status == diff.Renamed && strings.HasSuffix(f.OldPath, ".go") {
			// The file left its old package too.
			if old := mod.byDir[filepath.Join(c.Root, filepath.FromSlash(path.Dir(f.OldPath)))]; old != nil {
				pkgs[old.ImportPath] = true
			}
		}
		if !haveSrc {
			// Unreadable at head: count the package, nothing more.
			f.Analyzed = true
			pkgs[lp.ImportPath] = true
			continue
		}
		fset := token.NewFileSet()
		file, err := parser.ParseFile(fset, f.Path, src, parser.ParseComments|parser.SkipObjectResolution)
		if file == nil {
			f.Skip = fmt.Sprintf("%s: %v", skipParse, err)
			continue
		}
		if ast.IsGenerated(file) {
			f.Skip = skipGenerated
			f.Package = ""
			continue
		}
		f.Analyzed = true
		pkgs[lp.ImportPath] = true
		if err != nil {
			c.Notes = append(c.Notes, fmt.Sprintf("%s does not parse at head: %v", f.Path, err))
		}
		c.Funcs = append(c.Funcs, changedFuncs(fset, file, f)...)
		if pos := changedDecl(fset, file, f); pos != "" {
			if _, ok := c.declChanges[lp.ImportPath]; !ok {
				c.declChanges[lp.ImportPath] = pos
			}
		}
	}
	sort.SliceStable(c.Files, func(i, j int) bool { return c.Files[i].Path < c.Files[j].Path })
	c.byPath = nil
	for p := range pkgs {
		c.Packages = append(c.Packages, p)
	}
	sort.Strings(c.Packages)
	sort.SliceStable(c.Funcs, func(i, j int) bool {
		if c.Funcs[i].File != c.Funcs[j].File {
			return c.Funcs[i].File < c.Funcs[j].File
		}
		return c.Funcs[i].Line < c.Funcs[j].Line
	})
	return nil
}

// skipByPath returns why f is not analyzed, judging by its path and what
// the go command says about its directory, or "" to analyze it.
func (c *Change) skipByPath(f *File, mod *module) string {
	elems := strings.Split(f.Path, "/")
	switch {
	case f.OldMode == gitlinkMode || f.NewMode == gitlinkMode:
		return skipSubmodule
	case f.Binary:
		return skipBinary
	case slices.Contains(elems[:len(elems)-1], "vendor"):
		return skipVendor
	case slices.Contains(elems[:len(elems)-1], "testdata"):
		return skipTestdata
	case !strings.HasSuffix(f.Path, ".go"):
		return skipNonGo
	}
	abs := filepath.Join(c.Root, filepath.FromSlash(f.Path))
	if rel, err := filepath.Rel(mod.dir, abs); err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return fmt.Sprintf("outside module %s", mod.path)
	}
	lp := mod.byDir[filepath.Dir(abs)]
	if lp == nil {
		for d := filepath.Dir(abs); len(d) > len(mod.dir); d = filepath.Dir(d) {
			if exists(filepath.Join(d, "go.mod")) {
				rel, _ := filepath.Rel(c.Root, d)
				return fmt.Sprintf("in another module (%s/go.mod)", filepath.ToSlash(rel))
			}
		}
		return skipNoPackage
	}
	if f.Status == diff.Deleted {
		return ""
	}
	name := path.Base(f.Path)
	for _, list := range [][]string{lp.GoFiles, lp.CgoFiles, lp.TestGoFiles, lp.XTestGoFiles, lp.InvalidGoFiles} {
		if slices.Contains(list, name) {
			return ""
		}
	}
	if slices.Contains(lp.IgnoredGoFiles, name) {
		return skipBuild
	}
	if strings.HasPrefix(name, "_") || strings.HasPrefix(name, ".") {
		return "ignored by the go command (name starts with _ or .)"
	}
	return skipBuild
}

// changedFuncs returns the functions of file that contain a changed line or
// a deletion.
func changedFuncs(fset *token.FileSet, file *ast.File, f *File) []Func {
	var out []Func
	for _, d := range file.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok {
			continue
		}
		start, end := fset.Position(fd.Pos()).Line, fset.Position(fd.End()).Line
		changed := intersect(f.Lines, start, end)
		for _, del := range f.Deletions {
			if start <= del && del < end {
				changed = append(changed, diff.Range{Start: max(del, start), End: max(del, start)})
			}
		}
		if len(changed) == 0 {
			continue
		}
		sort.Slice(changed, func(i, j int) bool { return changed[i].Start < changed[j].Start })
		out = append(out, Func{
			Package: f.Package,
			File:    f.Path,
			Name:    funcName(fd),
			Line:    start,
			EndLine: end,
			Changed: changed,
			Test:    fd.Recv == nil && strings.HasSuffix(f.Path, "_test.go") && strings.HasPrefix(fd.Name.Name, "Test"),
		})
	}
	return out
}

// changedDecl returns "file:line" of the first changed line inside a
// package-level type, var or const declaration, or "".
func changedDecl(fset *token.FileSet, file *ast.File, f *File) string {
	for _, d := range file.Decls {
		gd, ok := d.(*ast.GenDecl)
		if !ok || gd.Tok == token.IMPORT {
			continue
		}
		start, end := fset.Position(gd.Pos()).Line, fset.Position(gd.End()).Line
		if r := intersect(f.Lines, start, end); len(r) > 0 {
			return fmt.Sprintf("%s:%d", f.Path, r[0].Start)
		}
		for _, del := range f.Deletions {
			if start <= del && del < end {
				return fmt.Sprintf("%s:%d", f.Path, del)
			}
		}
	}
	return ""
}

// funcName writes a function as Go documentation does: F, (T).M, (*T).M.
func funcName(fd *ast.FuncDecl) string {
	if fd.Recv == nil || len(fd.Recv.List) == 0 {
		return fd.Name.Name
	}
	t := fd.Recv.List[0].Type
	star := ""
	if s, ok := t.(*ast.StarExpr); ok {
		star, t = "*", s.X
	}
	switch x := t.(type) {
	case *ast.IndexExpr:
		t = x.X
	case *ast.IndexListExpr:
		t = x.X
	}
	name := "?"
	if id, ok := t.(*ast.Ident); ok {
		name = id.Name
	}
	return fmt.Sprintf("(%s%s).%s", star, name, fd.Name.Name)
}

// intersect returns the parts of rs inside [start, end].
func intersect(rs []diff.Range, start, end int) []diff.Range {
	var out []diff.Range
	for _, r := range rs {
		s, e := max(r.Start, start), min(r.End, end)
		if s <= e {
			out = append(out, diff.Range{Start: s, End: e})
		}
	}
	return out
}

// contextRanges widens the changed lines and deletion points by
// ContextLines and merges them, as git does for a -U3 diff. n is the number
// of lines of the new file, or 0 when unknown.
func contextRanges(lines []diff.Range, deletions []int, n int) []diff.Range {
	var rs []diff.Range
	for _, r := range lines {
		rs = append(rs, diff.Range{Start: r.Start - ContextLines, End: r.End + ContextLines})
	}
	for _, d := range deletions {
		rs = append(rs, diff.Range{Start: d - ContextLines + 1, End: d + ContextLines})
	}
	sort.Slice(rs, func(i, j int) bool { return rs[i].Start < rs[j].Start })
	var out []diff.Range
	for _, r := range rs {
		r.Start = max(r.Start, 1)
		if n > 0 {
			r.End = min(r.End, n)
		}
		if r.Start > r.End {
			continue
		}
		if k := len(out); k > 0 && out[k-1].End+1 >= r.Start {
			out[k-1].End = max(out[k-1].End, r.End)
			continue
		}
		out = append(out, r)
	}
	return out
}

func lineCount(b []byte) int {
	if len(b) == 0 {
		return 0
	}
	n := bytes.Count(b, []byte{'\n'})
	if b[len(b)-1] != '\n' {
		n++
	}
	return n
}

func dedupe(s []string) []string {
	sort.Strings(s)
	return slices.Compact(s)
}
