// interleave test under .interleave.yaml: which settings it uses, the packages exclude leaves out.

package main

import (
	"context"
	"flag"
	"fmt"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"github.com/interleave-dev/interleave/checks/dynamic/rt"
	"github.com/interleave-dev/interleave/internal/prjob"
)

// testUses are the config file's settings interleave test applies; the
// others say why not (testUnused).
var testUses = []string{"exclude", "budget", "max-steps", "tests.run", "tests.skip", "tags", "ignore"}

// testUnused says why test leaves a setting of the file alone.
var testUnused = map[string]string{
	"rules.enable":  "not used by test (no static passes)",
	"rules.disable": "not used by test (no static passes)",
	"gen-budget":    "not used by test (interleave gen has its own -budget)",
}

// applyTestFile puts the working tree's .interleave.yaml under the flags
// of interleave test (fs, already parsed into opts). It returns where each
// setting came from and the notes to print.
func applyTestFile(env *cliEnv, fs *flag.FlagSet, opts *testOptions) (prjob.Sources, []string, error) {
	file, _, err := prjob.LoadFile(env.dir, "")
	if err != nil {
		return nil, nil, err
	}
	c := prjob.Config{Budget: opts.budget, MaxSteps: opts.maxSteps, Exclude: opts.exclude, Tags: opts.tags}
	if opts.run != "" {
		c.Run = rt.MustParseRun(opts.run) // checked by parseTestFlags
	}
	if opts.skip != "" {
		c.Skip = rt.MustParseRun(opts.skip)
	}
	src := prjob.ApplyFile(&c, file, prjob.FlagGiven(fs))
	var notes []string
	for s, why := range testUnused {
		if src[s] != "default" {
			src[s] = why + "; " + src[s]
		} else {
			src[s] = why
		}
	}
	// budget 0 skips the pull-request job's search; test is the search,
	// so it keeps its own default.
	if c.Budget <= 0 {
		notes = append(notes, fmt.Sprintf("budget %v (%s) skips the dynamic search of interleave pr; interleave test keeps its default -budget %v", c.Budget, src["budget"], opts.budget))
		src["budget"] = "default (" + src["budget"] + " sets 0: pr only)"
		c.Budget = opts.budget
	}
	opts.budget, opts.maxSteps, opts.exclude, opts.ignore, opts.tags = c.Budget, c.MaxSteps, c.Exclude, c.Ignore, c.Tags
	opts.run, opts.skip = "", ""
	if c.Run != nil {
		opts.run = c.Run.String()
	}
	if c.Skip != nil {
		opts.skip = c.Skip.String()
	}
	return src, notes, nil
}

// excludePackages expands the patterns to their packages and leaves out
// those the exclude patterns (relative to the module root) select. It
// returns the patterns unchanged when none is left out, otherwise the
// kept packages' directories relative to dir ("./x"), and how many it
// left out.
func excludePackages(ctx context.Context, dir string, patterns, exclude []string) ([]string, int, error) {
	if len(exclude) == 0 {
		return patterns, 0, nil
	}
	cmd := exec.CommandContext(ctx, "go", append([]string{"list", "-e", "-f", "{{.Dir}}", "--"}, patterns...)...)
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		msg := err.Error()
		if ee, ok := err.(*exec.ExitError); ok && len(ee.Stderr) > 0 {
			msg = strings.TrimSpace(string(ee.Stderr))
		}
		return nil, 0, fmt.Errorf("go list %s: %s", strings.Join(patterns, " "), msg)
	}
	mod := prjob.ModuleRoot(dir)
	var kept []string
	dropped := 0
	for _, d := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if d == "" {
			continue
		}
		if prjob.InPackages(mod, exclude, filepath.Join(d, "x_test.go")) {
			dropped++
			continue
		}
		rel, err := filepath.Rel(dir, d)
		if err != nil || strings.HasPrefix(rel, "..") {
			kept = append(kept, d)
			continue
		}
		kept = append(kept, "./"+filepath.ToSlash(rel))
	}
	if dropped == 0 {
		return patterns, 0, nil
	}
	slices.Sort(kept)
	return slices.Compact(kept), dropped, nil
}
