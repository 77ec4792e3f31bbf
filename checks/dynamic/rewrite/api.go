// Package rewrite instruments the packages under test for the controlled
// scheduler: it rewrites synchronization operations into calls of package rt,
// adds rt and a driver test to the module, and returns a `go test -overlay`
// mapping. The user's files are never modified.
//
// Edits are made in place on the source bytes: every original token keeps
// its line (the only tokens that move, select channel operands hoisted into
// temporaries, carry /*line*/ directives naming their original position).
// Decisions use type information: method sets, embedded and promoted
// methods, pointer and value receivers, generic and named channel types.
// Method values, method expressions and function values of instrumented
// operations (f := mu.Unlock, go run(wg.Done), now := time.Now) become
// their runtime twins; time.Now, Since, Until and context.WithTimeout and
// WithDeadline run on the runtime's virtual clock; a range over a channel
// in a file older than go1.23 becomes a three-clause loop, and a range over
// a map a three-clause loop over rt.MapIter (an order the schedule's seed
// fixes; targets that span lines are left as written); goleak checks
// are told to ignore the runtime's own goroutines; a struct type embedding
// *time.Timer or *time.Ticker gets Stop and Reset of its own; a test's
// Error, Fatal, Fail and Log calls take their receiver through rt.Late or
// rt.LateLog, which panic as go test does when the test has returned.
// Options.Overlay adds files (a generated test a schedule carries).
//
// Dependency modules (not the standard library, not test frameworks, but
// goleak's own runtime.Stack and NumGoroutine, which the runtime answers
// without its goroutines, for any goleak version) are rewritten too, their time operations only unless Options.DepSync, so
// that timers made inside a library run on the test's clock; a dependency
// package that hands goroutines to its caller (errgroup's Go: a goroutine
// running the caller's function, not waited for) has all of its
// synchronization rewritten, so that the caller's goroutines it starts are
// controlled too (hostsGoroutines). rt is the module
// interleave.invalid/interleavert in one directory under the user cache
// directory, which an alternate go.mod (Result.ModFile) requires, so that
// the build cache compiles it once for every module on the machine; in
// workspace or vendor mode it is overlaid at <module>/interleavert, which
// dependencies may import too. A module from the
// module cache, whose files the go command will not overlay, is used
// through a copy that the alternate go.mod replaces it with.
// What is not rewritten is listed in Result.Warnings with its position, so
// that a driver can print every construct left uncontrolled: method values
// whose receiver is a type parameter, selects whose label is a goto
// target, receivers reached through unexported embedded fields of other
// packages, sends whose element type cannot be spelled in the file,
// goleak checks that cannot be told (goleak older than v1.3; its dumps
// leave the runtime's goroutines out all the same), and cgo files. A
// matched package with no tests that does not compile is left out
// (Result.LeftOut), and so is one whose test build does not compile (its
// test files, or a package it imports) when another matched package's
// does: go test ./... fails it and tests the rest. When none compiles,
// Instrument returns a *BuildError.
package rewrite

import (
	"context"
	"os"
	"strings"
)

// Options says what to instrument.
type Options struct {
	Dir      string   // directory to run in; must be inside a module
	Patterns []string // package patterns, as for go test (default ".")
	// BuildFlags are passed to the loader and to go test (e.g. -tags=x).
	// They choose the files rewritten and the tests driven, so they must
	// be those of the build: "-race" for a build with the race detector,
	// which sets the race build tag.
	BuildFlags []string
	// DepSync rewrites dependency modules' goroutines, locks and channels
	// too; by default only their time operations are rewritten, except in
	// packages that hand goroutines to their caller (DepModule.Synced).
	DepSync bool
	// Overlay adds or replaces files of the main module (absolute path to
	// content) before instrumenting, as go build -overlay does: a replay
	// adds the generated test its schedule carries.
	Overlay map[string][]byte
}

