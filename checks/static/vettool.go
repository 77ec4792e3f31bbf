package static

// Running the suite under go vet -vettool: the vet tool, and reading what go vet prints.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"slices"
	"sort"
	"strconv"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/unitchecker"
	"golang.org/x/tools/go/packages"

	"github.com/interleave-dev/interleave/checks"
)

// runVet is run driven by go vet: go vet -vettool=opts.VetTool -json
// analyzes the packages, the tool's files analyzer names each package's
// files (for the directives), and the diagnostics become findings exactly
// as in process. A package that does not compile makes go vet fail; the
// in-process loader then says which package and why, as it always has.
func runVet(ctx context.Context, dir string, patterns []string, opts Options, passes []Pass, enabled map[string]bool, analyzers []*analysis.Analyzer) (*Result, error) {
	// go vet runs every pass, whatever the rule selection: the selection is
	// then not part of go vet's cache key, so changing -enable or -disable
	// reuses the cached results. Passes not selected are dropped below, as
	// if they had not run.
	suite := make([]*analysis.Analyzer, len(passes))
	var selected []Pass
	for i, p := range passes {
		suite[i] = p.Analyzer
		if slices.Contains(analyzers, p.Analyzer) {
			selected = append(selected, p)
		}
	}
	tree, err := goVet(ctx, dir, patterns, opts, suite)
	var broken []PackageErrors
	if err != nil && opts.KeepGoing && ctx.Err() == nil {
		tree, broken, err = vetKeepGoing(ctx, dir, patterns, opts, suite, err)
	}
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, explainFailure(ctx, dir, patterns, opts, analyzers, err)
	}
	roots, err := tree.packages()
	if err != nil {
		return nil, err
	}
	if len(roots) == 0 && len(broken) == 0 {
		return nil, fmt.Errorf("pattern %s matched no packages in %s", strings.Join(patterns, " "), dir)
	}
	res := &Result{Packages: packagePaths(roots), Broken: broken}
	diags, err := tree.diagnostics(selected)
	if err != nil {
		return nil, err
	}
	c := newConverter(roots, allRules(passes))
	res.Findings = finish(c, c.vetFindings(diags), enabled, opts.MinSeverity)
	return res, nil
}

