package explore

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"

	"github.com/interleave-dev/interleave/checks/dynamic/rt"
)

// ReplayMany replays schedules found in the module at opts.Dir, each once
// in a fresh process, building each package once. Results are in the
// order of scheds; a schedule that could not be replayed has a nil result
// and its error in errs.
func ReplayMany(ctx context.Context, scheds []*rt.Schedule, opts ReplayOptions) (results []*ReplayResult, errs []error) {
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
		results[i], errs[i] = r.run(ctx, s, "")
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
