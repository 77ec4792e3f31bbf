// Package rewrite instruments the packages under test for the controlled
// scheduler: it rewrites synchronization operations into calls of package rt,
// adds rt and a driver test to the module, and returns a `go test -overlay`
// mapping. The user's files are never modified.
package rewrite

import (
	"context"
	"errors"
)

// Options says what to instrument.
type Options struct {
	Dir        string   // directory to run in; must be inside a module
	Patterns   []string // package patterns, as for go test (default ".")
	BuildFlags []string // passed to the loader and to go test (e.g. -tags=x)
}

// Package is one instrumented package that has tests.
type Package struct {
	ImportPath string
	Dir        string   // absolute
	Tests      []string // names of its top-level Test functions, sorted
}

// Result is an instrumented build: pass `-overlay Overlay` to go test, run
// from ModuleRoot.
type Result struct {
	ModuleRoot string
	ModulePath string
	Overlay    string    // path of the overlay JSON file
	TempDir    string    // holds the rewritten files
	Packages   []Package // packages matched by Patterns that have Test functions
}

// Cleanup removes the temporary files.
func (r *Result) Cleanup() error { return nil }

// BuildError reports packages that do not compile, with the compiler's words.
type BuildError struct {
	Errors []string // "file:line:col: message"
}

func (e *BuildError) Error() string { return "packages do not compile" }

// Instrument rewrites the packages matched by opts.Patterns and the
// in-module packages they depend on.
func Instrument(ctx context.Context, opts Options) (*Result, error) {
	return nil, errors.New("rewrite: not built yet")
}
