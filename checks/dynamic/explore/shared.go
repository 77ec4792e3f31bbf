// A Build: one instrumentation and one set of test binaries shared by several searches and replays.

package explore

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/interleave-dev/interleave/checks/dynamic/rewrite"
	"github.com/interleave-dev/interleave/checks/dynamic/rt"
)

// BuildOptions says what NewBuild instruments.
type BuildOptions struct {
	Dir      string   // working directory, inside a module (default: the current one)
	Patterns []string // package patterns (default ".")
	Race     bool     // build with the race detector
	Tags     []string // build tags
	// Stage, when set, is told when instrumenting starts and ends.
	Stage func(StageEvent)
}

// Build is the instrumented packages of a module and their test binaries,
// shared by the Runs (Options.Build) and ReplayMany calls
// (ReplayOptions.Build) that search or replay them: the packages are
// instrumented once, and each package's instrumented and plain test
// binaries are built once, at their first use. The module's files must
// not change while it is used. A Build is safe for concurrent use; Close
// removes its files.
type Build struct {
	race     bool
	tags     []string
	patterns []string
	inst     *rewrite.Result
	dir      string          // the test binaries
	listed   map[string]bool // import paths the patterns match

	mu    sync.Mutex
	n     int                  // binaries named so far
	bins  map[string]*plainBin // by import path: instrumented test binaries
	plain map[string]*plainBin // by import path: plain go test binaries
}

// NewBuild instruments the packages of opts.Patterns; their binaries are
// built when a search or a replay first needs them.
func NewBuild(ctx context.Context, opts BuildOptions) (*Build, error) {
	if opts.Dir == "" {
		wd, err := os.Getwd()
		if err != nil {
			return nil, err
		}
		opts.Dir = wd
	}
	dir, err := filepath.Abs(opts.Dir)
	if err != nil {
		return nil, err
	}
	if len(opts.Patterns) == 0 {
		opts.Patterns = []string{"."}
	}
	paths, err := listPackages(ctx, dir, opts.Patterns, opts.Race, opts.Tags)
	if err != nil {
		return nil, err
	}
	endStage := stageOf(opts.Stage, "loading and instrumenting "+strings.Join(opts.Patterns, " ")+" (a shared build)")
	inst, err := instrument(ctx, dir, opts.Patterns, opts.Race, opts.Tags)
	if err != nil {
		return nil, err
	}
	endStage(inst.DepSummary())
	work, err := os.MkdirTemp("", "interleave-build-")
	if err != nil {
		inst.Cleanup()
		return nil, err
	}
	b := &Build{
		race: opts.Race, tags: slices.Clone(opts.Tags), patterns: slices.Clone(opts.Patterns),
		inst: inst, dir: work, listed: map[string]bool{},
		bins: map[string]*plainBin{}, plain: map[string]*plainBin{},
	}
	for _, p := range paths {
		b.listed[p] = true
	}
	return b, nil
}

// Close removes the instrumented files and the binaries.
func (b *Build) Close() error {
	return errors.Join(b.inst.Cleanup(), os.RemoveAll(b.dir))
}

// listPackages is the import paths the patterns match in dir.
func listPackages(ctx context.Context, dir string, patterns []string, race bool, tags []string) ([]string, error) {
	args := append(append([]string{"-f", "{{.ImportPath}}"}, buildFlags(race, tags)...), patterns...)
	out, err := goList(ctx, dir, args...)
	if err != nil {
		return nil, err
	}
	return strings.Fields(out), nil
}

// sameBuild says why a build with race and tags is not b's, or "".
func (b *Build) sameBuild(race bool, tags []string) string {
	if race == b.race && strings.Join(tags, ",") == strings.Join(b.tags, ",") {
		return ""
	}
	return fmt.Sprintf("the shared build has race %v, tags %q; this one race %v, tags %q", b.race, strings.Join(b.tags, ","), race, strings.Join(tags, ","))
}

// view is b's instrumentation limited to the packages opts.Patterns
// match in opts.Dir, for Run. It is b's: Run does not clean it up.
func (b *Build) view(ctx context.Context, opts Options) (*rewrite.Result, error) {
	if why := b.sameBuild(opts.Race, opts.Tags); why != "" {
		return nil, fmt.Errorf("Options.Build does not fit the search: %s", why)
	}
	paths, err := listPackages(ctx, opts.Dir, opts.Patterns, opts.Race, opts.Tags)
	if err != nil {
		return nil, err
	}
	want := map[string]bool{}
	for _, p := range paths {
		if !b.listed[p] {
			return nil, fmt.Errorf("Options.Build does not hold package %s (it was built for %s)", p, strings.Join(b.patterns, " "))
		}
		want[p] = true
	}
	v := *b.inst
	v.Packages = nil
	for _, p := range b.inst.Packages {
		if want[p.ImportPath] {
			v.Packages = append(v.Packages, p)
		}
	}
	// The packages left out that the view asks for ("path: why"): a
	// search of others does not repeat them.
	v.LeftOut = nil
	for _, l := range b.inst.LeftOut {
		if path, _, _ := strings.Cut(l, ":"); want[path] {
			v.LeftOut = append(v.LeftOut, l)
		}
	}
	return &v, nil
}

