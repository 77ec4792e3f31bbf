// What the user is told besides findings: notes, stages and progress.

package explore

import (
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/interleave-dev/interleave/checks"
)

func (s *search) note(n string) {
	s.mu.Lock()
	s.notes = append(s.notes, n)
	s.mu.Unlock()
}

// noteOnce adds a note unless one with the same key was added: every
// worker of a test tends to meet the same trouble.
func (s *search) noteOnce(key, n string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.noted == nil {
		s.noted = map[string]bool{}
	}
	if s.noted[key] {
		return
	}
	s.noted[key] = true
	s.notes = append(s.notes, n)
}

// noteStopped says in one note how many schedules were stopped unfinished
// when their test's share of the budget ran out, and of which tests.
func (s *search) noteStopped(targets []*target) {
	n := 0
	var names []string
	for _, t := range targets {
		if t.stats.Stopped > 0 {
			n += t.stats.Stopped
			names = append(names, t.name)
		}
	}
	if n == 0 {
		return
	}
	if len(names) > maxUncontrolled {
		names = append(names[:maxUncontrolled:maxUncontrolled], fmt.Sprintf("%d more", len(names)-maxUncontrolled))
	}
	s.note(fmt.Sprintf("%d %s stopped unfinished when the share of the budget of %s ran out: inconclusive (each test ran its unperturbed schedule to its end)",
		n, checks.Plural(n, "schedule"), strings.Join(names, ", ")))
}

// maxUncontrolled bounds the constructs a note lists per package.
const maxUncontrolled = 10

// noteUncontrolled adds one note per searched package listing what the
// rewriter left as written (the scheduler does not see those operations).
func (s *search) noteUncontrolled(targets []*target) {
	byDir := map[string][]string{}
	for _, w := range s.inst.Warnings {
		file := w
		if i := strings.Index(w, ".go:"); i >= 0 {
			file = w[:i+3]
		}
		dir := filepath.Dir(file)
		msg := w
		if rel, err := filepath.Rel(s.inst.ModuleRoot, w); err == nil && !strings.HasPrefix(rel, "..") {
			msg = filepath.ToSlash(rel)
		}
		byDir[dir] = append(byDir[dir], msg)
	}
	seen := map[string]bool{}
	for _, t := range targets {
		if seen[t.pkg.ImportPath] {
			continue
		}
		seen[t.pkg.ImportPath] = true
		ws := byDir[filepath.Clean(t.pkg.Dir)]
		if len(ws) == 0 {
			continue
		}
		shown := ws
		if len(shown) > maxUncontrolled {
			shown = append(append([]string(nil), ws[:maxUncontrolled]...), fmt.Sprintf("and %d more", len(ws)-maxUncontrolled))
		}
		s.note(fmt.Sprintf("%s: %d %s left uncontrolled (the scheduler does not see them):\n  %s",
			t.pkg.ImportPath, len(ws), checks.Plural(len(ws), "operation"), strings.Join(shown, "\n  ")))
	}
}

func tailLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// stage tells Options.Stage that a stage starts and returns the function
// that tells it ended.
func (s *search) stage(name string) (end func(detail string)) {
	return stageOf(s.opts.Stage, name)
}

// stageOf tells fn (if set) that the stage name starts, and returns the
// function that tells it the stage ended.
func stageOf(fn func(StageEvent), name string) (end func(detail string)) {
	if fn == nil {
		return func(string) {}
	}
	fn(StageEvent{Name: name})
	start := time.Now()
	return func(detail string) {
		fn(StageEvent{Name: name, Done: true, Took: time.Since(start), Detail: detail})
	}
}

func (s *search) startProgress() (stop func()) {
	if s.opts.Progress == nil {
		return func() {}
	}
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		t := time.NewTicker(500 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				s.progress()
			}
		}
	}()
	return func() { close(done); <-finished }
}

func (s *search) progress() {
	if s.opts.Progress == nil {
		return
	}
	s.mu.Lock()
	st := s.snapshot()
	s.mu.Unlock()
	s.opts.Progress(st)
}

// snapshot copies the stats; s.mu must be held.
func (s *search) snapshot() Stats {
	st := s.stats
	if !s.start.IsZero() {
		st.Elapsed = time.Since(s.start)
		if sec := st.Elapsed.Seconds(); sec > 0 {
			st.PerSecond = float64(st.Schedules) / sec
		}
	}
	st.Tests = append([]TestStats(nil), s.stats.Tests...)
	for i := range st.Tests {
		if ts := &st.Tests[i]; ts.Elapsed > 0 {
			ts.PerSecond = float64(ts.Schedules) / ts.Elapsed.Seconds()
		}
	}
	return st
}
