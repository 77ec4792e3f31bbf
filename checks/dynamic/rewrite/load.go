package rewrite

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/version"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"

	"golang.org/x/tools/go/packages"

	"github.com/interleave-dev/interleave/checks/dynamic/internal/stdsyntax"
	"github.com/interleave-dev/interleave/checks/dynamic/rt"
)

// rtImportName is the name under which rewritten files import the runtime.
const rtImportName = "interleavert"

// rtDir is where the runtime appears in the main module (overlay only)
// when it cannot be shared (sharedRuntimeOK):
// <module path>/interleavert, a path that is not internal, so that
// rewritten dependency packages may import it too (the go command resolves
// a dependency's import of a main-module package against the main module,
// in module and vendor mode alike).
const rtDir = "interleavert"

// driverFile is the base name of the generated driver test file.
const driverFile = "zz_interleave_driver_test.go"

const loadMode = packages.NeedName | packages.NeedFiles | packages.NeedCompiledGoFiles |
	packages.NeedImports | packages.NeedDeps | packages.NeedTypes | packages.NeedSyntax |
	packages.NeedTypesInfo | packages.NeedModule | packages.NeedForTest

func instrument(ctx context.Context, opts Options) (res *Result, err error) {
	dir := opts.Dir
	if dir == "" {
		if dir, err = os.Getwd(); err != nil {
			return nil, err
		}
	}
	if dir, err = filepath.Abs(dir); err != nil {
		return nil, err
	}
	patterns := opts.Patterns
	if len(patterns) == 0 {
		patterns = []string{"."}
	}
	goenv, err := goEnvModule(ctx, dir)
	if err != nil {
		return nil, err
	}
	gomod := goenv.GOMOD
	if gomod == "" || gomod == os.DevNull {
		return nil, fmt.Errorf("rewrite: %s is not inside a Go module (go env GOMOD is empty): instrumentation needs a go.mod", dir)
	}
	modRoot := filepath.Dir(gomod)

	cfg := &packages.Config{
		Context:    ctx,
		Mode:       loadMode,
		Dir:        dir,
		Tests:      true,
		BuildFlags: opts.BuildFlags,
		Overlay:    opts.Overlay,
		ParseFile:  stdsyntax.ParseFile(goEnv(ctx, dir, "GOROOT")),
	}
	pkgs, err := packages.Load(cfg, patterns...)
	if err != nil {
		return nil, fmt.Errorf("rewrite: loading %s: %w", strings.Join(patterns, " "), err)
	}
	pkgs, leftOut := dropBrokenUntested(pkgs)
	if len(pkgs) == 0 && len(leftOut) > 0 {
		return nil, &BuildError{Errors: leftOut}
	}
	// A package whose tests do not compile is left out when another one
	// builds, as go test ./... fails it alone and tests the rest; when
	// none builds, the whole is the error below.
	if kept, broken := dropBrokenTested(pkgs, gomod, modRoot); len(kept) > 0 {
		if len(broken) > 0 {
			if hint := toolchainHint(ctx, dir); hint != "" {
				for i := range broken {
					broken[i] += "\n\t" + hint
				}
			}
		}
		pkgs, leftOut = kept, append(leftOut, broken...)
	}
	if berr := collectErrors(pkgs, gomod); berr != nil {
		berr.Hint = toolchainHint(ctx, dir)
		return nil, berr
	}
	if len(pkgs) == 0 {
		return nil, fmt.Errorf("rewrite: no packages match %s", strings.Join(patterns, " "))
	}

	modPath, modGo := "", ""
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		if modPath == "" && p.Module != nil && sameFile(p.Module.GoMod, gomod) {
			modPath, modGo = p.Module.Path, p.Module.GoVersion
		}
	})
	if modPath == "" {
		return nil, fmt.Errorf("rewrite: no package matched by %s belongs to the module at %s", strings.Join(patterns, " "), modRoot)
	}

	tmp, err := os.MkdirTemp("", "interleave-rewrite-")
	if err != nil {
		return nil, err
	}
	res = &Result{
		ModuleRoot: modRoot,
		ModulePath: modPath,
		TempDir:    tmp,
		RuntimeDir: filepath.Join(modRoot, rtDir),
		Files:      map[string]string{},
		DepFiles:   map[string]string{},
		LeftOut:    leftOut,
		depSync:    opts.DepSync,
	}
	defer func() {
		if err != nil {
			os.RemoveAll(tmp) // res is nil here: `return nil, err` set it
			res = nil
		}
	}()
	replace := map[string]string{}
	rtImport := modPath + "/" + rtDir
	shared := sharedRuntimeOK(goenv, opts.BuildFlags, modRoot)
	if shared {
		if res.RuntimeDir, err = sharedRuntime(tmp); err != nil {
			return nil, err
		}
		rtImport = rtModPath
	}

	// Every in-module package the test binaries import, test variants first
	// (they hold the _test.go files and the most complete type information).
	var all []*packages.Package
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		if p.Module != nil && p.Module.Path == modPath && sameFile(p.Module.GoMod, gomod) {
			all = append(all, p)
		}
	})
	sort.SliceStable(all, func(i, j int) bool {
		return (all[i].ForTest != "") && (all[j].ForTest == "")
	})
	done := map[string]bool{}
	for _, p := range all {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		parsed := map[string]bool{}
		for _, f := range p.Syntax {
			parsed[fileName(p, f)] = true
		}
		for _, name := range p.GoFiles {
			if !parsed[name] && !done[name] && inModuleTree(modRoot, name) {
				done[name] = true
				res.Warnings = append(res.Warnings, name+": not instrumented (cgo file: the compiler sees the cgo-generated copy)")
			}
		}
		for _, f := range p.Syntax {
			name := p.Fset.File(f.Pos()).Name()
			if done[name] || !inModuleTree(modRoot, name) {
				continue
			}
			done[name] = true
			src, over := opts.Overlay[name]
			if !over {
				var rerr error
				if src, rerr = os.ReadFile(name); rerr != nil {
					return nil, rerr
				}
			}
			out, warns, changed, rerr := rewriteFile(p, f, src, rtImport)
			res.Warnings = append(res.Warnings, warns...)
			if rerr != nil {
				return nil, fmt.Errorf("rewrite: %s: %w", name, rerr)
			}
			if !changed && !over {
				continue
			}
			rel, _ := filepath.Rel(modRoot, name)
			dst := filepath.Join(tmp, "src", rel)
			if err := writeFile(dst, out); err != nil {
				return nil, err
			}
			replace[name] = dst
			res.Files[name] = dst
		}
	}

	// Dependencies: their time operations, so that the test sees one clock.
	replaced, err := rewriteDeps(ctx, pkgs, rtImport, tmp, replace, res, opts.DepSync)
	if err != nil {
		return nil, err
	}
	// The alternate go.mod: the dependencies' copies and the shared runtime.
	if len(replaced) > 0 || shared {
		if err := writeModFile(res, tmp, replaced, shared); err != nil {
			return nil, err
		}
	}

	// The runtime inside the main module, when it cannot be shared.
	var ents []fs.DirEntry
	if !shared {
		if ents, err = fs.ReadDir(rt.Source, "."); err != nil {
			return nil, err
		}
	}
	for _, e := range ents {
		n := e.Name()
		if !runtimeFile(e) {
			continue
		}
		if slices.Contains(rt.AsmFiles, n) {
			continue
		}
		data, err := fs.ReadFile(rt.Source, n)
		if err != nil {
			return nil, err
		}
		if n == rt.NoAsmFile {
			_, data, _ = bytes.Cut(data, []byte("\n"))
		}
		dst := filepath.Join(tmp, "interleavert", n)
		// A go.mod without a go line means go 1.16.
		if v := "go" + cmp.Or(modGo, "1.16"); strings.HasSuffix(n, ".go") && version.IsValid(v) && version.Compare(v, minGo) < 0 {
			data = runtimeSource(filepath.Join(res.RuntimeDir, n), data, minGo)
		}
		if err := writeFile(dst, data); err != nil {
			return nil, err
		}
		replace[filepath.Join(res.RuntimeDir, n)] = dst
	}

	// Drivers.
	for _, d := range planDrivers(pkgs) {
		if len(d.tests) == 0 {
			continue
		}
		if !inModuleTree(modRoot, d.dir) {
			res.Warnings = append(res.Warnings, fmt.Sprintf("%s: not in the main module (%s): its tests are not driven", d.importPath, modPath))
			continue
		}
		src := driverSource(d, rtImport)
		dst := filepath.Join(tmp, "driver", strings.ReplaceAll(d.importPath, "/", "_"), driverFile)
		if err := writeFile(dst, src); err != nil {
			return nil, err
		}
		onDisk := filepath.Join(d.dir, driverFile)
		replace[onDisk] = dst
		names := make([]string, 0, len(d.tests))
		for _, t := range d.tests {
			if len(names) == 0 || names[len(names)-1] != t.name {
				names = append(names, t.name) // a name both test packages declare once
			}
		}
		res.Packages = append(res.Packages, Package{ImportPath: d.importPath, Dir: d.dir, Tests: names, TestFiles: d.testFiles, Excluded: d.excluded, Driver: onDisk})
		res.Warnings = append(res.Warnings, d.warnings...)
	}
	sort.Slice(res.Packages, func(i, j int) bool { return res.Packages[i].ImportPath < res.Packages[j].ImportPath })
	sort.Strings(res.Warnings)

	data, err := json.MarshalIndent(struct{ Replace map[string]string }{replace}, "", "\t")
	if err != nil {
		return nil, err
	}
	res.Overlay = filepath.Join(tmp, "overlay.json")
	res.TestFlags = append(append([]string{}, opts.BuildFlags...), "-overlay="+res.Overlay, "-vet=off")
	if res.ModFile != "" {
		res.TestFlags = append(res.TestFlags, "-modfile="+res.ModFile)
	}
	if err := os.WriteFile(res.Overlay, data, 0o644); err != nil {
		return nil, err
	}
	return res, nil
}