// explainFailure says why go vet failed the way the in-process driver
// would: a LoadError naming each package that does not compile, with its
// compiler errors. When go vet named packages ("# path"), it type-checks
// those (their dependencies from export data, so it is quick); otherwise
// (go list failed: no Go files, a bad import) it loads the patterns as
// the in-process driver does. If that finds nothing wrong, a pass or the
// vet tool failed, and go vet's own error says how.
func explainFailure(ctx context.Context, dir string, patterns []string, opts Options, analyzers []*analysis.Analyzer, vetErr error) error {
	var verr *vetError
	if errors.As(vetErr, &verr) && len(verr.packages) > 0 {
		_, err := load(ctx, dir, verr.packages, opts, false)
		if lerr := (*LoadError)(nil); errors.As(err, &lerr) {
			return lerr
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return vetErr
	}
	if _, err := load(ctx, dir, patterns, opts, needFacts(analyzers)); err != nil {
		return err
	}
	return vetErr
}

// vetError is go vet failing: the packages it printed errors for ("# path"
// headers), everything it printed, and the results of the packages it
// analyzed all the same.
type vetError struct {
	tool     string
	err      error
	packages []string
	output   string
	tree     vetTree
}

// vetKeepGoing is runVet's KeepGoing after go vet failed with vetErr: the
// results of the packages go vet analyzed, and the packages that do not
// compile or load. When go list failed (go vet then analyzes nothing), it
// lists the packages that cannot be loaded and runs go vet again without
// them. An error means something else failed: a pass, or the vet tool.
func vetKeepGoing(ctx context.Context, dir string, patterns []string, opts Options, suite []*analysis.Analyzer, vetErr error) (vetTree, []PackageErrors, error) {
	var verr *vetError
	if !errors.As(vetErr, &verr) {
		return nil, nil, vetErr
	}
	var broken []PackageErrors
	if len(verr.packages) == 0 {
		lerr, good, err := listErrors(ctx, dir, patterns, opts)
		if err != nil || lerr == nil {
			return nil, nil, vetErr
		}
		broken = lerr.Packages
		if len(good) == 0 {
			return vetTree{}, broken, nil
		}
		tree, err := goVet(ctx, dir, good, opts, suite)
		if err == nil {
			return tree, broken, nil
		}
		if !errors.As(err, &verr) || len(verr.packages) == 0 {
			return nil, nil, err
		}
		vetErr = err
	}
	if tree, left, ok, err := vetWithoutBrokenDeps(ctx, dir, patterns, opts, suite, verr); ok {
		if err != nil {
			return nil, nil, err
		}
		broken = append(broken, left...)
		sort.Slice(broken, func(i, j int) bool { return broken[i].Path < broken[j].Path })
		return tree, broken, nil
	}
	// go vet named the packages that failed: each must be a package that
	// does not compile, not a pass or the tool failing on it.
	_, err := load(ctx, dir, verr.packages, opts, false)
	var lerr *LoadError
	if !errors.As(err, &lerr) {
		return nil, nil, vetErr
	}
	for _, path := range verr.packages {
		if !slices.ContainsFunc(lerr.Packages, func(p PackageErrors) bool { return p.Path == path || p.Path == path+"_test" }) {
			return nil, nil, vetErr
		}
	}
	broken = append(broken, lerr.Packages...)
	sort.Slice(broken, func(i, j int) bool { return broken[i].Path < broken[j].Path })
	return verr.tree, broken, nil
}

// vetWithoutBrokenDeps handles go vet failing on dependencies outside
// patterns (an old release that today's compiler rejects): the matched
// packages that import one, themselves or through their tests, are left
// out, each with the dependency's compiler lines, and go vet analyzes the
// others again. ok is false when go vet named no such dependency.
func vetWithoutBrokenDeps(ctx context.Context, dir string, patterns []string, opts Options, suite []*analysis.Analyzer, verr *vetError) (tree vetTree, broken []PackageErrors, ok bool, err error) {
	imports, err := unitImports(ctx, dir, patterns, opts)
	if err != nil {
		return nil, nil, false, nil
	}
	var deps []string
	for _, path := range compileFailures(verr.output) {
		if _, matched := imports[strings.TrimSuffix(path, "_test")]; !matched {
			deps = append(deps, path)
		}
	}
	if len(deps) == 0 {
		return nil, nil, false, nil
	}
	var good []string
	for _, unit := range slices.Sorted(maps.Keys(imports)) {
		i := slices.IndexFunc(deps, func(d string) bool { return imports[unit][d] })
		if i < 0 {
			good = append(good, unit)
			continue
		}
		lines := append([]string{"its dependency " + deps[i] + " does not compile:"}, vetOutputOf(verr.output, deps[i])...)
		broken = append(broken, PackageErrors{Path: unit, Errors: lines})
	}
	if len(broken) == 0 {
		return nil, nil, false, nil
	}
	if len(good) == 0 {
		return vetTree{}, broken, true, nil
	}
	tree, err = goVet(ctx, dir, good, opts, suite)
	if err == nil {
		return tree, broken, true, nil
	}
	tree, more, err := vetKeepGoing(ctx, dir, good, opts, suite, err)
	if err != nil {
		return nil, nil, true, err
	}
	return tree, append(broken, more...), true, nil
}

// compileFailures lists the packages go vet printed compiler errors for:
// "# path" and "# path [path.test]" headers, not the vet tool's own
// failures ("# [path]"), which are the tool's, not the package's.
func compileFailures(out string) []string {
	var paths []string
	for _, line := range strings.Split(out, "\n") {
		if path, tool, ok := vetHeader(line); ok && !tool && !slices.Contains(paths, path) {
			paths = append(paths, path)
		}
	}
	return paths
}

// unitImports lists, for each package patterns match (a package with its
// tests, as go vet analyzes it), every import path it depends on.
func unitImports(ctx context.Context, dir string, patterns []string, opts Options) (map[string]map[string]bool, error) {
	pkgs, err := listPackages(ctx, dir, patterns, opts)
	if err != nil {
		return nil, err
	}
	imports := map[string]map[string]bool{}
	for _, p := range pkgs {
		unit := unitOf(p)
		if imports[unit] == nil {
			imports[unit] = map[string]bool{}
		}
		packages.Visit([]*packages.Package{p}, func(q *packages.Package) bool {
			if q != p {
				imports[unit][q.PkgPath] = true
			}
			return true
		}, nil)
	}
	return imports, nil
}

// vetOutputOf is what go vet printed under the "# path" header of one
// package: its compiler's lines.
func vetOutputOf(out, path string) []string {
	var lines []string
	in := false
	for _, line := range strings.Split(out, "\n") {
		if name, tool, ok := vetHeader(line); ok {
			in = name == path && !tool
			continue
		}
		if in && strings.TrimSpace(line) != "" {
			lines = append(lines, strings.TrimSpace(line))
		}
	}
	return lines
}

// listPackages runs go list (no compiling) over patterns and their
// dependencies, tests included when opts says so.
func listPackages(ctx context.Context, dir string, patterns []string, opts Options) ([]*packages.Package, error) {
	return packages.Load(&packages.Config{
		Mode:       packages.NeedName | packages.NeedFiles | packages.NeedEmbedFiles | packages.NeedImports | packages.NeedDeps | packages.NeedModule | packages.NeedForTest,
		Context:    ctx,
		Dir:        dir,
		Tests:      opts.Tests,
		BuildFlags: opts.BuildFlags,
	}, patterns...)
}

// unitOf is the package go vet analyzes p as part of: the package under
// test for its test variants and test main, else p itself.
func unitOf(p *packages.Package) string {
	if p.ForTest != "" {
		return p.ForTest
	}
	return strings.TrimSuffix(p.PkgPath, ".test")
}

// listErrors runs go list (no compiling) over patterns and its
// dependencies: the packages that cannot be loaded, and the import paths
// of the matched packages that can, their tests and dependencies too.
func listErrors(ctx context.Context, dir string, patterns []string, opts Options) (*LoadError, []string, error) {
	pkgs, err := listPackages(ctx, dir, patterns, opts)
	if err != nil {
		return nil, nil, err
	}
	lerr := loadErrors(dir, pkgs)
	bad := map[*packages.Package]bool{}
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		bad[p] = len(p.Errors) > 0
		for _, imp := range p.Imports {
			bad[p] = bad[p] || bad[imp]
		}
	})
	// go vet analyzes a package with its tests: the package is good when
	// every variant of it is.
	ok := map[string]bool{}
	for _, p := range pkgs {
		u := unitOf(p)
		if _, seen := ok[u]; !seen {
			ok[u] = true
		}
		ok[u] = ok[u] && !bad[p]
	}
	var good []string
	for u, g := range ok {
		if g {
			good = append(good, u)
		}
	}
	sort.Strings(good)
	return lerr, good, nil
}

