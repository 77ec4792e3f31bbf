// The concurrent check against a change's base: a generated test whose failure the base commit has too shows an older bug, not the change's.

package gen

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/interleave-dev/interleave/checks"
	"github.com/interleave-dev/interleave/checks/dynamic/explore"
)

// baseVerdict is what the base commit did with one finding's test.
type baseVerdict struct {
	onBase bool   // it fails the same way there
	none   bool   // nothing was decided (how says why)
	how    string // for the reader
}

// baseReserve is the part of the budget kept from the search for the base
// commit's check of its findings, when there is a base commit.
func baseReserve(budget time.Duration, baseDir string) time.Duration {
	if baseDir == "" {
		return 0
	}
	return budget / 10
}

// minBaseSearch is the least a package's search on the base commit gets:
// a few schedules of a generated test that leaves goroutines behind.
const minBaseSearch = 2 * time.Second

// checkBase runs the tests of the findings kept (r.order) that
// Options.BaseCheck picks on the base commit (Options.BaseDir): the
// generated file as searched is added to each package there, each
// finding's schedule is replayed there and, when it does not fail the
// same way, its test is searched there with a bound (judgeOnBase). A test
// that does not compile on the base (its type or methods differ) gets no
// verdict. The files added are removed again.
func (r *run) checkBase(ctx context.Context) {
	r.base = map[findingKey]baseVerdict{}
	if r.opts.BaseDir == "" {
		return
	}
	byPkg := map[string][]findingKey{}
	n := 0
	for _, k := range r.order {
		f := r.best[k]
		if r.opts.BaseCheck != nil && !r.opts.BaseCheck(&f) {
			continue
		}
		byPkg[f.Package] = append(byPkg[f.Package], k)
		n++
	}
	if n == 0 {
		return
	}
	end := r.stage(fmt.Sprintf("checking %d finding(s) on the base commit", n))
	var fs []checks.Finding
	var keys []findingKey
	for _, w := range r.works {
		ks := byPkg[w.pkg.PkgPath]
		if len(ks) == 0 {
			continue
		}
		none := func(how string) {
			for _, k := range ks {
				r.base[k] = baseVerdict{none: true, how: how}
			}
		}
		rel, err := filepath.Rel(r.copyRoot, w.dir)
		if err != nil || strings.HasPrefix(rel, "..") {
			none("its package is not in the module's copy")
			continue
		}
		dir := filepath.Join(r.opts.BaseDir, rel)
		if st, err := os.Stat(dir); err != nil || !st.IsDir() {
			// A new package: the base cannot have its failures.
			for _, k := range ks {
				r.base[k] = baseVerdict{how: "the base commit has no package " + w.pkg.PkgPath}
			}
			continue
		}
		file := filepath.Join(dir, FileName)
		if _, err := os.Stat(file); err == nil {
			none(fmt.Sprintf("%s exists on the base commit", FileName))
			continue
		}
		if err := os.WriteFile(file, w.src, 0o644); err != nil {
			none(err.Error())
			continue
		}
		defer os.Remove(file)
		if msg, ok := compiles(ctx, r.opts.BaseDir, "./"+filepath.ToSlash(rel), r.opts.Tags, r.opts.Stage); !ok {
			none("the generated test does not compile on the base commit: " + msg)
			continue
		}
		for _, k := range ks {
			fs = append(fs, r.best[k])
			keys = append(keys, k)
		}
	}
	r.judgeOnBase(ctx, fs, keys)
	onBase := 0
	for _, v := range r.base {
		if v.onBase {
			onBase++
		}
	}
	end(fmt.Sprintf("%d fail on the base commit too", onBase))
}

// judgeOnBase decides, for findings fs (of keys) whose generated file is
// in the base commit's packages, whether the base fails the same way, with
// explore.CheckBase: each schedule replayed there (it carries the file),
// then, for those it does not reproduce, a search of their tests there
// within baseReserve (at least minBaseSearch a package) and
// Options.Schedules, ended by the same failure.
func (r *run) judgeOnBase(ctx context.Context, fs []checks.Finding, keys []findingKey) {
	if len(fs) == 0 {
		return
	}
	opts := r.opts
	vs, err := explore.CheckBase(ctx, fs, explore.BaseOptions{
		Dir: opts.BaseDir, Budget: baseReserve(opts.Budget, opts.BaseDir), MinSearch: minBaseSearch, UntilSame: true,
		Schedules: opts.Schedules, Strategy: opts.Strategy, Seed: opts.Seed, Race: opts.Race, Tags: opts.Tags,
		Workers: opts.Workers, StepTimeout: opts.StepTimeout, Stage: opts.Stage,
		Left: opts.Left, Now: clock, // inside the job's budget, when it has one
	})
	for i, k := range keys {
		switch {
		case err != nil:
			r.base[k] = baseVerdict{none: true, how: firstLine(err.Error())}
		case vs[i].OnBase:
			r.base[k] = baseVerdict{onBase: true, how: vs[i].How}
		default:
			r.base[k] = baseVerdict{none: vs[i].Unconfirmed, how: vs[i].How}
		}
	}
}

// compiles reports whether the tests of package pkg (relative to dir)
// compile, built with tags; when not, the compiler's first error.
func compiles(ctx context.Context, dir, pkg string, tags []string, stage func(explore.StageEvent)) (string, bool) {
	tmp, err := os.MkdirTemp("", "interleave-gen-base-")
	if err != nil {
		return err.Error(), false
	}
	defer os.RemoveAll(tmp)
	what := "building the generated tests on the base commit (go test -c)"
	if stage != nil {
		stage(explore.StageEvent{Name: what})
	}
	began := time.Now()
	args := append([]string{"test", "-c", "-vet=off", "-o", filepath.Join(tmp, "x.test")}, tagFlags(tags)...)
	cmd := exec.CommandContext(ctx, "go", append(args, pkg)...)
	cmd.Dir = dir
	cmd.WaitDelay = testWaitDelay
	out, err := cmd.CombinedOutput()
	if stage != nil {
		stage(explore.StageEvent{Name: what, Done: true, Took: time.Since(began)})
	}
	if err == nil {
		return "", true
	}
	for _, l := range strings.Split(string(bytes.TrimSpace(out)), "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
			return l, false
		}
	}
	return err.Error(), false
}