// goVersionIn is the Go release the go command selects in dir
// (go.mod's toolchain line, GOTOOLCHAIN), or "".
// toolchainHint says, when the module in dir builds with another Go
// release than interleave was built with, that its type checker may be
// why the code does not compile here, and how to run a matching one; ""
// otherwise.
func toolchainHint(ctx context.Context, dir string) string {
	return hintFor(goVersionIn(ctx, dir), runtime.Version())
}

// hintFor is toolchainHint for a module that builds with release v and an
// interleave built with built.
func hintFor(v, built string) string {
	if v == "" || langVersion(v) == langVersion(built) {
		return ""
	}
	return fmt.Sprintf("interleave was built with %s and reads the module's code with that release's type checker; the module builds with %s. "+
		"If the code compiles with go build, run interleave built by the same toolchain: GOTOOLCHAIN=%s go run github.com/interleave-dev/interleave/cmd/interleave@latest ...",
		built, v, v)
}

func goVersionIn(ctx context.Context, dir string) string {
	cmd := exec.CommandContext(ctx, "go", "env", "GOVERSION")
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
}

// runtimeSource gives a runtime file a build constraint that sets its
// language version to at least lang, for a module whose go.mod says an
// older one (the runtime is generic). A constraint already on the first line is
// extended in place; otherwise the new lines are followed by a line
// directive that keeps the file's own line numbers.
func runtimeSource(name string, data []byte, lang string) []byte {
	if rest, ok := bytes.CutPrefix(data, []byte("//go:build ")); ok {
		line, tail, _ := bytes.Cut(rest, []byte("\n"))
		return []byte("//go:build " + lang + " && (" + strings.TrimSpace(string(line)) + ")\n" + string(tail))
	}
	return []byte("//go:build " + lang + "\n\n//line " + name + ":1\n" + string(data))
}