func (e *vetError) Error() string {
	return fmt.Sprintf("go vet -vettool=%s failed (%v):\n%s", e.tool, e.err, e.output)
}

// vetErrorPackages lists the import paths of go vet's "# path", "# path
// [path.test]" and (vet tool failures) "# [path]" headers, each once.
func vetErrorPackages(out string) []string {
	var paths []string
	for _, line := range strings.Split(out, "\n") {
		if path, _, ok := vetHeader(line); ok && !slices.Contains(paths, path) {
			paths = append(paths, path)
		}
	}
	return paths
}

// vetHeader reads one of go vet's package headers: "# path" and "# path
// [path.test]" before a package's compiler errors, "# [path]" before the
// vet tool's own failure on it (tool). A command go printed under a
// package's header ("# [pkg-config --cflags -- lib]" for cgo) is not one.
func vetHeader(line string) (path string, tool, ok bool) {
	header, ok := strings.CutPrefix(line, "# ")
	if !ok {
		return "", false, false
	}
	tool = strings.HasPrefix(header, "[")
	if tool {
		header = strings.TrimSuffix(strings.TrimPrefix(header, "["), "]")
	}
	path, variant, _ := strings.Cut(header, " ")
	if variant != "" && !strings.HasPrefix(variant, "[") {
		return "", false, false
	}
	return path, tool, path != ""
}

// FilesAnalyzer, with its -files.report flag set, reports one diagnostic
// at the package clause of each file the package was analyzed with (the
// file the user wrote, for cgo), so that Run learns from go vet which
// files it analyzed. Without the flag it reports nothing. A vet tool that
// Options.VetTool names must run it: see VetToolAnalyzers.
var FilesAnalyzer = &analysis.Analyzer{
	Name: "files",
	Doc:  "files: with -files.report, report each file of the package (for interleave check)",
	Run: func(pass *analysis.Pass) (any, error) {
		if !reportFiles {
			return nil, nil
		}
		for _, f := range pass.Files {
			pass.Reportf(f.Package, "file")
		}
		return nil, nil
	},
}

var reportFiles bool

func init() {
	FilesAnalyzer.Flags.BoolVar(&reportFiles, "report", false, "report each file of the package")
}

// VetToolAnalyzers is what a vet tool must run for Options.VetTool: the
// suite and FilesAnalyzer.
func VetToolAnalyzers() []*analysis.Analyzer {
	return append(Analyzers(), FilesAnalyzer)
}

