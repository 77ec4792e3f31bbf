package prjob

import (
	"fmt"
	"os"

	"github.com/interleave-dev/interleave/checks"
	"github.com/interleave-dev/interleave/checks/dynamic/explore"
	"github.com/interleave-dev/interleave/report"
)

// MergeShards reads the JSON reports of sharded runs (absolute file names)
// and combines them into one report: one finding per fingerprint, the one
// with the strongest evidence. n is the number of findings before dedupe.
func MergeShards(names []string, root, toolVersion string) (rep *report.Report, n int, err error) {
	var all, pre, unc []checks.Finding
	var tests []report.TestRun
	var notes []string
	for _, name := range names {
		sh, err := readShard(name)
		if err != nil {
			return nil, 0, err
		}
		all = append(all, sh.findings...)
		pre = append(pre, sh.preExisting...)
		unc = append(unc, sh.uncompared...)
		tests = append(tests, sh.tests...)
		notes = append(notes, sh.notes...)
	}
	// One finding per cause across shards too (explore.Group).
	rep = &report.Report{Findings: dedupe(explore.Group(all)), Root: root, ToolVersion: toolVersion,
		PreExisting: dedupe(explore.Group(pre)), Uncompared: dedupe(explore.Group(unc)), Tests: tests, Notes: notes}
	return rep, len(all), nil
}

// shard is what one shard reported.
type shard struct {
	findings, preExisting, uncompared []checks.Finding
	tests                             []report.TestRun
	notes                             []string
}

// readShard reads the JSON report a shard wrote.
func readShard(name string) (*shard, error) {
	b, err := os.ReadFile(name)
	if err != nil {
		return nil, fmt.Errorf("read shard report: %w", err)
	}
	r, err := report.DecodeJSON(b)
	if err != nil {
		return nil, fmt.Errorf("shard report %s is %w", name, err)
	}
	list := func(fs []report.JSONFinding) []checks.Finding {
		out := make([]checks.Finding, len(fs))
		for i, f := range fs {
			out[i] = f.Finding
		}
		return out
	}
	return &shard{findings: list(r.Findings), preExisting: list(r.PreExisting), uncompared: list(r.Uncompared), tests: r.Tests, notes: r.Notes}, nil
}

// evidenceRank orders evidence for dedupe: a confirmed finding replaces its
// static twin (they share a fingerprint).
func evidenceRank(e checks.Evidence) int {
	switch e {
	case checks.Confirmed:
		return 2
	case checks.Dynamic:
		return 1
	}
	return 0
}

// dedupe keeps one finding per fingerprint, the one with the
// strongest evidence (the first of equals), and sorts them.
func dedupe(fs []checks.Finding) []checks.Finding {
	idx := map[string]int{}
	var out []checks.Finding
	for _, f := range fs {
		fp := f.Fingerprint()
		if i, ok := idx[fp]; ok {
			if evidenceRank(f.Evidence) > evidenceRank(out[i].Evidence) {
				out[i] = f
			}
			continue
		}
		idx[fp] = len(out)
		out = append(out, f)
	}
	checks.Sort(out)
	return out
}
