// The concurrent check against a change's base: a generated test whose failure the base commit has too shows an older bug, not the change's.

package gen

import (
	"bytes"
	"context"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
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
	tmp := "" // baseFile's schedules
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
		pkg := "./" + filepath.ToSlash(rel)
		if out, ok := buildTests(ctx, r.opts.BaseDir, pkg, r.opts.Tags, r.opts.Stage); !ok {
			if tmp == "" {
				var err error
				if tmp, err = os.MkdirTemp("", "interleave-gen-base-"); err != nil {
					none(err.Error())
					continue
				}
				defer os.RemoveAll(tmp)
			}
			bfs, bkeys := r.baseFile(ctx, w, ks, file, pkg, out, tmp)
			fs, keys = append(fs, bfs...), append(keys, bkeys...)
			continue
		}
		for _, k := range ks {
			fs = append(fs, r.best[k])
			keys = append(keys, k)
		}
	}
	r.judgeOnBase(ctx, fs, keys)
	for k, v := range r.base {
		if r.rebuilt[k] && !v.none {
			v.how += " (its value built by another constructor: the base commit lacks the one the test drew)"
			r.base[k] = v
		}
	}
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

// maxBaseBuilds bounds fitOnBase's builds of a package on the base.
const maxBaseBuilds = 4

// baseFile is checkBase's way for a package whose generated file as
// searched does not compile on the base commit (out is the build's
// output): the file at file is written again with only the tests of the
// findings ks, each building its values as drawn or, when the base lacks
// what that calls, by another constructor of its type (OtherBuilds;
// fitOnBase); a test no build compiles gets no verdict. It returns the
// findings to judge there, each with a copy of its schedule (in tmp) that
// carries the file as written. fsnotify v1.7.0's Add ∥ Close failure went
// out as the change's: the file also held tests built by
// NewBufferedWatcher, new in v1.7.0, so nothing was judged.
func (r *run) baseFile(ctx context.Context, w *pkgWork, ks []findingKey, file, pkg, out, tmp string) ([]checks.Finding, []findingKey) {
	byName := map[string][]findingKey{}
	var cases []*Case
	for _, k := range ks {
		name := r.best[k].Test
		if byName[name] != nil {
			byName[name] = append(byName[name], k)
			continue
		}
		i := slices.IndexFunc(w.kept, func(c *Case) bool { return c.Name == name })
		if i < 0 {
			r.base[k] = baseVerdict{none: true, how: "the generated test does not compile on the base commit: " + compileLine(out)}
			continue
		}
		byName[name], cases = []findingKey{k}, append(cases, w.kept[i])
	}
	fit, err := fitOnBase(ctx, w.gen, w.pkg.Name, cases, w.gen.OtherBuilds, Concurrent, file, r.opts.BaseDir, pkg, r.opts.Tags, r.opts.Stage, nil)
	if err != nil {
		for _, ks := range byName {
			for _, k := range ks {
				r.base[k] = baseVerdict{none: true, how: err.Error()}
			}
		}
		return nil, nil
	}
	for name, why := range fit.left {
		for _, k := range byName[name] {
			r.base[k] = baseVerdict{none: true, how: "the generated test does not compile on the base commit: " + why}
		}
	}
	var fs []checks.Finding
	var keys []findingKey
	for _, c := range fit.kept {
		for _, k := range byName[c.Name] {
			f := r.best[k]
			s, err := explore.ReadSchedule(f.Schedule)
			if err == nil {
				for i := range s.Files {
					if s.Files[i].Name == FileName {
						s.Files[i].Source = string(fit.src)
					}
				}
				f.Schedule = filepath.Join(tmp, fmt.Sprintf("%d.json", len(r.rebuilt)))
				err = explore.WriteSchedule(f.Schedule, s)
			}
			if err != nil {
				r.base[k] = baseVerdict{none: true, how: err.Error()}
				continue
			}
			// Its members' tests are not in the file written.
			f.SameCause = nil
			if r.rebuilt == nil {
				r.rebuilt = map[findingKey]bool{}
			}
			r.rebuilt[k] = fit.rebuilt[c.Name]
			fs, keys = append(fs, f), append(keys, k)
		}
	}
	return fs, keys
}

