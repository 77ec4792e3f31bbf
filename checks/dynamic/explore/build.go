// Instrumenting the packages, selecting the tests to search and building their test binaries.

package explore

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"

	"github.com/interleave-dev/interleave/checks"
	"github.com/interleave-dev/interleave/checks/dynamic/rewrite"
	"github.com/interleave-dev/interleave/checks/dynamic/rt"
	"github.com/interleave-dev/interleave/internal/testbin"
)

// instrument runs the rewriter, turning its build error into ours. race
// says the tests are built with -race, which sets the race build tag, and
// tags are more build tags: the rewrite and the driver use the files of
// that build.
func instrument(ctx context.Context, dir string, patterns []string, race bool, tags []string) (*rewrite.Result, error) {
	return instrumentOverlay(ctx, dir, patterns, race, tags, nil)
}

// buildFlags are the go command's flags for a build with race and tags.
func buildFlags(race bool, tags []string) []string {
	var flags []string
	if race {
		flags = append(flags, "-race")
	}
	if len(tags) > 0 {
		flags = append(flags, "-tags="+strings.Join(tags, ","))
	}
	return flags
}

// instrumentOverlay is instrument with files added to the packages.
func instrumentOverlay(ctx context.Context, dir string, patterns []string, race bool, tags []string, overlay map[string][]byte) (*rewrite.Result, error) {
	inst, err := rewrite.Instrument(ctx, rewrite.Options{Dir: dir, Patterns: patterns, BuildFlags: buildFlags(race, tags), Overlay: overlay})
	if err != nil {
		var be *rewrite.BuildError
		if errors.As(err, &be) {
			out := strings.Join(be.Errors, "\n")
			if be.Hint != "" {
				out += "\n" + be.Hint
			}
			return nil, &BuildError{Package: strings.Join(patterns, " "), Output: out}
		}
		return nil, fmt.Errorf("instrument %s: %w", strings.Join(patterns, " "), err)
	}
	return inst, nil
}

// linkFlags are the flags of an instrumented test binary's link: no
// DWARF (-w), which nothing reads (stacks and the race detector's reports
// come from the runtime's own tables), so the link takes a quarter to two
// fifths less CPU; none when the user's GOFLAGS set -ldflags, which a
// flag of ours would replace.
func linkFlags(goflags string) []string {
	if strings.Contains(goflags, "-ldflags") {
		return nil
	}
	return []string{"-ldflags=-w"}
}

// userGOFLAGS is go env GOFLAGS ("-ldflags" when it cannot be read, so
// that linkFlags adds nothing).
var userGOFLAGS = sync.OnceValue(func() string {
	out, err := exec.Command("go", "env", "GOFLAGS").Output()
	if err != nil {
		return "-ldflags"
	}
	return string(out)
})

// build compiles the instrumented test binary of one package.
func build(ctx context.Context, inst *rewrite.Result, pkg, bin string, race bool, tags []string) error {
	// -vet=off: vet would check the rewritten code, which is not the
	// user's, and it chdirs into the runtime's directory, which exists only
	// in the overlay.
	args := []string{"-vet=off", "-overlay", inst.Overlay}
	args = append(args, linkFlags(userGOFLAGS())...)
	if inst.ModFile != "" {
		args = append(args, "-modfile", inst.ModFile) // rewritten dependencies
	}
	args = append(args, buildFlags(race, tags)...)
	args = append(args, pkg)
	// A build the go command finds up to date in its slot is not linked
	// again (the same package searched again, replayed, or by another test).
	out, err := testbin.Build(ctx, "instrumented", inst.ModuleRoot, nil, args, bin)
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return &BuildError{Package: pkg, Output: string(out) + err.Error()}
	}
	if _, err := os.Stat(bin); err != nil {
		return &BuildError{Package: pkg, Output: "go test -c wrote no binary (does the package have tests?)\n" + string(out)}
	}
	return nil
}

func goVersion(ctx context.Context, dir string) string {
	cmd := exec.CommandContext(ctx, "go", "env", "GOVERSION")
	cmd.Dir = dir
	if out, err := cmd.Output(); err == nil {
		return strings.TrimSpace(string(out))
	}
	return runtime.Version()
}