// langVersion cuts a release ("go1.27.3") to its language version ("go1.27").
func langVersion(v string) string {
	if i := strings.Index(v, "."); i >= 0 {
		if j := strings.Index(v[i+1:], "."); j >= 0 {
			return v[:i+1+j]
		}
	}
	return v
}

// goEnvModule is go env GOMOD, GOWORK and GOFLAGS in dir.
func goEnvModule(ctx context.Context, dir string) (env, error) {
	var e env
	if st, err := os.Stat(dir); err != nil {
		return e, fmt.Errorf("rewrite: %w", err)
	} else if !st.IsDir() {
		return e, fmt.Errorf("rewrite: %s is not a directory", dir)
	}
	cmd := exec.CommandContext(ctx, "go", "env", "-json", "GOMOD", "GOWORK", "GOFLAGS")
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err == nil {
		err = json.Unmarshal(out, &e)
	}
	if err != nil {
		return e, fmt.Errorf("rewrite: go env GOMOD in %s: %v: %s", dir, err, strings.TrimSpace(stderr.String()))
	}
	return e, nil
}

// dropBrokenUntested removes from the loaded packages those with no test
// files that do not compile and that no other loaded package imports (an
// examples directory of several main files): they have no test to search,
// and go test ./... fails them alone, testing the rest. It returns the
// packages kept and, for each one removed, "path: not searched, it does
// not compile and has no tests (first error)".
func dropBrokenUntested(pkgs []*packages.Package) ([]*packages.Package, []string) {
	tested := map[string]bool{}
	imported := map[string]bool{}
	for _, p := range pkgs {
		if p.ForTest != "" {
			tested[p.ForTest] = true
		}
		for path := range p.Imports {
			imported[path] = true
		}
	}
	var kept []*packages.Package
	var out []string
	for _, p := range pkgs {
		if p.ForTest == "" && !strings.HasSuffix(p.ID, ".test") && len(p.Errors) > 0 && !tested[p.PkgPath] && !imported[p.PkgPath] {
			e := p.Errors[0]
			msg := e.Msg
			if e.Pos != "" && e.Pos != "-" {
				msg = e.Pos + ": " + msg
			}
			out = append(out, fmt.Sprintf("%s: not searched: it does not compile and has no tests (%s)", p.PkgPath, msg))
			continue
		}
		kept = append(kept, p)
	}
	return kept, out
}

