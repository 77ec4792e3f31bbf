// The differential check against a change's base: a generated test that fails when run sequentially on the head but passes on the base commit shows what the change broke, so it is searched instead of dropped.

package gen

import (
	"context"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// onBase runs the sequential version of the cases that failed on the head
// (status is keyed by package + "." + test, as feedback keeps it) in the
// module at baseRoot, in the same package directory, and marks those that
// pass there (Case.OnBase). The file written there is removed again. Its
// rounds end as feedback's, at until. It returns notes on what could not
// be compared.
func onBase(ctx context.Context, root, baseRoot string, works []*pkgWork, status map[string]string, tags []string, until time.Time, built *time.Duration) ([]string, error) {
	var notes []string
	for _, w := range works {
		var failed []*Case
		for _, c := range w.cases {
			if s := status[w.pkg.PkgPath+"."+c.Name]; s == "fail" || s == "crash" {
				failed = append(failed, c)
			}
		}
		if len(failed) == 0 {
			continue
		}
		rel, err := filepath.Rel(root, w.dir)
		if err != nil || strings.HasPrefix(rel, "..") {
			return nil, fmt.Errorf("%s is not in the copy at %s", w.dir, root)
		}
		dir := filepath.Join(baseRoot, rel)
		if st, err := os.Stat(dir); err != nil || !st.IsDir() {
			continue // a new package: nothing on the base to compare with
		}
		file := filepath.Join(dir, FileName)
		if _, err := os.Stat(file); err == nil {
			return nil, fmt.Errorf("%s exists on the base commit: not overwritten", file)
		}
		src, err := Render(w.gen, w.pkg.Name, failed, Sequential)
		if err != nil {
			return nil, err
		}
		if err := os.WriteFile(file, src, 0o644); err != nil {
			return nil, err
		}
		// In rounds, as feedback: the shapes first, by themselves, while
		// one is left; the blocking cases wait out genSequentialTimeout
		// together; one that crashes the process fails on the base too,
		// and the cases it left undecided run again.
		left := failed
		// When they do not build there, only the cases that compile
		// there, each as drawn, go on (left): one that calls what the
		// change added cannot be compared, and must not keep the others
		// from it. Once; false when none, or all, compile.
		refitted := false
		refit := func() (bool, error) {
			if refitted {
				return false, nil
			}
			refitted = true
			fit, err := fitOnBase(ctx, w.gen, w.pkg.Name, left, nil, Sequential, file, baseRoot, "./"+filepath.ToSlash(rel), tags, nil, built)
			if err != nil || len(fit.kept) == 0 || len(fit.left) == 0 {
				return false, err
			}
			names := slices.Sorted(maps.Keys(fit.left))
			notes = append(notes, fmt.Sprintf("%s: %d generated test(s) that fail sequentially do not compile on the base commit, so they are not compared there (%s): %s", w.pkg.PkgPath, len(names), strings.Join(names, ", "), fit.left[names[0]]))
			left = slices.DeleteFunc(left, func(c *Case) bool { _, out := fit.left[c.Name]; return out })
			return true, nil
		}
		// Each case in its own process (feedback's) after a crash here,
		// or from the start when one crashed on the head: it takes the
		// others down on the base too (gocron v1.15.0's restart case was
		// never decided there beside seven that panic).
		each := slices.ContainsFunc(failed, func(c *Case) bool { return status[w.pkg.PkgPath+"."+c.Name] == "crash" })
		for round := 0; len(left) > 0 && anotherRound(round, clock().Add(-*built), until); round++ {
			run, rest := left, []*Case(nil)
			if shapes := slices.DeleteFunc(slices.Clone(left), func(c *Case) bool { return !c.Shape }); !each && len(shapes) > 0 {
				run = shapes
				rest = slices.DeleteFunc(slices.Clone(left), func(c *Case) bool { return c.Shape })
			}
			runs := make([]caseRun, len(run))
			for i, c := range run {
				runs[i] = caseRun{Pattern: "./" + filepath.ToSlash(rel), Dir: dir, Name: c.Name, Key: w.pkg.PkgPath + "." + c.Name}
			}
			var (
				st     map[string]string
				outs   map[string][]byte
				stderr string
				err    error
			)
			if each {
				st, outs, err = goEach(ctx, baseRoot, roundTimeout(clock().Add(-*built), until), tags, runs, built)
				if err != nil && ctx.Err() == nil {
					// Their calls do not build on the base (a method the
					// change added), as a round's build output says.
					if ok, err := refit(); err != nil || ok {
						if err != nil {
							os.Remove(file)
							return nil, err
						}
						continue
					}
					notes = append(notes, fmt.Sprintf("%s: %d generated test(s) that fail sequentially did not run on the base commit: %s", w.pkg.PkgPath, len(run), compileLine(err.Error())))
					break
				}
			} else {
				st, outs, stderr, err = goTest(ctx, baseRoot, roundTimeout(clock().Add(-*built), until), 16, tags, caseNames(runs), []string{"./" + filepath.ToSlash(rel)}, built)
			}
			if err != nil {
				os.Remove(file)
				return nil, err
			}
			var next []*Case
			crashed := false
			for _, c := range run {
				key := w.pkg.PkgPath + "." + c.Name
				switch {
				case st[key] == "pass":
					c.OnBase = true
				case st[key] != "":
				case crashOutput(outs[key]):
					crashed = true
				default:
					next = append(next, c)
				}
			}
			if len(st) == 0 && !crashed {
				if ok, err := refit(); err != nil || ok {
					if err != nil {
						os.Remove(file)
						return nil, err
					}
					continue
				}
				notes = append(notes, fmt.Sprintf("%s: %d generated test(s) that fail sequentially did not run on the base commit: %s", w.pkg.PkgPath, len(run), firstLine(strings.TrimSpace(string(outs["build"])+stderr))))
				break
			}
			if crashed || len(next) > 0 {
				each = true // a crash, told by its output or not
			}
			left = append(next, rest...)
		}
		os.Remove(file)
	}
	return notes, nil
}

// compileLine is the first line of a build's error output that names a
// position (x.go:3:7: undefined: y), else its first line.
func compileLine(out string) string {
	for _, l := range strings.Split(out, "\n") {
		if strings.Contains(l, ".go:") {
			return strings.TrimSpace(l)
		}
	}
	return firstLine(out)
}
