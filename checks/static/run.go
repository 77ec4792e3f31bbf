package static

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"go/token"
	"go/version"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/analysis/unitchecker"
	"golang.org/x/tools/go/packages"

	"github.com/interleave-dev/interleave/checks"
)

// Options says what Run analyzes and which rules it reports.
type Options struct {
	Dir      string   // working directory for the patterns; "" means the current directory
	Patterns []string // go list patterns; none means "./..."
	Tests    bool     // also analyze _test.go files

	// Enable and Disable take rule IDs (IL1001) or slugs (unguarded-field).
	// The default set is every rule of level checks.Default. "all" in
	// Enable adds every rule, opt-in ones included; "all" in Disable starts
	// from nothing, so "-disable all -enable IL1001" runs one rule.
	// Disable wins over Enable for a rule named in both.
	Enable, Disable []string

	MinSeverity checks.Severity // drop findings below this severity
	BuildFlags  []string        // passed to go list and go vet, e.g. -tags=integration

	// VetTool is the path of a go vet tool that runs VetToolAnalyzers
	// (interleave itself, or interleave-vet). When it is set and Tests is
	// true, Run drives the analysis through "go vet -vettool": the go
	// command type-checks each package once against its dependencies'
	// export data, runs packages in parallel and caches the results.
	// Otherwise Run loads and analyzes everything in this process, which
	// is slower but can leave the test files out.
	VetTool string

	// KeepGoing analyzes the packages that compile and lists the others
	// in Result.Broken, rather than failing with a LoadError.
	KeepGoing bool
}

// Result is what Run found.
type Result struct {
	Findings []checks.Finding // sorted by position, deduplicated
	Packages []string         // import paths analyzed, sorted

	// Broken, with KeepGoing, lists the packages that do not compile or
	// cannot be loaded, as a LoadError would. The packages matched by the
	// patterns that are not in Packages were left out for them (their
	// own errors or a dependency's).
	Broken []PackageErrors
}

// LoadError reports packages that do not compile: the analysis would be
// meaningless on them, so Run reports nothing rather than half a result.
type LoadError struct {
	Packages []PackageErrors // sorted by path
}

// PackageErrors is one package's compiler (or go list) errors.
type PackageErrors struct {
	Path     string
	Errors   []string // "file:line:col: message", as the compiler prints them
	ListOnly bool     // every error came from go list (no files, bad import), none from the compiler
}

func (p PackageErrors) verb() string {
	if p.ListOnly {
		return "cannot be loaded"
	}
	return "does not compile"
}

func (e *LoadError) Error() string {
	var b strings.Builder
	if len(e.Packages) == 1 {
		fmt.Fprintf(&b, "package %s %s:", e.Packages[0].Path, e.Packages[0].verb())
	} else {
		fmt.Fprintf(&b, "%d packages have errors:", len(e.Packages))
	}
	for _, p := range e.Packages {
		if len(e.Packages) > 1 {
			fmt.Fprintf(&b, "\npackage %s %s:", p.Path, p.verb())
		}
		for _, msg := range p.Errors {
			fmt.Fprintf(&b, "\n\t%s", msg)
		}
	}
	return b.String()
}

// AnalysisError reports analyzers that failed (returned an error) on a
// package: a bug in interleave, not in the analyzed code.
type AnalysisError struct {
	Failures []string // "analyzer on package: error"
}

func (e *AnalysisError) Error() string {
	return "analysis failed:\n\t" + strings.Join(e.Failures, "\n\t")
}

// Run loads the packages matching opts.Patterns and runs the enabled passes
// of the suite over them.
func Run(ctx context.Context, opts Options) (*Result, error) {
	return run(ctx, opts, Passes)
}