// brokenErrors is how many of a left-out package's errors its line in
// Result.LeftOut shows.
const brokenErrors = 3

// dropBrokenTested removes from the loaded packages each package under test
// whose build for go test does not compile: the package, its test
// variants and its test main, when collectErrors finds an error in any of
// them or their dependencies. It returns the packages kept and, for each
// package removed, "path: not searched: does not compile" with its first
// errors on the lines below (their files relative to modRoot, as go test
// prints them). When no package kept has tests, it keeps nothing (nil):
// the errors are then the outcome. A package other packages import is left out
// with them, for their own builds fail on it too.
func dropBrokenTested(pkgs []*packages.Package, gomod, modRoot string) ([]*packages.Package, []string) {
	// Each loaded package by the package it tests: p itself, "p [p.test]",
	// "p_test [p.test]" and "p.test" go together.
	var order []string
	groups := map[string][]*packages.Package{}
	for _, p := range pkgs {
		key := p.PkgPath
		if p.ForTest != "" {
			key = p.ForTest
		} else if strings.HasSuffix(p.ID, ".test") {
			key = strings.TrimSuffix(p.ID, ".test")
		}
		if _, ok := groups[key]; !ok {
			order = append(order, key)
		}
		groups[key] = append(groups[key], p)
	}
	var kept []*packages.Package
	var out []string
	keptTests := false // whether a package kept has tests to search
	for _, key := range order {
		berr := collectErrors(groups[key], gomod)
		if berr == nil {
			kept = append(kept, groups[key]...)
			for _, p := range groups[key] {
				keptTests = keptTests || p.ForTest != ""
			}
			continue
		}
		var b strings.Builder
		fmt.Fprintf(&b, "%s: not searched: does not compile", key)
		n := min(len(berr.Errors), brokenErrors)
		for _, e := range berr.Errors[:n] {
			fmt.Fprintf(&b, "\n\t%s", strings.TrimPrefix(e, modRoot+string(filepath.Separator)))
		}
		if more := len(berr.Errors) - n; more > 0 {
			fmt.Fprintf(&b, "\n\t... and %d more", more)
		}
		out = append(out, b.String())
	}
	if !keptTests {
		// Nothing left to search: the errors are the outcome.
		return nil, nil
	}
	return kept, out
}

// collectErrors returns a *BuildError listing the load and parse errors of
// the loaded packages and their dependencies and the type errors of the
// main module's packages (go.mod at gomod), or nil.
//
// Type errors outside the main module are left to the compiler: go/types
// here is the one interleave was built with, and a standard library or
// dependency of another Go release may use language it does not know (Go
// 1.27's internal/poll fills promoted fields in a struct literal). `go test
// -c` with the module's own toolchain reports any real error later.
func collectErrors(pkgs []*packages.Package, gomod string) *BuildError {
	seen := map[string]bool{}
	var errs []string
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		inMain := p.Module != nil && sameFile(p.Module.GoMod, gomod)
		for _, e := range p.Errors {
			if e.Kind == packages.TypeError && (!inMain || tooNew(e.Msg)) {
				continue
			}
			s := e.Msg
			if e.Pos != "" && e.Pos != "-" {
				s = e.Pos + ": " + e.Msg
			}
			if !seen[s] {
				seen[s] = true
				errs = append(errs, s)
			}
		}
	})
	if len(errs) == 0 {
		return nil
	}
	sort.Strings(errs)
	return &BuildError{Errors: errs}
}

// tooNew reports whether msg is go/types saying that the package or file
// is for a newer Go than the one interleave was built with: the checking
// goes on, and only an error in the language it does not know matters.
func tooNew(msg string) bool {
	return strings.Contains(msg, "requires newer Go version") && strings.Contains(msg, "application built with")
}

func sameFile(a, b string) bool {
	if a == b {
		return true
	}
	sa, err1 := os.Stat(a)
	sb, err2 := os.Stat(b)
	return err1 == nil && err2 == nil && os.SameFile(sa, sb)
}

// inModuleTree reports whether file lies in the module rooted at root,
// outside vendor/.
func inModuleTree(root, file string) bool {
	rel, err := filepath.Rel(root, file)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
		return false
	}
	for _, el := range strings.Split(filepath.ToSlash(rel), "/") {
		if el == "vendor" {
			return false
		}
	}
	return true
}

func writeFile(name string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		return err
	}
	return os.WriteFile(name, data, 0o644)
}

// fileName returns the file name of an AST file.
func fileName(p *packages.Package, f *ast.File) string { return p.Fset.File(f.Pos()).Name() }