// binary returns the instrumented test binary of pkg, building it the
// first time it is asked for; stage, when set, is told of that build.
func (b *Build) binary(ctx context.Context, pkg string, stage func(StageEvent)) (string, error) {
	e := b.once(ctx, b.bins, "pkg", pkg, func(bin string) error {
		end := stageOf(stage, "building the test binary of "+pkg+" (a shared build)")
		defer end("")
		return build(ctx, b.inst, pkg, bin, b.race, b.tags)
	})
	return e.bin, e.err
}

// plainBin returns the plain test binary of p, built by buildPlain the
// first time it is asked for.
func (b *Build) plainBin(ctx context.Context, p rewrite.Package, buildPlain func(context.Context, rewrite.Package, string) error) *plainBin {
	return b.once(ctx, b.plain, "plain", p.ImportPath, func(bin string) error { return buildPlain(ctx, p, bin) })
}

// once returns m's binary for key, made by mk the first time. A build
// its context stopped is not kept: the next caller builds again.
func (b *Build) once(ctx context.Context, m map[string]*plainBin, prefix, key string, mk func(bin string) error) *plainBin {
	b.mu.Lock()
	e, ok := m[key]
	if !ok {
		b.n++
		e = &plainBin{bin: filepath.Join(b.dir, fmt.Sprintf("%s%d.test", prefix, b.n)), done: make(chan struct{})}
		m[key] = e
	}
	b.mu.Unlock()
	if ok {
		select {
		case <-e.done:
			return e
		case <-ctx.Done():
			return &plainBin{err: ctx.Err()}
		}
	}
	e.err = mk(e.bin)
	if e.err != nil && ctx.Err() != nil {
		b.mu.Lock()
		delete(m, key)
		b.mu.Unlock()
	}
	close(e.done)
	return e
}

// replayer returns a replayer of sched on b's binary, or nil when b does
// not hold the schedule's build: another package or module copy, race or
// tags, or a file the schedule carries that its package did not hold as
// it is (holdsFiles).
func (b *Build) replayer(ctx context.Context, sched *rt.Schedule, pkgDir string, opts ReplayOptions) (*replayer, error) {
	if b.sameBuild(sched.Race, sched.Tags) != "" {
		return nil, nil
	}
	for _, p := range b.inst.Packages {
		if p.ImportPath != sched.Package || filepath.Clean(p.Dir) != filepath.Clean(pkgDir) {
			continue
		}
		files, ok := holdsFiles(p, sched.Files)
		if !ok {
			return nil, nil
		}
		r := &replayer{opts: opts, pkg: sched.Package, race: sched.Race, tags: strings.Join(sched.Tags, ","), pkgDir: pkgDir, tests: map[string]bool{}, excluded: p.Excluded, files: files}
		for _, n := range p.Tests {
			r.tests[n] = true
		}
		bin, err := b.binary(ctx, p.ImportPath, opts.Stage)
		if err != nil {
			return nil, err
		}
		if r.work, err = os.MkdirTemp("", "interleave-replay-"); err != nil {
			return nil, err
		}
		r.bin = bin
		return r, nil
	}
	return nil, nil
}

// holdsFiles reports whether package p's build has the files a schedule
// carries (a generated test written into the package, as gen's check on a
// base commit does): each among its test files, with the same content on
// disk. It returns them by path, as a replayer keeps them.
func holdsFiles(p rewrite.Package, files []rt.SourceFile) (map[string][]byte, bool) {
	if len(files) == 0 {
		return nil, true
	}
	byPath := map[string][]byte{}
	for _, f := range files {
		path := filepath.Join(p.Dir, f.Name)
		if !validFileName(f.Name) || !slices.Contains(p.TestFiles, path) {
			return nil, false
		}
		if src, err := os.ReadFile(path); err != nil || string(src) != f.Source {
			return nil, false
		}
		byPath[path] = []byte(f.Source)
	}
	return byPath, true
}
