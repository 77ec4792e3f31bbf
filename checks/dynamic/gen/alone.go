// The sequential check's cases each in its own process, once one crashed: a case that panics in a goroutine of the package takes only itself down.

package gen

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"time"
)

// caseRun is one case of the sequential check to run in a process of its
// own: the package pattern go test -c builds (from the module at the
// directory goTestEach is given), the directory its binary runs in (go
// test's: the package's), and the key feedback keeps its status by.
type caseRun struct {
	Pattern, Dir, Name, Key string
}

// caseNames are the names of runs, for go test's -run.
func caseNames(runs []caseRun) []string {
	names := make([]string, len(runs))
	for i, r := range runs {
		names[i] = r.Name
	}
	return names
}

// goEach is goTestEach; tests replace it.
var goEach = goTestEach

// eachParallel is how many of goTestEach's processes run at once: a
// blocking case waits out genSequentialTimeout asleep, and a wave of them
// holds every slot that long (gocron v1.15.0: 18 of 42 cases block; at 16
// a time the round took two waves, 20 s).
const eachParallel = 32

// goTestEach builds each package of runs once (go test -c, -vet=off, with
// tags; the time added to built) and runs every case alone in a process
// of its binary, eachParallel at a time, with go test's -timeout: its
// status (pass, fail, skip; crash when its process ended without one) and
// output by key. A build that fails is the error.
func goTestEach(ctx context.Context, dir, timeout string, tags []string, runs []caseRun, built *time.Duration) (map[string]string, map[string][]byte, error) {
	tmp, err := os.MkdirTemp("", "interleave-gen-each-")
	if err != nil {
		return nil, nil, err
	}
	defer os.RemoveAll(tmp)
	bins := map[string]string{}
	began := time.Now()
	for _, r := range runs {
		if bins[r.Pattern] != "" {
			continue
		}
		bin := filepath.Join(tmp, fmt.Sprintf("%d.test", len(bins)))
		args := append([]string{"test", "-c", "-vet=off", "-o", bin}, tagFlags(tags)...)
		cmd := exec.CommandContext(ctx, "go", append(args, r.Pattern)...)
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		if ctx.Err() != nil {
			return nil, nil, ctx.Err()
		}
		if err != nil {
			return nil, nil, fmt.Errorf("building the generated tests of %s: %v\n%s", r.Pattern, err, tail(string(out), 20))
		}
		bins[r.Pattern] = bin
	}
	*built += time.Since(began)
	status := map[string]string{}
	output := map[string][]byte{}
	var mu sync.Mutex
	var wg sync.WaitGroup
	sem := make(chan struct{}, eachParallel)
	for _, r := range runs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			st, out := runAlone(ctx, bins[r.Pattern], r, timeout)
			mu.Lock()
			defer mu.Unlock()
			status[r.Key], output[r.Key] = st, out
		}()
	}
	wg.Wait()
	if ctx.Err() != nil {
		return nil, nil, ctx.Err()
	}
	return status, output, nil
}

// runAlone runs case r alone in a process of bin and returns its status
// by its -test.v line (crash without one: a panic in a goroutine, the
// timeout's, an exit) and its output.
func runAlone(ctx context.Context, bin string, r caseRun, timeout string) (string, []byte) {
	cmd := exec.CommandContext(ctx, bin, "-test.v", "-test.count=1", "-test.timeout="+timeout, "-test.run=^"+regexp.QuoteMeta(r.Name)+"$")
	cmd.Dir = r.Dir
	cmd.WaitDelay = testWaitDelay
	out, _ := cmd.CombinedOutput()
	for _, l := range bytes.Split(out, []byte("\n")) {
		s := strings.TrimSpace(string(l))
		for _, st := range []string{"pass", "fail", "skip"} {
			if strings.HasPrefix(s, "--- "+strings.ToUpper(st)+": "+r.Name+" ") {
				return st, out
			}
		}
	}
	return "crash", out
}