// run is Run over an explicit list of passes, so tests can drive the
// conversion, suppression and filtering with passes that report.
func run(ctx context.Context, opts Options, passes []Pass) (*Result, error) {
	dir, modRoot, err := resolveDir(opts.Dir)
	if err != nil {
		return nil, err
	}
	patterns := opts.Patterns
	if len(patterns) == 0 {
		patterns = []string{"./..."}
	}
	if err := checkPatterns(dir, modRoot, patterns); err != nil {
		return nil, err
	}
	enabled, err := selectRules(passes, opts.Enable, opts.Disable)
	if err != nil {
		return nil, err
	}

	var analyzers []*analysis.Analyzer
	ruleOwner := map[*analysis.Analyzer]Pass{}
	for _, p := range passes {
		if slices.ContainsFunc(p.Rules, func(r checks.Rule) bool { return enabled[r.ID] }) {
			analyzers = append(analyzers, p.Analyzer)
			ruleOwner[p.Analyzer] = p
		}
	}

	// A vet tool type-checks every package, the standard library's too,
	// with the go/types interleave was built with: it cannot read a newer
	// Go's standard library. Such modules are analyzed in this process,
	// where type errors outside the module are the compiler's business.
	if opts.VetTool != "" && opts.Tests && !newerGo(ctx, dir) {
		return runVet(ctx, dir, patterns, opts, passes, enabled, analyzers)
	}

	pkgs, err := load(ctx, dir, patterns, opts, needFacts(analyzers))
	var lerr *LoadError
	if err != nil && !(opts.KeepGoing && errors.As(err, &lerr)) {
		return nil, err
	}
	roots := rootPackages(pkgs)
	if lerr != nil {
		// Leave out what does not type-check, itself or through an import.
		roots = slices.DeleteFunc(roots, func(p *packages.Package) bool { return p.IllTyped })
	}
	res := &Result{Packages: packagePaths(roots)}
	if lerr != nil {
		res.Broken = lerr.Packages
	}

	var diags []diagnostic
	if len(analyzers) > 0 {
		graph, err := checker.Analyze(analyzers, roots, nil)
		if err != nil {
			return nil, fmt.Errorf("analyze: %w", err)
		}
		var failures []string
		for _, act := range graph.Roots {
			if act.Err != nil {
				failures = append(failures, fmt.Sprintf("%s on %s: %v", act.Analyzer.Name, act.Package.PkgPath, act.Err))
				continue
			}
			for _, d := range act.Diagnostics {
				diags = append(diags, diagnostic{pass: ruleOwner[act.Analyzer], pkg: act.Package, d: d})
			}
		}
		if len(failures) > 0 {
			sort.Strings(failures)
			return nil, &AnalysisError{Failures: failures}
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}

	c := newConverter(roots, allRules(passes))
	res.Findings = finish(c, c.findings(diags), enabled, opts.MinSeverity)
	return res, nil
}

// finish applies the suppression directives, the rule selection and the
// minimum severity, then deduplicates and sorts.
func finish(c *converter, findings []checks.Finding, enabled map[string]bool, minSeverity checks.Severity) []checks.Finding {
	findings = c.applyDirectives(findings, enabled)
	out := findings[:0]
	for _, f := range findings {
		if enabled[f.Rule] && f.Severity >= minSeverity {
			out = append(out, f)
		}
	}
	out = dedupe(out)
	checks.Sort(out)
	return out
}

// resolveDir returns the absolute working directory and the root of the
// module (or workspace) that contains it.
func resolveDir(dir string) (abs, modRoot string, err error) {
	if dir == "" {
		dir = "."
	}
	abs, err = filepath.Abs(dir)
	if err != nil {
		return "", "", fmt.Errorf("resolve directory %s: %w", dir, err)
	}
	st, err := os.Stat(abs)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return "", "", fmt.Errorf("directory %s does not exist", dir)
		}
		return "", "", fmt.Errorf("stat %s: %w", dir, err)
	}
	if !st.IsDir() {
		return "", "", fmt.Errorf("%s is not a directory", dir)
	}
	for d := abs; ; d = filepath.Dir(d) {
		for _, name := range []string{"go.mod", "go.work"} {
			if _, err := os.Stat(filepath.Join(d, name)); err == nil {
				return abs, d, nil
			}
		}
		if filepath.Dir(d) == d {
			break
		}
	}
	return "", "", fmt.Errorf("no go.mod in %s or any parent directory: run interleave inside a Go module", abs)
}

// checkPatterns rejects directory patterns that leave the module, which go
// list would otherwise report in terms of "main module" internals.
func checkPatterns(dir, modRoot string, patterns []string) error {
	for _, pat := range patterns {
		if pat == "" {
			return errors.New("empty package pattern")
		}
		if strings.HasPrefix(pat, "-") {
			return fmt.Errorf("package pattern %q looks like a flag: put flags before the packages", pat)
		}
		if !filepath.IsAbs(pat) && pat != "." && pat != ".." && !strings.HasPrefix(pat, "./") && !strings.HasPrefix(pat, "../") {
			continue // an import path pattern
		}
		p := strings.TrimSuffix(filepath.ToSlash(pat), "/...")
		if !filepath.IsAbs(p) {
			p = filepath.Join(dir, p)
		}
		p = filepath.Clean(p)
		rel, err := filepath.Rel(modRoot, p)
		if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return fmt.Errorf("package pattern %s: directory %s is outside the module rooted at %s", pat, p, modRoot)
		}
		if _, err := os.Stat(p); err != nil {
			return fmt.Errorf("package pattern %s: directory %s does not exist", pat, p)
		}
		for d := p; d != modRoot && strings.HasPrefix(d, modRoot); d = filepath.Dir(d) {
			if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
				return fmt.Errorf("package pattern %s: directory %s belongs to the module in %s, not to %s: run interleave there", pat, p, d, modRoot)
			}
		}
	}
	return nil
}

