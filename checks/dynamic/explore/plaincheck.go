package explore

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/interleave-dev/interleave/checks"
	"github.com/interleave-dev/interleave/checks/dynamic/rewrite"
)

// PlainOptions says where PlainCheck runs the tests.
type PlainOptions struct {
	Dir  string   // a directory inside the module of the findings' packages
	Race bool     // -race, as the search that found them
	Tags []string // build tags, as the search that found them
	// Timeout bounds one run of a test (default 10s): a hang is seen
	// hanging that long.
	Timeout time.Duration
}

// PlainCheck runs the test of each dynamic finding under plain go test, as
// the search does after it (the package as it is, -run of the test, up to
// 3 times, until a run fails the way the finding does), and returns what
// it did: the finding's PlainGo label. The pull request job checks so the
// findings no base commit can confirm whose search did not.
func PlainCheck(ctx context.Context, fs []checks.Finding, opts PlainOptions) ([]*checks.PlainGo, error) {
	if opts.Timeout <= 0 {
		opts.Timeout = 10 * time.Second
	}
	work, err := os.MkdirTemp("", "interleave-plain-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(work)
	root, err := goList(ctx, opts.Dir, "-m", "-f", "{{.Dir}}")
	if err != nil {
		return nil, err
	}
	s := &search{opts: Options{Race: opts.Race, Tags: opts.Tags}, inst: &rewrite.Result{ModuleRoot: root}, workDir: work}
	out := make([]*checks.PlainGo, len(fs))
	targets := map[string]*target{}
	byTarget := map[*target][]int{}
	var order []*target
	for i, f := range fs {
		if f.Package == "" || f.Test == "" {
			out[i] = &checks.PlainGo{NotRun: "the finding names no test"}
			continue
		}
		key := f.Package + "." + f.Test
		t, ok := targets[key]
		if !ok {
			pkg, err := plainPackage(ctx, root, f.Package, opts.Race, opts.Tags)
			if err != nil {
				out[i] = &checks.PlainGo{NotRun: firstLine(err.Error())}
				continue
			}
			t = &target{pkg: pkg, name: f.Test}
			targets[key] = t
			order = append(order, t)
		}
		byTarget[t] = append(byTarget[t], i)
	}
	for _, t := range order {
		var fails []*failure
		for _, i := range byTarget[t] {
			fails = append(fails, failureOf(fs[i]))
		}
		o := &plainOutcome{}
		if pb := s.plainBin(ctx, t.pkg); pb.err != nil {
			o.err = pb.err
		} else {
			n := plainRuns
			for _, f := range fails {
				if f.kind == checks.Deadlock || f.isHang() || f.isLivelock() {
					n = 1
				}
			}
			o = s.runPlain(ctx, t, pb.bin, n, opts.Timeout, func(r plainRun) bool {
				for _, f := range fails {
					if r.exitCode == 0 || !sameAsPlain(f, r, t.pkg.Dir) {
						return false
					}
				}
				return true
			})
		}
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		for j, i := range byTarget[t] {
			out[i] = o.label(fails[j], t.pkg.Dir)
		}
	}
	return out, nil
}

// goList runs go list in dir and returns its one line of output.
// plainPackage is the package of importPath with the test files the
// build includes (-race sets the race tag; GOFLAGS comes from the
// environment), as the plain wrapper needs them.
func plainPackage(ctx context.Context, root, importPath string, race bool, tags []string) (rewrite.Package, error) {
	args := []string{"-f", `{{.Dir}}{{range .TestGoFiles}}{{"\n"}}{{.}}{{end}}{{range .XTestGoFiles}}{{"\n"}}{{.}}{{end}}`}
	args = append(args, buildFlags(race, tags)...)
	out, err := goList(ctx, root, append(args, importPath)...)
	if err != nil {
		return rewrite.Package{}, err
	}
	lines := strings.Split(out, "\n")
	p := rewrite.Package{ImportPath: importPath, Dir: lines[0]}
	for _, name := range lines[1:] {
		p.TestFiles = append(p.TestFiles, filepath.Join(p.Dir, name))
	}
	sort.Strings(p.TestFiles)
	return p, nil
}

func goList(ctx context.Context, dir string, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, "go", append([]string{"list"}, args...)...)
	cmd.Dir = dir
	b, err := cmd.Output()
	if err != nil {
		msg := err.Error()
		if ee, ok := err.(*exec.ExitError); ok && len(ee.Stderr) > 0 {
			msg = strings.TrimSpace(string(ee.Stderr))
		}
		return "", fmt.Errorf("go list %s: %s", strings.Join(args, " "), msg)
	}
	return strings.TrimSpace(string(b)), nil
}
