package explore

import (
	"bytes"
	"cmp"
	"compress/zlib"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/interleave-dev/interleave/checks/dynamic/rt"
)

// WriteSchedule writes a schedule file atomically, creating its directory.
func WriteSchedule(path string, s *rt.Schedule) error {
	b, err := json.MarshalIndent(withoutPaths(s), "", "  ")
	if err != nil {
		return err
	}
	b = append(b, '\n')
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("write schedule: %w", err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".schedule-*")
	if err != nil {
		return fmt.Errorf("write schedule: %w", err)
	}
	if _, err := tmp.Write(b); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return fmt.Errorf("write schedule %s: %w", path, err)
	}
	if err := tmp.Close(); err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("write schedule %s: %w", path, err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("write schedule %s: %w", path, err)
	}
	return nil
}

// ReadSchedule reads and checks a schedule file.
func ReadSchedule(path string) (*rt.Schedule, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return parseSchedule(b, path)
}

// parseSchedule decodes and checks a schedule; what names it in errors.
func parseSchedule(b []byte, what string) (*rt.Schedule, error) {
	var s rt.Schedule
	if err := json.Unmarshal(b, &s); err != nil {
		return nil, fmt.Errorf("%s is not a schedule: %w", what, err)
	}
	switch {
	case s.Version == 0:
		return nil, fmt.Errorf("%s is not a schedule: no version", what)
	case s.Version > rt.ScheduleVersionNowOutside:
		return nil, fmt.Errorf("%s has schedule version %d; this interleave reads versions up to %d", what, s.Version, rt.ScheduleVersionNowOutside)
	case s.Package == "" || s.Test == "":
		return nil, fmt.Errorf("%s is not a schedule: package or test missing", what)
	case s.NowTick < 0 || s.Version >= rt.ScheduleVersionTick && s.NowTick == 0:
		return nil, fmt.Errorf("%s is not a schedule: version %d without a positive nowTick", what, s.Version)
	case s.NowTick == 0:
		// Recorded when a read moved the clock by a nanosecond: its
		// replay reads the times it read.
		s.NowTick = rt.LegacyNowTick
	}
	if s.Run != "" {
		if _, err := rt.ParseRun(s.Run); err != nil {
			return nil, fmt.Errorf("%s is not a schedule: bad run pattern: %w", what, err)
		}
	}
	if s.Skip != "" {
		if _, err := rt.ParseRun(s.Skip); err != nil {
			return nil, fmt.Errorf("%s is not a schedule: bad skip pattern: %w", what, err)
		}
	}
	for i, p := range s.Prior {
		if p.BySeed() && s.PriorStrategy == "" {
			return nil, fmt.Errorf("%s is not a schedule: earlier run %d is carried by its seed, but the schedule names no strategy to run it", what, i+1)
		}
	}
	for _, f := range s.Files {
		if !validFileName(f.Name) {
			return nil, fmt.Errorf("%s is not a schedule: it carries a file named %q, not a test file name", what, f.Name)
		}
	}
	return &s, nil
}

