package explore

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/interleave-dev/interleave/checks/dynamic/rt"
)

// ReplayMany replays schedules found in the module at opts.Dir, each once
// in a fresh process, building each package once. Results are in the
// order of scheds; a schedule that could not be replayed has a nil result
// and its error in errs.
func ReplayMany(ctx context.Context, scheds []*rt.Schedule, opts ReplayOptions) (results []*ReplayResult, errs []error) {
	return ReplayWithin(ctx, scheds, opts, nil, nil)
}

// ErrNoTime is the error of a replay that did not run: no time was left
// in the budget for it.
var ErrNoTime = errors.New("no time was left in the budget to replay it")

// ReplayWithin is ReplayMany within plan (nil: no bound): before each
// replay, its build done, plan says whether it fits, given the cost of
// its test (cost, when set); one that does not fit does not run, and its
// error is ErrNoTime.
func ReplayWithin(ctx context.Context, scheds []*rt.Schedule, opts ReplayOptions, plan *ReplayPlan, cost func(i int) time.Duration) (results []*ReplayResult, errs []error) {
	results = make([]*ReplayResult, len(scheds))
	errs = make([]error, len(scheds))
	type key struct {
		pkg   string
		race  bool
		tags  string
		files string // the files the schedule carries
	}
	reps := map[key]*replayer{}
	failed := map[key]error{}
	defer func() {
		for _, r := range reps {
			r.close()
		}
	}()
	for i, s := range scheds {
		k := key{s.Package, s.Race, strings.Join(s.Tags, ","), filesKey(s.Files)}
		if err := failed[k]; err != nil {
			errs[i] = err
			continue
		}
		r := reps[k]
		if r == nil {
			var err error
			if r, err = newReplayer(ctx, s, "", opts); err != nil {
				failed[k], errs[i] = err, err
				continue
			}
			reps[k] = r
		}
		var c time.Duration
		if cost != nil {
			c = cost(i)
		}
		if !plan.Fits(c) {
			errs[i] = ErrNoTime
			continue
		}
		results[i], errs[i] = r.run(ctx, s, "")
		plan.Done()
	}
	return results, errs
}

// filesKey identifies a set of carried files.
func filesKey(files []rt.SourceFile) string {
	h := sha256.New()
	for _, f := range files {
		fmt.Fprintf(h, "%d:%s%d:%s", len(f.Name), f.Name, len(f.Source), f.Source)
	}
	return hex.EncodeToString(h.Sum(nil))
}