// selectTests picks the tests to search from the instrumented packages.
func (s *search) selectTests(run *rt.RunFilter) ([]*target, error) {
	var out []*target
	mk := func(p rewrite.Package, name string, w float64) *target {
		if w <= 0 {
			w = 1
		}
		rel, err := filepath.Rel(s.inst.ModuleRoot, p.Dir)
		if err != nil {
			rel = p.Dir
		}
		return &target{pkg: p, name: name, weight: w, relDir: filepath.ToSlash(rel)}
	}
	if len(s.opts.Tests) > 0 {
		var excluded []string
		for _, ref := range s.opts.Tests {
			found, why := false, ""
			for _, p := range s.inst.Packages {
				if p.ImportPath != ref.Package {
					continue
				}
				// "TestX/Sub": TestX's top-level subtest Sub alone (subtests.go).
				for _, n := range p.Tests {
					if n == topTest(ref.Name) {
						out = append(out, mk(p, ref.Name, ref.Weight))
						found = true
					}
				}
				if file, ok := p.Excluded[topTest(ref.Name)]; ok && !found {
					why = s.notInBuild(p, topTest(ref.Name), file)
				}
			}
			switch {
			case found:
			case why != "":
				// Another build (without -race, other tags) has it: the
				// others are still searched.
				excluded = append(excluded, why)
			default:
				return nil, &NoTestsError{What: fmt.Sprintf("test %s.%s not found", ref.Package, ref.Name)}
			}
		}
		if len(out) == 0 {
			return nil, &NoTestsError{What: strings.Join(excluded, "; ")}
		}
		for _, n := range excluded {
			s.note(n)
		}
		return out, nil
	}
	var excluded []string
	skipped := 0
	for _, p := range s.inst.Packages {
		for _, n := range p.Tests {
			if run == nil || run.Matches(n) {
				if s.skip != nil && s.skip.Skips(n) {
					skipped++
					continue
				}
				out = append(out, mk(p, n, 1))
			}
		}
		if run != nil {
			for n, file := range p.Excluded {
				if run.Matches(n) {
					excluded = append(excluded, s.notInBuild(p, n, file))
				}
			}
		}
	}
	if len(out) == 0 {
		what := "no Test functions in " + strings.Join(s.opts.Patterns, " ")
		if run != nil {
			what = fmt.Sprintf("no test in %s matches -run %q", strings.Join(s.opts.Patterns, " "), s.opts.Run)
		}
		if skipped > 0 {
			what += fmt.Sprintf(" (%d %s skipped: -skip %q)", skipped, checks.Plural(skipped, "test"), s.opts.Skip)
		}
		if len(excluded) > 0 {
			sort.Strings(excluded)
			what += " (" + strings.Join(excluded, "; ") + ")"
		}
		return nil, &NoTestsError{What: what}
	}
	return out, nil
}

// notInBuild says why test name of p, declared in file, is not searched:
// the build excludes its file.
func (s *search) notInBuild(p rewrite.Package, name, file string) string {
	how := "its build constraints"
	if s.opts.Race {
		how += " (-race sets the race tag)"
	}
	if len(s.opts.Tags) > 0 {
		how += " (tags " + strings.Join(s.opts.Tags, ",") + ")"
	}
	return fmt.Sprintf("%s.%s not searched: %s is not in this build, %s exclude it", p.ImportPath, name, filepath.Base(file), how)
}

// load instruments the packages of the patterns (s.inst).
func (s *search) load(ctx context.Context) error {
	endStage := s.stage("loading and instrumenting " + strings.Join(s.opts.Patterns, " "))
	inst, err := instrument(ctx, s.opts.Dir, s.opts.Patterns, s.opts.Race, s.opts.Tags)
	if err != nil {
		return err
	}
	endStage(inst.DepSummary())
	s.inst = inst
	return nil
}

// makeWorkDir makes the directory of the test binaries and of the
// processes' files (s.workDir), and reads the Go version schedule files
// record.
func (s *search) makeWorkDir(ctx context.Context) error {
	work, err := os.MkdirTemp("", "interleave-explore-")
	if err != nil {
		return err
	}
	s.workDir = work
	s.goVersion = goVersion(ctx, s.inst.ModuleRoot)
	return nil
}

// buildTargets builds one test binary per package and returns the targets
// that have one. A package that does not build is left out with a note,
// unless no package builds: then it returns no target and the first build
// error.
func (s *search) buildTargets(ctx context.Context, targets []*target) ([]*target, error) {
	bins := map[string]string{}
	var firstErr error
	for _, t := range targets {
		if _, ok := bins[t.pkg.ImportPath]; ok {
			continue
		}
		bin := filepath.Join(s.workDir, fmt.Sprintf("pkg%d.test", len(bins)))
		what := "building the test binary of " + t.pkg.ImportPath
		if s.opts.Race {
			what += " with the race detector (the first build also compiles the standard library and the dependencies for it)"
		}
		endStage := s.stage(what)
		// The plain go test binary (the package as it is) builds
		// alongside, outside the budget: it decides what fails without
		// interleave too.
		plainDone := make(chan struct{})
		go func() {
			defer close(plainDone)
			s.plainBin(ctx, t.pkg)
		}()
		var err error
		if s.opts.Build != nil {
			bin, err = s.opts.Build.binary(ctx, t.pkg.ImportPath, nil)
		} else {
			err = build(ctx, s.inst, t.pkg.ImportPath, bin, s.opts.Race, s.opts.Tags)
		}
		<-plainDone
		if err != nil {
			var be *BuildError
			if !errors.As(err, &be) {
				return nil, err
			}
			firstErr = cmp.Or(firstErr, err)
			s.note(fmt.Sprintf("%s not searched: it does not build under the rewrite:\n%s", t.pkg.ImportPath, tailLines(be.Output, 10)))
			bin = ""
		}
		endStage("")
		bins[t.pkg.ImportPath] = bin
	}
	var built []*target
	for _, t := range targets {
		if t.bin = bins[t.pkg.ImportPath]; t.bin != "" {
			built = append(built, t)
		}
	}
	return built, firstErr
}