// validFileName says whether a file a schedule carries may be added to
// a package: a plain _test.go base name.
func validFileName(name string) bool {
	return strings.HasSuffix(name, "_test.go") && len(name) > len("_test.go") &&
		!strings.ContainsAny(name, `/\`) && !strings.HasPrefix(name, ".") && !strings.HasPrefix(name, "_")
}

// tokenPrefix starts every schedule token; it versions the encoding.
const tokenPrefix = "s1."

// maxTokenBytes bounds a token that DecodeToken accepts.
const maxTokenBytes = 1 << 20

// EncodeToken packs a schedule into a token for `interleave replay -s`:
// its compact JSON (without the original, unshrunk decisions), zlib
// compressed, base64url. The token carries everything a replay needs, so a
// review comment's command replays on any clone of the code.
func EncodeToken(s *rt.Schedule) (string, error) {
	c := *withoutPaths(s)
	c.Original = nil
	js, err := json.Marshal(&c)
	if err != nil {
		return "", err
	}
	if len(js) > maxTokenBytes {
		return "", fmt.Errorf("schedule too large for a token (%d bytes of JSON, at most %d)", len(js), maxTokenBytes)
	}
	var buf bytes.Buffer
	zw, err := zlib.NewWriterLevel(&buf, zlib.BestCompression)
	if err != nil {
		return "", err
	}
	zw.Write(js)
	if err := zw.Close(); err != nil {
		return "", err
	}
	return tokenPrefix + base64.RawURLEncoding.EncodeToString(buf.Bytes()), nil
}

// DecodeToken reverses EncodeToken and checks the schedule.
func DecodeToken(tok string) (*rt.Schedule, error) {
	tok = strings.TrimSpace(tok)
	body, ok := strings.CutPrefix(tok, tokenPrefix)
	if !ok {
		return nil, fmt.Errorf("not a schedule token: it should start with %q", tokenPrefix)
	}
	raw, err := base64.RawURLEncoding.DecodeString(body)
	if err != nil {
		return nil, fmt.Errorf("not a schedule token (cut short when copied?): %w", err)
	}
	zr, err := zlib.NewReader(bytes.NewReader(raw))
	if err != nil {
		return nil, fmt.Errorf("not a schedule token: %w", err)
	}
	js, err := io.ReadAll(io.LimitReader(zr, maxTokenBytes+1))
	if err != nil {
		return nil, fmt.Errorf("not a schedule token (cut short when copied?): %w", err)
	}
	if len(js) > maxTokenBytes {
		return nil, fmt.Errorf("schedule token too large")
	}
	return parseSchedule(js, "the token")
}

// withoutPaths is s without its decisions' call paths (rt.Decision.Path:
// the story's, which a replay does not read), a copy when it had any.
func withoutPaths(s *rt.Schedule) *rt.Schedule {
	strip := func(ds []rt.Decision) []rt.Decision {
		for i := range ds {
			if ds[i].Path != "" {
				out := append([]rt.Decision(nil), ds...)
				for j := range out {
					out[j].Path = ""
				}
				return out
			}
		}
		return ds
	}
	c := *s
	c.Decisions, c.Original = strip(s.Decisions), strip(s.Original)
	if solo(c.Decisions) || solo(c.Original) || slices.ContainsFunc(c.Prior, func(p rt.Prior) bool { return solo(p.Decisions) }) {
		c.Version = max(c.Version, rt.ScheduleVersionSolo)
	}
	if c.Stretch {
		c.Version = max(c.Version, rt.ScheduleVersionStretch)
	}
	if soloRun(c.Decisions) || soloRun(c.Original) || slices.ContainsFunc(c.Prior, func(p rt.Prior) bool { return soloRun(p.Decisions) }) {
		c.Version = max(c.Version, rt.ScheduleVersionSoloRun)
	}
	if c.BubbleEnd {
		c.Version = max(c.Version, rt.ScheduleVersionBubbleEnd)
	}
	if nowOutside(c.Decisions) || nowOutside(c.Original) || slices.ContainsFunc(c.Prior, func(p rt.Prior) bool { return nowOutside(p.Decisions) }) {
		c.Version = max(c.Version, rt.ScheduleVersionNowOutside)
	}
	return &c
}

// nowOutside reports whether a read of the clock in ds was a scheduling
// point as its goroutine was back from outside control.
func nowOutside(ds []rt.Decision) bool {
	return slices.ContainsFunc(ds, func(d rt.Decision) bool { return d.NowOutside })
}

// soloRun reports whether a target cut a solo run of ds short.
func soloRun(ds []rt.Decision) bool {
	return slices.ContainsFunc(ds, func(d rt.Decision) bool { return d.SoloRun > 0 })
}

// solo reports whether a decision of ds let its goroutine run solo.
func solo(ds []rt.Decision) bool {
	return slices.ContainsFunc(ds, func(d rt.Decision) bool { return d.Solo })
}

// maxPriorBytes bounds the JSON of a schedule whose earlier runs all
// carry their decisions: past it, fitPriors carries some by their seed.
// Half of what a token may hold, for the rest of the schedule.
const maxPriorBytes = maxTokenBytes / 2

// fitPriors carries the oldest of sched's earlier runs by their seed
// (rt.Prior.Digest) instead of their decisions while the schedule's
// JSON is over maxPriorBytes: a process that ran thousands of schedules
// before the failure gives a token DecodeToken would refuse. Only a run
// the strategy decided alone can be: one whose decisions the clock or
// the outside world set (Clock, Paced, Early) keeps them. f's process
// ran the strategy the replay then runs.
func (s *search) fitPriors(sched *rt.Schedule, f *failure) {
	if len(sched.Prior) == 0 || scheduleBytes(sched) <= maxPriorBytes {
		return
	}
	sched.Prior = append([]rt.Prior(nil), sched.Prior...)
	size := scheduleBytes(sched)
	for i := range sched.Prior {
		if size <= maxPriorBytes {
			break
		}
		p := &sched.Prior[i]
		if p.BySeed() || !strategyAlone(p.Decisions) {
			continue
		}
		before := priorBytes(p)
		p.Digest, p.Steps, p.Decisions = rt.DecisionDigest(p.Decisions), len(p.Decisions), nil
		size += priorBytes(p) - before
		sched.PriorStrategy = cmp.Or(f.strategy, s.opts.Strategy)
		sched.PriorTargets = s.opts.Targets
		sched.Version = max(sched.Version, rt.ScheduleVersionSeeded)
	}
}

// strategyAlone says whether a run's decisions are all its strategy's:
// none carries a clock that real time moved, a pacing, an early jump or a
// clock read back from outside control.
func strategyAlone(ds []rt.Decision) bool {
	for _, d := range ds {
		if d.Clock != 0 || d.Paced != 0 || d.Early || d.NowOutside {
			return false
		}
	}
	return true
}

// scheduleBytes is the size of sched's JSON as a token carries it.
func scheduleBytes(sched *rt.Schedule) int {
	c := *withoutPaths(sched)
	c.Original = nil
	js, _ := json.Marshal(&c)
	return len(js)
}

// priorBytes is the size of p's JSON as a token carries it.
func priorBytes(p *rt.Prior) int {
	c := *p
	c.Decisions = withoutPaths(&rt.Schedule{Decisions: p.Decisions}).Decisions
	js, _ := json.Marshal(&c)
	return len(js)
}
