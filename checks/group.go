package checks

// Occurrence is another failure of the same cause as its finding: a
// different pair of racing accesses, the same deadlock in another test.
// The finding's own schedule is the one that replays; an occurrence's
// schedule file and goroutines' stacks are kept for reading.
type Occurrence struct {
	Test       string      `json:"test,omitempty"`
	Message    string      `json:"message"`
	Pos        Position    `json:"pos"`
	Related    []Related   `json:"related,omitempty"`
	Func       string      `json:"func,omitempty"`
	Snippet    string      `json:"snippet,omitempty"`
	Schedule   string      `json:"schedule,omitempty"`
	Goroutines []Goroutine `json:"goroutines,omitempty"`
}

// OccurrenceOf is f as an occurrence of another finding's cause.
func OccurrenceOf(f *Finding) Occurrence {
	return Occurrence{Test: f.Test, Message: f.Message, Pos: f.Pos, Related: f.Related, Func: f.Func, Snippet: f.Snippet, Schedule: f.Schedule, Goroutines: f.Goroutines}
}

// Members returns f and, for each of its occurrences, a copy of f that
// stands for it (its test, message, positions, schedule and goroutines).
func (f *Finding) Members() []Finding {
	out := []Finding{*f}
	out[0].SameCause = nil
	for _, o := range f.SameCause {
		m := *f
		m.SameCause = nil
		m.Test, m.Message, m.Pos, m.Related, m.Func, m.Snippet, m.Schedule = o.Test, o.Message, o.Pos, o.Related, o.Func, o.Snippet, o.Schedule
		m.Replay, m.ReplayToken, m.Interleaving, m.Goroutines = "", "", nil, o.Goroutines
		out = append(out, m)
	}
	return out
}

// Tests returns the tests of f and its occurrences, each once, f's first.
func (f *Finding) Tests() []string {
	var out []string
	seen := map[string]bool{}
	for _, t := range append([]string{f.Test}, occurrenceTests(f.SameCause)...) {
		if t != "" && !seen[t] {
			seen[t] = true
			out = append(out, t)
		}
	}
	return out
}

func occurrenceTests(os []Occurrence) []string {
	out := make([]string, len(os))
	for i, o := range os {
		out[i] = o.Test
	}
	return out
}