// selectRules resolves Enable and Disable against the rules of passes and
// the directive rules.
func selectRules(passes []Pass, enable, disable []string) (map[string]bool, error) {
	all := allRules(passes)
	lookup := func(flag, name string) (checks.Rule, error) {
		for _, r := range all {
			if r.ID == name || r.Slug == name {
				if r.Removed {
					return r, fmt.Errorf("%s: rule %s has been removed", flag, r.ID)
				}
				return r, nil
			}
		}
		ids := make([]string, 0, len(all))
		for _, r := range all {
			if !r.Removed {
				ids = append(ids, r.ID)
			}
		}
		sort.Strings(ids)
		return checks.Rule{}, fmt.Errorf("%s: unknown rule %q: valid values are all, %s (or their slugs)", flag, name, strings.Join(ids, ", "))
	}

	enabled := map[string]bool{}
	if !slices.Contains(disable, "all") {
		for _, r := range all {
			if r.Level == checks.Default && !r.Removed {
				enabled[r.ID] = true
			}
		}
	}
	for _, name := range enable {
		if name == "all" {
			for _, r := range all {
				if !r.Removed {
					enabled[r.ID] = true
				}
			}
			continue
		}
		r, err := lookup("enable", name)
		if err != nil {
			return nil, err
		}
		enabled[r.ID] = true
	}
	for _, name := range disable {
		if name == "all" {
			continue
		}
		r, err := lookup("disable", name)
		if err != nil {
			return nil, err
		}
		delete(enabled, r.ID)
	}
	return enabled, nil
}

// allRules lists the directive rules and the rules of passes.
func allRules(passes []Pass) []checks.Rule {
	all := append([]checks.Rule(nil), Directive...)
	for _, p := range passes {
		all = append(all, p.Rules...)
	}
	return all
}

// load runs go list and type-checks the packages. With deps it
// type-checks their dependencies from source too (for facts); otherwise
// it imports them from export data. When some do not compile, it returns
// a *LoadError with the packages, IllTyped set on those left out.
func load(ctx context.Context, dir string, patterns []string, opts Options, deps bool) ([]*packages.Package, error) {
	mode := packages.LoadSyntax | packages.NeedModule | packages.NeedForTest
	if deps {
		mode |= packages.NeedDeps
	}
	cfg := &packages.Config{
		Mode:       mode,
		Context:    ctx,
		Dir:        dir,
		Tests:      opts.Tests,
		BuildFlags: opts.BuildFlags,
	}
	pkgs, err := packages.Load(cfg, patterns...)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, fmt.Errorf("load %s: %w", strings.Join(patterns, " "), err)
	}
	if len(pkgs) == 0 {
		return nil, fmt.Errorf("pattern %s matched no packages in %s", strings.Join(patterns, " "), dir)
	}
	lerr := loadErrors(dir, pkgs)
	forgiveForeignTypeErrors(pkgs)
	if lerr != nil {
		return pkgs, lerr
	}
	return pkgs, nil
}

// forgiveForeignTypeErrors drops the type errors loadErrors lets pass (in
// packages outside the main module, or go/types saying the code is for a
// newer Go) and recomputes IllTyped, so that the analyzers still run on
// the module's packages.
func forgiveForeignTypeErrors(pkgs []*packages.Package) {
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		inMain := p.Module != nil && p.Module.Main
		kept := p.Errors[:0]
		for _, e := range p.Errors {
			if e.Kind == packages.TypeError && (!inMain || tooNew(e.Msg)) {
				continue
			}
			kept = append(kept, e)
		}
		p.Errors = kept
		p.IllTyped = len(kept) > 0
		for _, imp := range p.Imports {
			p.IllTyped = p.IllTyped || imp.IllTyped
		}
	})
}

func needFacts(analyzers []*analysis.Analyzer) bool {
	seen := map[*analysis.Analyzer]bool{}
	var visit func(a *analysis.Analyzer) bool
	visit = func(a *analysis.Analyzer) bool {
		if seen[a] {
			return false
		}
		seen[a] = true
		if len(a.FactTypes) > 0 {
			return true
		}
		return slices.ContainsFunc(a.Requires, visit)
	}
	return slices.ContainsFunc(analyzers, visit)
}

