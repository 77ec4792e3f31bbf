// Package e2e runs interleave pr end to end on temporary git repositories,
// through the interleave binary built once for the package. It is a
// package of its own so that go test runs these long tests beside the
// other packages' instead of after cmd/interleave's.
package e2e

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/interleave-dev/interleave/internal/gitrepo"
	"github.com/interleave-dev/interleave/internal/testctx"
)

// prCount is the -count of the pr runs that search: each test's search
// stops after that many schedules per worker, the same ones on any machine
// (with -seed), and the budgets beside it are only a guard a loaded
// machine does not reach.
const prCount = "20"

// genCount is the -count of the pr runs whose candidates generated tests
// confirm (TestPRGenAccessPairs, TestPRGenOwnedCandidate): each
// generated test's search is one process of 6 schedules, not 21. With
// their seeds the same generated tests fail at -count 5, 10 and 20 (each
// candidate confirmed by two to six of them), and each process's CPU is
// mostly its schedules (AccessPairs' 36 searches: 18.9 s at 20, 9.0 s at 5).
const genCount = "5"

// prWorkers is the -workers of the pr runs that search generated tests:
// one worker runs worker 0's schedules of each test, the same on any
// machine (the default, GOMAXPROCS workers, runs more on a larger one).
const prWorkers = "1"

// The exit codes of cmd/interleave (main.go).
const (
	exitOK       = 0
	exitFindings = 1
	exitError    = 2
)

var (
	buildOnce sync.Once
	binDir    string
	bin       string
	binErr    error
)

func TestMain(m *testing.M) {
	code := m.Run()
	if binDir != "" {
		os.RemoveAll(binDir)
	}
	os.Exit(code)
}

// interleave returns the path of the interleave binary, built from ../
// on first use.
func interleave() (string, error) {
	buildOnce.Do(func() {
		if binDir, binErr = os.MkdirTemp("", "interleave-e2e-"); binErr != nil {
			return
		}
		bin = filepath.Join(binDir, "interleave")
		out, err := exec.Command("go", "build", "-o", bin, "..").CombinedOutput()
		if err != nil {
			binErr = fmt.Errorf("go build ./cmd/interleave: %v\n%s", err, out)
		}
	})
	return bin, binErr
}

// cliEnv is where a command runs and what it prints.
type cliEnv struct {
	stdout, stderr *bytes.Buffer
	dir            string
	vars           []string // added to the environment
}

func testEnv(t *testing.T, dir string) (*cliEnv, *bytes.Buffer, *bytes.Buffer) {
	t.Helper()
	abs, err := filepath.Abs(dir)
	if err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	return &cliEnv{stdout: &stdout, stderr: &stderr, dir: abs}, &stdout, &stderr
}

// runMain runs interleave with args in env.dir and returns its exit code
// (-1, with the error on env.stderr, when it did not exit).
func runMain(ctx context.Context, env *cliEnv, args []string) int {
	bin, err := interleave()
	if err != nil {
		fmt.Fprintln(env.stderr, err)
		return -1
	}
	// Files, not pipes: a process the command left behind cannot keep
	// Wait from returning.
	out, err := os.CreateTemp("", "interleave-e2e-out-")
	if err != nil {
		fmt.Fprintln(env.stderr, err)
		return -1
	}
	defer os.Remove(out.Name())
	defer out.Close()
	errf, err := os.CreateTemp("", "interleave-e2e-err-")
	if err != nil {
		fmt.Fprintln(env.stderr, err)
		return -1
	}
	defer os.Remove(errf.Name())
	defer errf.Close()
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir, cmd.Stdout, cmd.Stderr = env.dir, out, errf
	cmd.Env = append(os.Environ(), env.vars...)
	err = cmd.Run()
	for _, f := range []struct {
		file *os.File
		to   *bytes.Buffer
	}{{out, env.stdout}, {errf, env.stderr}} {
		if _, serr := f.file.Seek(0, 0); serr == nil {
			f.to.ReadFrom(f.file)
		}
	}
	var exit *exec.ExitError
	switch {
	case err == nil:
		return exitOK
	case errors.As(err, &exit) && exit.Exited():
		return exit.ExitCode()
	}
	fmt.Fprintf(env.stderr, "interleave %s: %v\n", strings.Join(args, " "), err)
	return -1
}

// postRun runs interleave post in dir with vars in its environment.
func postRun(t *testing.T, dir string, vars map[string]string, args ...string) (int, string, string) {
	t.Helper()
	env, stdout, stderr := testEnv(t, dir)
	for k, v := range vars {
		env.vars = append(env.vars, k+"="+v)
	}
	interleave() // the build does not count against the timeout
	ctx := testctx.New(t)
	code := runMain(ctx, env, append([]string{"post"}, args...))
	return code, stdout.String(), stderr.String()
}

// prRepo is a temporary git repository for the pr command's tests.
type prRepo struct {
	*gitrepo.Repo
	t   *testing.T
	dir string
}

func newPRRepo(t *testing.T) *prRepo {
	t.Helper()
	g := gitrepo.New(t)
	return &prRepo{Repo: g, t: t, dir: g.Dir}
}

func (r *prRepo) git(args ...string) string {
	r.t.Helper()
	return r.Git(args...)
}

func (r *prRepo) commit(files map[string]string) string {
	r.t.Helper()
	return r.Commit(files)
}

func (r *prRepo) runPR(args ...string) (code int, stdout, stderr string) {
	r.t.Helper()
	env, out, errb := testEnv(r.t, r.dir)
	interleave() // the build does not count against the timeout
	ctx := testctx.New(r.t)
	code = runMain(ctx, env, append([]string{"pr"}, args...))
	return code, out.String(), errb.String()
}
