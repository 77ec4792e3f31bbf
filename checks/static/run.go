package static

// Run: loading the packages, selecting the rules, running the passes in process or through go vet, and making findings.

import (
	"context"
	"errors"
	"fmt"
	"go/token"
	"go/version"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
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
	var broken []PackageErrors
	if lerr != nil {
		broken = lerr.Packages
	}
	if opts.KeepGoing {
		// Leave out what does not type-check, itself or through an
		// import; a dependency outside the module that does not compile
		// (loadErrors leaves its errors to the compiler) is named.
		roots = slices.DeleteFunc(roots, func(p *packages.Package) bool {
			if !p.IllTyped {
				return false
			}
			if dep := brokenDependency(dir, p); dep != nil {
				if !slices.ContainsFunc(broken, func(b PackageErrors) bool { return b.Path == p.PkgPath }) {
					broken = append(broken, *dep)
				}
				return true
			}
			return lerr != nil
		})
		sort.SliceStable(broken, func(i, j int) bool { return broken[i].Path < broken[j].Path })
	}
	res := &Result{Packages: packagePaths(roots), Broken: broken}

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
	kinds := map[string]bool{} // messages from the type checker or the parser
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		typeChecked := slices.ContainsFunc(p.Errors, func(e packages.Error) bool { return e.Kind != packages.ListError })
		// cgo failed (a C header not installed): the type checker only
		// says it could not import C; the cause is in go list's output.
		cgoFailed := slices.ContainsFunc(p.Errors, func(e packages.Error) bool { return strings.Contains(e.Msg, `could not import C (`) })
		inMain := p.Module != nil && p.Module.Main
		var msgs []string
		for _, e := range p.Errors {
			if e.Kind == packages.TypeError && (!inMain || tooNew(e.Msg)) {
				// go/types of this build on another Go release's standard
				// library or a dependency: the compiler judges those.
				continue
			}
			if typeChecked && e.Kind == packages.ListError && strings.HasPrefix(e.Msg, "# ") {
				// The compiler's output from go list -export: the type
				// checker's errors say the same, one by one, except for
				// cgo's, whose unindented lines (not the quoted source)
				// come first.
				if cgoFailed {
					msgs = append(msgs, cgoLines(e.Msg)...)
				}
				continue
			}
			msg := e.Msg
			if e.Pos != "" && e.Pos != "-" {
				msg = relPath(dir, e.Pos) + ": " + e.Msg
			}
			msgs = append(msgs, msg)
			if e.Kind != packages.ListError {
				kinds[msg] = true
			}
		}
		for _, msg := range msgs {
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
			if kinds[msg] || cgoFailed {
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

// cgoLines is the lines of go list's "# path" output for a package whose
// cgo step failed, without the header and the indented source quotes.
func cgoLines(out string) []string {
	var lines []string
	for i, line := range strings.Split(strings.TrimRight(out, "\n"), "\n") {
		if i == 0 && strings.HasPrefix(line, "# ") || line == "" || line[0] == ' ' || line[0] == '\t' {
			continue
		}
		lines = append(lines, line)
	}
	return lines
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

// brokenDependency says why root is ill-typed when the cause is a
// dependency outside the module with errors of its own (none of root's
// own errors, nor of a package of the module, explain it): the first such
// dependency in import order, with its compiler lines. Otherwise nil.
func brokenDependency(dir string, root *packages.Package) *PackageErrors {
	if len(root.Errors) > 0 {
		return nil
	}
	var dep *packages.Package
	seen := map[*packages.Package]bool{}
	var visit func(p *packages.Package) bool
	visit = func(p *packages.Package) bool {
		for _, path := range slices.Sorted(maps.Keys(p.Imports)) {
			q := p.Imports[path]
			if seen[q] {
				continue
			}
			seen[q] = true
			if len(q.Errors) > 0 {
				if q.Module != nil && q.Module.Main {
					return false // a package of the module: loadErrors lists it
				}
				dep = q
				return true
			}
			if visit(q) {
				return true
			}
		}
		return false
	}
	if !visit(root) {
		return nil
	}
	lines := []string{"its dependency " + dep.PkgPath + " does not compile:"}
	for _, e := range dep.Errors {
		if e.Kind == packages.ListError && strings.HasPrefix(e.Msg, "# ") {
			// The compiler's output, as go list -export prints it.
			for _, l := range strings.Split(e.Msg, "\n")[1:] {
				if l = strings.TrimSpace(l); l != "" && !slices.Contains(lines, l) {
					lines = append(lines, l)
				}
			}
			continue
		}
		msg := e.Msg
		if e.Pos != "" && e.Pos != "-" {
			msg = relPath(dir, e.Pos) + ": " + e.Msg
		}
		lines = append(lines, msg)
	}
	return &PackageErrors{Path: root.PkgPath, Errors: lines}
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