// loadErrors collects the errors of every loaded package and its
// dependencies, each message once.
// tooNew reports whether msg is go/types saying the code is for a newer Go
// than interleave was built with; it checks the code all the same.
func tooNew(msg string) bool {
	return strings.Contains(msg, "requires newer Go version") && strings.Contains(msg, "application built with")
}

// newerGo reports whether the go command in dir builds with a newer Go
// release than the one interleave was built with.
func newerGo(ctx context.Context, dir string) bool {
	cmd := exec.CommandContext(ctx, "go", "env", "GOVERSION")
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		return false
	}
	v := strings.TrimSpace(string(out))
	return version.IsValid(v) && version.Compare(version.Lang(v), version.Lang(runtime.Version())) > 0
}

func loadErrors(dir string, pkgs []*packages.Package) *LoadError {
	byPath := map[string]*PackageErrors{}
	seen := map[string]bool{}
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		typeChecked := slices.ContainsFunc(p.Errors, func(e packages.Error) bool { return e.Kind != packages.ListError })
		inMain := p.Module != nil && p.Module.Main
		for _, e := range p.Errors {
			if e.Kind == packages.TypeError && (!inMain || tooNew(e.Msg)) {
				// go/types of this build on another Go release's standard
				// library or a dependency: the compiler judges those.
				continue
			}
			if typeChecked && e.Kind == packages.ListError && strings.HasPrefix(e.Msg, "# ") {
				// The compiler's output from go list -export: the type
				// checker's errors say the same, one by one.
				continue
			}
			msg := e.Msg
			if e.Pos != "" && e.Pos != "-" {
				msg = relPath(dir, e.Pos) + ": " + e.Msg
			}
			if seen[msg] {
				continue
			}
			seen[msg] = true
			path := p.PkgPath
			if path == "" {
				path = p.ID
			}
			pe := byPath[path]
			if pe == nil {
				pe = &PackageErrors{Path: path, ListOnly: true}
				byPath[path] = pe
			}
			if e.Kind != packages.ListError {
				pe.ListOnly = false
			}
			pe.Errors = append(pe.Errors, msg)
		}
	})
	if len(byPath) == 0 {
		return nil
	}
	lerr := &LoadError{}
	for _, pe := range byPath {
		lerr.Packages = append(lerr.Packages, *pe)
	}
	sort.Slice(lerr.Packages, func(i, j int) bool { return lerr.Packages[i].Path < lerr.Packages[j].Path })
	return lerr
}

// relPath shortens an absolute "file:line:col" under dir.
func relPath(dir, pos string) string {
	if rel, err := filepath.Rel(dir, pos); err == nil && !strings.HasPrefix(rel, "..") {
		return rel
	}
	return pos
}

// packagePaths lists the import paths of roots, sorted, each once.
func packagePaths(roots []*packages.Package) []string {
	var paths []string
	seen := map[string]bool{}
	for _, p := range roots {
		if !seen[p.PkgPath] {
			seen[p.PkgPath] = true
			paths = append(paths, p.PkgPath)
		}
	}
	sort.Strings(paths)
	return paths
}

// rootPackages drops what go list adds for tests but nobody wrote: the
// generated test main, and a package whose test variant (the same files
// plus its _test.go files) is also present.
func rootPackages(pkgs []*packages.Package) []*packages.Package {
	hasTestVariant := map[string]bool{}
	for _, p := range pkgs {
		if p.ForTest != "" && p.PkgPath == p.ForTest {
			hasTestVariant[p.PkgPath] = true
		}
	}
	var out []*packages.Package
	for _, p := range pkgs {
		switch {
		case p.Name == "main" && strings.HasSuffix(p.ID, ".test") && p.ForTest == "":
			continue // generated test main
		case p.ForTest == "" && hasTestVariant[p.PkgPath]:
			continue
		}
		out = append(out, p)
	}
	return out
}

// diagnostic is one analyzer diagnostic with where it came from.
type diagnostic struct {
	pass Pass
	pkg  *packages.Package
	d    analysis.Diagnostic
}

// dedupe drops findings identical in rule, position and message: a package
// and its test variant, or two passes, may report the same thing.
func dedupe(fs []checks.Finding) []checks.Finding {
	type key struct {
		rule, file string
		line, col  int
		msg        string
	}
	seen := map[key]bool{}
	out := make([]checks.Finding, 0, len(fs))
	for _, f := range fs {
		k := key{f.Rule, f.Pos.File, f.Pos.Line, f.Pos.Column, f.Message}
		if seen[k] {
			continue
		}
		seen[k] = true
		out = append(out, f)
	}
	return out
}

