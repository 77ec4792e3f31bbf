// repro's input: the log read, the failure picked, its test and package.

package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/interleave-dev/interleave/checks/dynamic/failurelog"
)

// maxLog bounds the log read: CI logs are large, not this large.
const maxLog = 256 << 20

func readLog(env *cliEnv, path string) (string, error) {
	var r io.Reader = reproStdin
	if path != "-" {
		if !filepath.IsAbs(path) {
			path = filepath.Join(env.dir, path)
		}
		f, err := os.Open(path)
		if err != nil {
			return "", err
		}
		defer f.Close()
		r = f
	}
	b, err := io.ReadAll(io.LimitReader(r, maxLog+1))
	if err != nil {
		return "", err
	}
	if len(b) > maxLog {
		return "", fmt.Errorf("the log is larger than %d MiB; cut it to the failing package's output", maxLog>>20)
	}
	return string(b), nil
}

// reproFailure reads the log and picks the failure to reproduce, its test
// and its package in the module of env.dir, and how many runs a schedule
// makes (told through say); code is the exit code when it cannot, else 0.
func reproFailure(ctx context.Context, env *cliEnv, opts reproOptions, say func(string, ...any)) (f *failurelog.Failure, mod string, runs, code int) {
	text, err := readLog(env, opts.log)
	if err != nil {
		say("reading the log: %v", err)
		return nil, "", 0, exitError
	}
	fails := failurelog.Parse(text)
	if len(fails) == 0 {
		say("no failure in the log: it shows no panic, race report (WARNING: DATA RACE), test timeout (panic: test timed out), fatal error or --- FAIL line with a message")
		return nil, "", 0, exitError
	}
	if opts.failure > len(fails) {
		word := "failures"
		if len(fails) == 1 {
			word = "failure"
		}
		say("-failure %d: the log shows only %d %s", opts.failure, len(fails), word)
		return nil, "", 0, exitError
	}
	f = fails[opts.failure-1]
	if len(fails) > 1 {
		var others []string
		for i, o := range fails {
			others = append(others, fmt.Sprintf("%d. %s %s at line %d", i+1, o.Test, firstLineOf(o.Message), o.Line))
		}
		say("the log shows %d failures; reproducing number %d (choose with -failure):\n  %s", len(fails), opts.failure, strings.Join(others, "\n  "))
	}
	if opts.test != "" {
		f.Test, f.TestFrom = opts.test, "-test"
	}
	if opts.pkg != "" {
		f.Package = opts.pkg
	}
	say("the log shows a %s at line %d: %s", f.Kind, f.Line, firstLineOf(f.Message))
	if f.Test == "" {
		say("the log names no test: no test function in the failure's stacks, no --- FAIL or === RUN line, no -run naming one test; pass -test TestName")
		return nil, "", 0, exitReproNoTest
	}
	pkgFrom := ""
	if f.Package == "" {
		// A log cut to the failure (as pasted in an issue) often has no
		// FAIL line: the package is the one of this module with the test.
		pkgs, err := testPackages(ctx, env.dir, f.Test, opts.tags)
		switch {
		case err != nil:
			say("%v", err)
			return nil, "", 0, exitError
		case len(pkgs) == 0:
			say("the log names no package for %s, and no package of this module has a function %s: pass -pkg import/path, or run repro in the failing module", f.Test, f.Test)
			return nil, "", 0, exitReproNotFound
		case len(pkgs) > 1:
			say("the log names no package for %s, and %d packages of this module have one (%s): pass -pkg import/path", f.Test, len(pkgs), strings.Join(pkgs, ", "))
			return nil, "", 0, exitReproNoTest
		}
		f.Package, pkgFrom = pkgs[0], "; the package is the one of this module with that test, the log names none"
	}
	say("test %s of %s (from %s%s)", f.Test, f.Package, f.TestFrom, pkgFrom)
	if f.Subtest != "" {
		say("the log names its subtest %s; the search runs the whole test", f.Subtest)
	}
	runs = f.Runs
	switch {
	case opts.runs > 0:
		runs = opts.runs
	case runs > 1:
		say("the log's go test ran %s more than once in one process (%s): each schedule runs it %d times in a row, on what the runs before left (-runs 1 runs it once)", f.Test, f.RunsFrom, runs)
	}
	mod, err = modulePath(ctx, env.dir)
	if err != nil {
		say("%v", err)
		return nil, "", 0, exitError
	}
	if f.Package != mod && !strings.HasPrefix(f.Package, mod+"/") {
		say("test %s.%s not found: package %s is not in module %s (run repro in the failing module, or -C dir)", f.Package, f.Test, f.Package, mod)
		return nil, "", 0, exitReproNotFound
	}
	if err := packageExists(ctx, env.dir, f.Package, opts.tags); err != nil {
		say("test %s.%s not found: %v", f.Package, f.Test, err)
		return nil, "", 0, exitReproNotFound
	}
	return f, mod, runs, 0
}

// modulePath returns the path of the main module of dir.
func modulePath(ctx context.Context, dir string) (string, error) {
	cmd := exec.CommandContext(ctx, "go", "list", "-m", "-f", "{{.Path}}")
	cmd.Dir = dir
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("%s is not in a Go module: %s", dir, strings.TrimSpace(stderr.String()))
	}
	paths := strings.Fields(string(out))
	if len(paths) != 1 {
		return "", fmt.Errorf("run repro in one module, not a workspace of %d", len(paths))
	}
	return paths[0], nil
}

// testPackages returns the packages of the module of dir, built with
// tags, whose test files declare the function test.
func testPackages(ctx context.Context, dir, test string, tags []string) ([]string, error) {
	args := []string{"list", "-e", "-f", "{{.ImportPath}}\t{{.Dir}}\t{{join .TestGoFiles \",\"}},{{join .XTestGoFiles \",\"}}"}
	if len(tags) > 0 {
		args = append(args, "-tags="+strings.Join(tags, ","))
	}
	cmd := exec.CommandContext(ctx, "go", append(args, "./...")...)
	cmd.Dir = dir
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("listing the packages of %s: %s", dir, firstLineOf(strings.TrimSpace(stderr.String())))
	}
	decl := regexp.MustCompile(`(?m)^func ` + regexp.QuoteMeta(test) + `\(`)
	var pkgs []string
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		parts := strings.SplitN(line, "\t", 3)
		if len(parts) != 3 {
			continue
		}
		for _, name := range strings.Split(parts[2], ",") {
			if name == "" {
				continue
			}
			b, err := os.ReadFile(filepath.Join(parts[1], name))
			if err == nil && decl.Match(b) {
				pkgs = append(pkgs, parts[0])
				break
			}
		}
	}
	return pkgs, nil
}

// packageExists says whether the module of dir has the package pkg, built
// with tags.
func packageExists(ctx context.Context, dir, pkg string, tags []string) error {
	args := []string{"list", "-f", "{{.Dir}}"}
	if len(tags) > 0 {
		args = append(args, "-tags="+strings.Join(tags, ","))
	}
	cmd := exec.CommandContext(ctx, "go", append(args, pkg)...)
	cmd.Dir = dir
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if _, err := cmd.Output(); err != nil {
		msg := strings.TrimSpace(stderr.String())
		return fmt.Errorf("package %s: %s", pkg, firstLineOf(msg))
	}
	return nil
}
