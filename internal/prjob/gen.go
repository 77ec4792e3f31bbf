package prjob

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"

	"golang.org/x/tools/go/packages"

	"github.com/interleave-dev/interleave/affected"
	"github.com/interleave-dev/interleave/checks"
	"github.com/interleave-dev/interleave/checks/dynamic/explore"
	"github.com/interleave-dev/interleave/checks/dynamic/gen"
)

// genTests runs `interleave gen` on the types of the changed packages that
// claim thread safety or hold a mutex or atomic, and that the change
// touches: their declaration is on a changed line, or one of their methods
// changed (the goroutines call the changed methods first).
func (r *job) genTests(ctx context.Context) ([]checks.Finding, error) {
	opts, c := r.opts, r.change
	// The changed packages that compile: one that does not (listed by
	// logBroken) would fail the whole load.
	var pkgs []string
	for _, path := range c.Packages {
		if r.broken.pkgs[path] == nil {
			pkgs = append(pkgs, path)
		}
	}
	if opts.GenBudget <= 0 || len(pkgs) == 0 {
		return nil, nil
	}
	// A type is touched too when a changed line takes its lock (a method
	// of another type now locks it: its callbacks may no longer call
	// back, gen's reentries).
	touched := func(t *gen.Target) bool {
		p := t.Pkg.Fset.Position(t.Pos)
		return r.touchedType(t.Pkg.PkgPath, t.Name.Name(), p.Filename, p.Line) || t.LockedOn(r.change.OnChangedLine)
	}
	// The methods of the candidates no schedule of the search confirmed
	// (their position or a related one) are called first too: a generated
	// schedule may confirm them (addGenFindings).
	candidates := candidateMethods(r.confirm.unconfirmed, c.ModuleDir)
	// And each candidate's two sides against each other, on one value,
	// through the exported types that hold an unexported one.
	sides := candidateSides(r.confirm.unconfirmed, c.ModuleDir)
	seed, schedules := r.seedAndSchedules()
	// The generated tests that fail sequentially are run on the base
	// commit too: those that pass there show what the change broke.
	var baseDir string
	if c.MergeBase != "" && c.Base != affected.Empty {
		dir, _, done, err := r.baseCheckout(ctx)
		if err != nil {
			r.notes = append(r.notes, fmt.Sprintf("gen: no checkout of the base commit (%v): generated tests that fail sequentially are dropped", err))
		} else {
			defer done()
			baseDir = dir
		}
	}
	budget, over := genStageBudget(r.budget.left(), opts.GenBudget), r.genOver()
	r.logf("gen: tests generated for the changed types that claim thread safety or hold a mutex or atomic, budget %v, seed %d", budget, seed)
	res, err := gen.Run(ctx, gen.Options{
		Dir:      c.ModuleDir,
		Patterns: pkgs,
		Select:   touched,
		Guarded:  true,
		Focus: func(t *gen.Target, method string) bool {
			dir := filepath.Dir(t.Pkg.Fset.Position(t.Pos).Filename)
			return r.changedMethod(t.Pkg.PkgPath, t.Name.Name(), method) || candidates[methodKey(dir, t.Name.Name(), method)]
		},
		Sides: func(p *packages.Package) [][2]gen.Method {
			if len(p.GoFiles) == 0 {
				return nil
			}
			return sides[filepath.Clean(filepath.Dir(p.GoFiles[0]))]
		},
		BaseDir: baseDir,
		// Only the findings in the change are checked on the base: the
		// others are a note anyway (addGenFindings). genFocused is not
		// known yet, so one without a place of its own is checked.
		BaseCheck: r.genInChange,
		Seed:      seed,
		Budget:    budget,
		Over:      over,
		// gen's replays and its base check end by the job's budget.
		Left:         r.budget.leftFunc(),
		Strategy:     opts.Strategy,
		Race:         opts.Race,
		Tags:         opts.Tags,
		SchedulesDir: schedules,
		Workers:      opts.Workers,
		Schedules:    opts.Count,
		Stage: r.budget.watch(func(ev explore.StageEvent) {
			fmt.Fprintln(r.stderr, "interleave pr: gen: "+StageLine(ev))
		}),
	})
	if err != nil {
		var nt *gen.NoTargetsError
		if errors.As(err, &nt) {
			r.notes = append(r.notes, "gen: no changed type claims thread safety or holds a mutex or atomic")
			return nil, nil
		}
		return nil, err
	}
	r.genOnBase = res.OnBase
	r.genFocused = map[string]bool{}
	for k := range res.Focused {
		r.genFocused[k] = true
	}
	for _, t := range res.Types {
		r.logf("gen: %s.%s: %d generated, %d searched (%d of them fail sequentially here but pass on the base commit), %d %s, %d more failing on the base commit too", t.Package, t.Type, t.Generated, t.Kept, t.OnBase, t.Findings, checks.Plural(t.Findings, "finding"), t.FailOnBase)
		if opts.Verbose {
			for _, d := range t.Dropped {
				r.logf("gen:   dropped %s", d)
			}
		}
	}
	for _, n := range res.Notes {
		r.notes = append(r.notes, "gen: "+n)
	}
	return r.fromRoot(res.Findings), nil
}