// VetToolMain serves go vet's vet tool protocol with VetToolAnalyzers
// and exits. It bounds the tool's memory on large packages: the passes
// that keep per-function lock state run one at a time (the analysis
// driver runs every pass of a package at once, and their peaks added
// up), and the collector's target adapts to the live heap (see
// gcPercent). INTERLEAVE_VET_MEMPROFILE writes heap profiles (see
// memProfile).
func VetToolMain() {
	if os.Getenv("GOGC") == "" {
		tuneGC()
	}
	unitchecker.Main(vetToolSetup(os.Args[1:], VetToolAnalyzers())...)
}

// vetToolSetup prepares analyzers for the vet tool invocation args: on a
// package go vet wants only facts of, only what computes facts runs (see
// factsOnly); the heavy passes run one at a time; the measuring hooks
// (memProfile, vetTrace, cpuProfile) are installed when asked for.
func vetToolSetup(args []string, analyzers []*analysis.Analyzer) []*analysis.Analyzer {
	cfg := readVetConfig(args)
	memProfile(analyzers)
	vetTrace(cfg, analyzers)
	cpuProfile(cfg, args, analyzers)
	if cfg != nil && cfg.VetxOnly {
		factsOnly(analyzers)
	}
	serializeHeavyPasses()
	return analyzers
}

// vetTree is what go vet -json prints: package path -> analyzer name ->
// either a list of diagnostics or {"error": "..."}.
type vetTree map[string]map[string]json.RawMessage

// vetDiagnostic is one diagnostic of go vet -json.
type vetDiagnostic struct {
	Category string `json:"category"`
	Posn     string `json:"posn"` // file:line:col
	End      string `json:"end"`
	Message  string `json:"message"`
	Related  []struct {
		Posn    string `json:"posn"`
		End     string `json:"end"`
		Message string `json:"message"`
	} `json:"related"`
}

// vetResult is one vet diagnostic with where it came from.
type vetResult struct {
	pass    Pass
	pkgPath string
	d       vetDiagnostic
}

// goVet runs go vet with the vet tool over patterns. It names the
// analyzers to run, so the tool runs those only.
func goVet(ctx context.Context, dir string, patterns []string, opts Options, analyzers []*analysis.Analyzer) (vetTree, error) {
	args := append(vetArgs(opts.VetTool, opts.BuildFlags, analyzers), patterns...)
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = dir
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		msg := strings.TrimSpace(stderr.String())
		if msg == "" {
			msg = strings.TrimSpace(stdout.String())
		}
		// What go vet analyzed before or beside the failure.
		tree := vetTree{}
		tree.parse(stdout.Bytes())
		tree.parse(stderr.Bytes())
		return nil, &vetError{tool: opts.VetTool, err: err, packages: vetErrorPackages(msg), output: msg, tree: tree}
	}
	// The go command prints the tool's JSON on stdout (Go 1.26) or on
	// stderr (earlier releases), perhaps between "# package" lines.
	tree := vetTree{}
	for _, out := range [][]byte{stdout.Bytes(), stderr.Bytes()} {
		if err := tree.parse(out); err != nil {
			return nil, fmt.Errorf("read go vet -json output: %w", err)
		}
	}
	return tree, nil
}

// vetArgs is the go command's arguments, before the patterns, of goVet.
// go vet keys its cached results (a package's facts too) by the tool's
// hash and these flags.
func vetArgs(vetTool string, buildFlags []string, analyzers []*analysis.Analyzer) []string {
	args := append([]string{"vet"}, buildFlags...)
	args = append(args, "-vettool="+vetTool, "-json", "-"+FilesAnalyzer.Name, "-"+FilesAnalyzer.Name+".report")
	for _, a := range analyzers {
		args = append(args, "-"+a.Name)
	}
	return args
}

// VetArgs is the go command's arguments, before the patterns, with which
// Run drives the vet tool vetTool over the suite: a go vet with them
// fills a build cache with the results, the dependencies' facts
// included, that Run's go vet with the same tool then reuses.
func VetArgs(vetTool string, buildFlags []string) []string {
	return vetArgs(vetTool, buildFlags, Analyzers())
}

// parse adds every JSON object in out to tree and skips the lines between.
func (tree vetTree) parse(out []byte) error {
	for len(out) > 0 {
		out = bytes.TrimLeft(out, " \t\r\n")
		if len(out) == 0 {
			break
		}
		if out[0] != '{' {
			if i := bytes.IndexByte(out, '\n'); i >= 0 {
				out = out[i+1:]
			} else {
				out = nil
			}
			continue
		}
		dec := json.NewDecoder(bytes.NewReader(out))
		var obj vetTree
		if err := dec.Decode(&obj); err != nil {
			return err
		}
		for pkg, byAnalyzer := range obj {
			if tree[pkg] == nil {
				tree[pkg] = map[string]json.RawMessage{}
			}
			for name, v := range byAnalyzer {
				tree[pkg][name] = v
			}
		}
		out = out[dec.InputOffset():]
	}
	return nil
}