// Package is one instrumented package that has tests.
type Package struct {
	ImportPath string
	Dir        string   // absolute
	Tests      []string // names of its top-level Test functions, in go test's order
	// TestFiles are its _test.go files (absolute, sorted) that the build
	// includes: those the loader chose under Options.BuildFlags (pass
	// -race when the tests are built with it) and the environment
	// (GOFLAGS, GOOS, GOARCH, the module's Go release).
	TestFiles []string
	// Excluded maps the Test functions declared only in _test.go files
	// the build excludes (a `//go:build !race` file under -race) to their
	// file, so that asking for one can say why it is not there.
	Excluded map[string]string
	// Driver is the path (on disk, under Dir) the generated driver test file
	// is overlaid at.
	Driver string
}

// Result is an instrumented build: pass `-overlay Overlay` to go test, run
// from ModuleRoot; TestFlags holds the flags that work as is.
type Result struct {
	ModuleRoot string
	ModulePath string
	Overlay    string    // path of the overlay JSON file
	TempDir    string    // holds the rewritten files
	Packages   []Package // packages matched by Patterns that have Test functions
	// RuntimeDir is the runtime package's directory: the shared one (on
	// disk, under the user cache directory) or, in workspace or vendor
	// mode, <ModuleRoot>/interleavert in the overlay. That one does not
	// exist on disk, and
	// the go command compiles a package from overlay files alone, but vet
	// (`go vet`, and the vet step of `go test` and `go test -c`, which
	// computes facts for dependencies) runs inside each package's directory
	// and fails with "chdir ...: no such file or directory". So either pass
	// -vet=off (TestFlags does) or create the empty directory first.
	RuntimeDir string
	// TestFlags are the go test flags for this build: Options.BuildFlags,
	// then "-overlay=<Overlay>", "-vet=off" (see RuntimeDir for why) and,
	// when ModFile is set, "-modfile=<ModFile>" (the overlay alone does not
	// build then).
	TestFlags []string
	// Files maps each rewritten original file to its rewritten copy (the
	// same mapping as the overlay, without the runtime and driver files).
	Files map[string]string
	// Warnings lists operations left as written ("file:line: why"), e.g.
	// method values such as `f := mu.Unlock`.
	Warnings []string
	// Deps lists the dependency modules linked into the test binaries and
	// how many files of each were rewritten (their time operations).
	Deps []DepModule
	// ModFile is the alternate go.mod (-modfile, in TestFlags) that
	// requires the shared runtime and replaces the dependency modules
	// rewritten from the module cache with their copies, or "" when there
	// is neither.
	ModFile string
	// DepFiles maps each rewritten dependency file to its rewritten copy.
	DepFiles map[string]string
	// DepWarnings lists what was left as written in dependencies.
	DepWarnings []string
	// LeftOut lists the packages matched but left out because they, or
	// their tests, do not compile ("path: why", the first errors on the
	// lines after).
	LeftOut []string

	depSync bool // Options.DepSync
}

// Cleanup removes the temporary files.
func (r *Result) Cleanup() error {
	if r == nil || r.TempDir == "" {
		return nil
	}
	return os.RemoveAll(r.TempDir)
}

// BuildError reports packages that do not compile, with the compiler's words.
type BuildError struct {
	Errors []string // "file:line:col: message"
	// Hint is set when the module's Go release is not the one interleave
	// was built with, which may be the cause.
	Hint string
}

func (e *BuildError) Error() string {
	if len(e.Errors) == 0 {
		return "packages do not compile"
	}
	s := "packages do not compile:\n\t" + strings.Join(e.Errors, "\n\t")
	if e.Hint != "" {
		s += "\n" + e.Hint
	}
	return s
}

// Instrument rewrites the packages matched by opts.Patterns, the
// in-module packages they depend on and (see the package comment) their
// dependency modules.
func Instrument(ctx context.Context, opts Options) (*Result, error) {
	return instrument(ctx, opts)
}