// position converts a token position, following //line directives (cgo)
// back to the file the user wrote.
func position(fset *token.FileSet, pos, end token.Pos) checks.Position {
	if !pos.IsValid() {
		return checks.Position{}
	}
	p := fset.Position(pos)
	out := checks.Position{File: p.Filename, Line: p.Line, Column: p.Column}
	if end.IsValid() && end > pos {
		e := fset.Position(end)
		if e.Filename == p.Filename {
			out.EndLine, out.EndColumn = e.Line, e.Column
		}
	}
	return out
}

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

// listErrors runs go list (no compiling) over patterns and its
// dependencies: the packages that cannot be loaded, and the import paths
// of the matched packages that can, their tests and dependencies too.
func listErrors(ctx context.Context, dir string, patterns []string, opts Options) (*LoadError, []string, error) {
	cfg := &packages.Config{
		Mode:       packages.NeedName | packages.NeedFiles | packages.NeedEmbedFiles | packages.NeedImports | packages.NeedDeps | packages.NeedModule | packages.NeedForTest,
		Context:    ctx,
		Dir:        dir,
		Tests:      opts.Tests,
		BuildFlags: opts.BuildFlags,
	}
	pkgs, err := packages.Load(cfg, patterns...)
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
	unit := func(p *packages.Package) string {
		if p.ForTest != "" {
			return p.ForTest
		}
		return strings.TrimSuffix(p.PkgPath, ".test")
	}
	ok := map[string]bool{}
	for _, p := range pkgs {
		u := unit(p)
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
		path, ok := strings.CutPrefix(line, "# ")
		if !ok {
			continue
		}
		path, _, _ = strings.Cut(strings.TrimPrefix(path, "["), " ")
		path = strings.TrimSuffix(path, "]")
		if path != "" && !slices.Contains(paths, path) {
			paths = append(paths, path)
		}
	}
	return paths
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
	memProfile(VetToolAnalyzers())
	serializeHeavyPasses()
	unitchecker.Main(VetToolAnalyzers()...)
}

// heavyPasses keep lock state for every function of a package while they
// run; the other passes walk syntax and hold little.
var heavyPasses = map[string]bool{"guardedby": true, "rlockwrite": true, "lockpair": true, "lockorder": true, "lockblock": true, "threadsafe": true}

var heavyMu sync.Mutex

// serializeHeavyPasses makes the heavy passes' Run take one process-wide
// lock. A pass's prerequisites finish before its Run starts, so no Run
// waits for another while holding it.
func serializeHeavyPasses() {
	for _, a := range Analyzers() {
		if !heavyPasses[a.Name] || a.Run == nil {
			continue
		}
		run := a.Run
		a.Run = func(pass *analysis.Pass) (any, error) {
			heavyMu.Lock()
			defer heavyMu.Unlock()
			return run(pass)
		}
	}
}

// tuneGC sets the collector's target from the live heap after each
// collection (see gcPercent).
func tuneGC() {
	debug.SetGCPercent(400)
	sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	var sentinel func()
	arm := func() {
		// A finalizer runs after the collection that frees its object:
		// once per cycle.
		p := new([64]byte)
		runtime.SetFinalizer(p, func(*[64]byte) { sentinel() })
	}
	sentinel = func() {
		metrics.Read(sample)
		if sample[0].Value.Kind() == metrics.KindUint64 {
			debug.SetGCPercent(gcPercent(sample[0].Value.Uint64()))
		}
		arm()
	}
	arm()
}

// gcPercent is the collector's target for a live heap of live bytes. The
// heap may grow by 64 MiB past a small live heap (GOGC up to 400: most
// packages, where collections would cost CPU and save nothing that
// matters), by the live heap itself from 64 MiB on (GOGC 100, what go vet
// runs with), and by less as the heap nears 1 GiB (down to GOGC 50). A
// target of 1 GiB for every heap let a package with 130 MiB live grow to
// five times that, twice go vet's peak.
func gcPercent(live uint64) int {
	const (
		headroom = 64 << 20
		target   = 1 << 30
	)
	if live == 0 {
		return 400
	}
	p := max(100, int(100*float64(headroom)/float64(live)))
	p = min(p, int(100*(float64(target)/float64(live)-1)))
	return min(max(p, 50), 400)
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
	args := append([]string{"vet"}, opts.BuildFlags...)
	args = append(args, "-vettool="+opts.VetTool, "-json", "-"+FilesAnalyzer.Name, "-"+FilesAnalyzer.Name+".report")
	for _, a := range analyzers {
		args = append(args, "-"+a.Name)
	}
	args = append(args, patterns...)
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