// baseFit is what fitOnBase wrote.
type baseFit struct {
	kept    []*Case           // as written (copies)
	src     []byte            // the file written
	rebuilt map[string]bool   // the kept built otherwise than drawn, by name
	left    map[string]string // the cases left out, by name: why
}

// fitOnBase writes cases, rendered in mode, to file in package pkg of the
// base commit (relative to baseDir) and builds its tests there, in up to
// maxBaseBuilds builds: a case whose lines the compiler's errors are in is
// built by its next way (others(c), when others is set) or left out; an
// error outside every case leaves them all out. A case of a change that
// added a constructor or a method does not compile on the base, and it
// took every other case of its package with it. The time of its builds is
// added to built when set.
func fitOnBase(ctx context.Context, g *Generator, pkgName string, cases []*Case, others func(*Case) [][]string, mode Mode, file, baseDir, pkg string, tags []string, stage func(explore.StageEvent), built *time.Duration) (*baseFit, error) {
	fit := &baseFit{rebuilt: map[string]bool{}, left: map[string]string{}}
	builds := make([][][]string, len(cases))
	at := make([]int, len(cases))
	for i, c := range cases {
		builds[i] = [][]string{c.Build}
		if others != nil {
			builds[i] = append(builds[i], others(c)...)
		}
	}
	live := make([]int, len(cases))
	for i := range live {
		live[i] = i
	}
	for n := 0; len(live) > 0; n++ {
		var cs []*Case
		for _, i := range live {
			c := *cases[i]
			c.Build = builds[i][at[i]]
			cs = append(cs, &c)
		}
		src, err := Render(g, pkgName, cs, mode)
		if err == nil {
			err = os.WriteFile(file, src, 0o644)
		}
		if err != nil {
			return nil, err
		}
		began := time.Now()
		out, ok := buildTests(ctx, baseDir, pkg, tags, stage)
		if built != nil {
			*built += time.Since(began)
		}
		if ok {
			fit.kept, fit.src = cs, src
			for _, i := range live {
				fit.rebuilt[cases[i].Name] = at[i] > 0
			}
			return fit, nil
		}
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		bad, outside := testsAt(src, errorLines(out))
		if outside || len(bad) == 0 || n+1 == maxBaseBuilds {
			for _, i := range live {
				fit.left[cases[i].Name] = compileLine(out)
			}
			return fit, nil
		}
		next := live[:0]
		for _, i := range live {
			if bad[cases[i].Name] {
				if at[i]++; at[i] == len(builds[i]) {
					why := compileLine(out)
					if len(builds[i]) > 1 {
						why += " (nor by any other constructor of its type)"
					}
					fit.left[cases[i].Name] = why
					continue
				}
			}
			next = append(next, i)
		}
		live = next
	}
	return fit, nil
}

// errorLines are the lines of FileName a build's output names errors at.
func errorLines(out string) []int {
	var lines []int
	for _, m := range fileErrorRE.FindAllStringSubmatch(out, -1) {
		if n, err := strconv.Atoi(m[1]); err == nil {
			lines = append(lines, n)
		}
	}
	return lines
}

var fileErrorRE = regexp.MustCompile(`(?m)` + regexp.QuoteMeta(FileName) + `:(\d+)(?::\d+)?: `)

// testsAt names the test functions of src that hold lines; outside is set
// when a line is in none.
func testsAt(src []byte, lines []int) (tests map[string]bool, outside bool) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, FileName, src, 0)
	if err != nil {
		return nil, true
	}
	tests = map[string]bool{}
	for _, l := range lines {
		in := false
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if ok && fset.Position(fd.Pos()).Line <= l && l <= fset.Position(fd.End()).Line && strings.HasPrefix(fd.Name.Name, "Test") {
				tests[fd.Name.Name], in = true, true
			}
		}
		outside = outside || !in
	}
	return tests, outside
}

// buildTests builds the tests of package pkg (relative to dir) with tags:
// whether they compile, and go's output when not.
func buildTests(ctx context.Context, dir, pkg string, tags []string, stage func(explore.StageEvent)) (string, bool) {
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
	if o := string(bytes.TrimSpace(out)); o != "" {
		return o, false
	}
	return err.Error(), false
}