// packages lists the analyzed packages, sorted by path, with the files
// FilesAnalyzer reported for them.
func (tree vetTree) packages() ([]*packages.Package, error) {
	var out []*packages.Package
	for path, byAnalyzer := range tree {
		raw, ok := byAnalyzer[FilesAnalyzer.Name]
		if !ok {
			continue
		}
		var ds []vetDiagnostic
		if err := json.Unmarshal(raw, &ds); err != nil {
			return nil, fmt.Errorf("read go vet -json output for %s: %w", path, err)
		}
		p := &packages.Package{ID: path, PkgPath: path}
		for _, d := range ds {
			// Skip what only the build saw, such as cgo's _cgo_gotypes.go.
			if f := parsePosn(d.Posn).File; f != "" && fileExists(f) {
				p.GoFiles = append(p.GoFiles, f)
			}
		}
		out = append(out, p)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].PkgPath < out[j].PkgPath })
	return out, nil
}

func fileExists(name string) bool {
	st, err := os.Stat(name)
	return err == nil && st.Mode().IsRegular()
}

// diagnostics lists the tree's diagnostics in the order the in-process
// driver produces them: packages by path (go list's order), analyzers in
// suite order. Analyzers not in passes are ignored; analyzers that failed
// make an AnalysisError.
func (tree vetTree) diagnostics(passes []Pass) ([]vetResult, error) {
	order := make([]string, 0, len(tree))
	for path := range tree {
		order = append(order, path)
	}
	sort.Strings(order)

	var out []vetResult
	var failures []string
	for _, path := range order {
		for _, p := range passes {
			raw, ok := tree[path][p.Analyzer.Name]
			if !ok {
				continue
			}
			if t := bytes.TrimSpace(raw); len(t) > 0 && t[0] == '{' {
				var failed struct {
					Err string `json:"error"`
				}
				if err := json.Unmarshal(raw, &failed); err != nil {
					return nil, fmt.Errorf("read go vet -json output for %s: %w", path, err)
				}
				failures = append(failures, fmt.Sprintf("%s on %s: %s", p.Analyzer.Name, path, failed.Err))
				continue
			}
			var ds []vetDiagnostic
			if err := json.Unmarshal(raw, &ds); err != nil {
				return nil, fmt.Errorf("read go vet -json output for %s: %w", path, err)
			}
			for _, d := range ds {
				out = append(out, vetResult{pass: p, pkgPath: path, d: d})
			}
		}
	}
	if len(failures) > 0 {
		sort.Strings(failures)
		return nil, &AnalysisError{Failures: failures}
	}
	return out, nil
}

// vetFindings converts vet diagnostics as findings converts in-process
// ones.
func (c *converter) vetFindings(diags []vetResult) []checks.Finding {
	resolved := make([]resolvedDiagnostic, 0, len(diags))
	for _, dg := range diags {
		rd := resolvedDiagnostic{pass: dg.pass, pkgPath: dg.pkgPath, category: dg.d.Category, message: dg.d.Message,
			pos: vetPosition(dg.d.Posn, dg.d.End)}
		for _, ri := range dg.d.Related {
			rd.related = append(rd.related, checks.Related{Position: vetPosition(ri.Posn, ri.End), Message: ri.Message})
		}
		resolved = append(resolved, rd)
	}
	return c.convert(resolved)
}

// vetPosition reads go vet's "file:line:col" start and end. Like position,
// it keeps the end only when it lies after the start in the same file.
func vetPosition(posn, end string) checks.Position {
	p := parsePosn(posn)
	e := parsePosn(end)
	if e.File == p.File && (e.Line > p.Line || e.Line == p.Line && e.Column > p.Column) {
		p.EndLine, p.EndColumn = e.Line, e.Column
	}
	return p
}

// parsePosn reads token.Position.String(): "file:line:col", "file:line",
// or "-" for no position. The file name may itself hold colons.
func parsePosn(s string) checks.Position {
	trailingInt := func(s string) (string, int, bool) {
		i := strings.LastIndexByte(s, ':')
		if i < 0 {
			return s, 0, false
		}
		n, err := strconv.Atoi(s[i+1:])
		if err != nil || n < 0 {
			return s, 0, false
		}
		return s[:i], n, true
	}
	rest, last, ok := trailingInt(s)
	if !ok {
		return checks.Position{}
	}
	if file, line, ok := trailingInt(rest); ok {
		return checks.Position{File: file, Line: line, Column: last}
	}
	return checks.Position{File: rest, Line: last}
}
