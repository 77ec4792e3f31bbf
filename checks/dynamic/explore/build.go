// Instrumenting the packages, selecting the tests to search and building their test binaries.

package explore

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strings"

	"github.com/interleave-dev/interleave/checks/dynamic/rewrite"
)

// instrument runs the rewriter, turning its build error into ours. race
// says the tests are built with -race, which sets the race build tag: the
// rewrite and the driver use the files of that build.
func instrument(ctx context.Context, dir string, patterns []string, race bool) (*rewrite.Result, error) {
	return instrumentOverlay(ctx, dir, patterns, race, nil)
}

// instrumentOverlay is instrument with files added to the packages.
func instrumentOverlay(ctx context.Context, dir string, patterns []string, race bool, overlay map[string][]byte) (*rewrite.Result, error) {
	var flags []string
	if race {
		flags = []string{"-race"}
	}
	inst, err := rewrite.Instrument(ctx, rewrite.Options{Dir: dir, Patterns: patterns, BuildFlags: flags, Overlay: overlay})
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

// build compiles the instrumented test binary of one package.
func build(ctx context.Context, inst *rewrite.Result, pkg, bin string, race bool) error {
	// -vet=off: vet would check the rewritten code, which is not the
	// user's, and it chdirs into the runtime's directory, which exists only
	// in the overlay.
	args := []string{"test", "-c", "-vet=off", "-o", bin, "-overlay", inst.Overlay}
	if inst.ModFile != "" {
		args = append(args, "-modfile", inst.ModFile) // rewritten dependencies
	}
	if race {
		args = append(args, "-race")
	}
	args = append(args, pkg)
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = inst.ModuleRoot
	out, err := cmd.CombinedOutput()
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
func (s *search) selectTests(runRE *regexp.Regexp) ([]*target, error) {
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
				for _, n := range p.Tests {
					if n == ref.Name {
						out = append(out, mk(p, n, ref.Weight))
						found = true
					}
				}
				if file, ok := p.Excluded[ref.Name]; ok && !found {
					why = s.notInBuild(p, ref.Name, file)
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
	for _, p := range s.inst.Packages {
		for _, n := range p.Tests {
			if runRE == nil || runRE.MatchString(n) {
				out = append(out, mk(p, n, 1))
			}
		}
		if runRE != nil {
			for n, file := range p.Excluded {
				if runRE.MatchString(n) {
					excluded = append(excluded, s.notInBuild(p, n, file))
				}
			}
		}
	}
	if len(out) == 0 {
		what := "no Test functions in " + strings.Join(s.opts.Patterns, " ")
		if runRE != nil {
			what = fmt.Sprintf("no test in %s matches -run %q", strings.Join(s.opts.Patterns, " "), s.opts.Run)
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
	return fmt.Sprintf("%s.%s not searched: %s is not in this build, %s exclude it", p.ImportPath, name, filepath.Base(file), how)
}
