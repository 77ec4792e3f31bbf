package explore

import (
	"reflect"
	"strings"
	"testing"

	"github.com/interleave-dev/interleave/checks"
	"github.com/interleave-dev/interleave/checks/dynamic/rt"
)

// abba is the schedule of two transfers in opposite directions that
// deadlock: g1 locks from.mu (object 1), g2 preempts it and locks its
// from.mu (object 2), then each waits for the other's.
var abba = []rt.Decision{
	{G: 0, Op: "start"},
	{G: 0, Site: "t_test.go:10", Op: "go"},
	{G: 0, Site: "t_test.go:11", Op: "go"},
	{G: 1, Op: "start"},
	{G: 1, Site: "bank.go:60", Op: "Mutex.Lock", Obj: 1},
	{G: 2, Op: "start"},
	{G: 2, Site: "bank.go:60", Op: "Mutex.Lock", Obj: 2},
}

var abbaStates = []rt.GoroutineState{
	{ID: 0, Op: "WaitGroup.Wait", Site: "/m/t_test.go:12", Obj: 3},
	{ID: 1, Op: "Mutex.Lock", Site: "/m/bank.go:62", Obj: 2},
	{ID: 2, Op: "Mutex.Lock", Site: "/m/bank.go:62", Obj: 1},
}

var bankSource = map[string]string{
	"bank.go:60":   "\tfrom.mu.Lock()",
	"bank.go:62":   "\tto.mu.Lock()",
	"t_test.go:12": "\twg.Wait()",
}

func TestTellDeadlock(t *testing.T) {
	t.Parallel()
	it := tell(abba, abbaStates, checks.Deadlock, func(site string) string { return bankSource[site] })
	if it == nil {
		t.Fatal("nothing told")
	}
	var got []string
	for _, st := range it.Steps {
		got = append(got, st.Sentence(func(s string) string { return "`" + s + "`" }))
	}
	want := []string{
		"g0 starts g1 at t_test.go:10",
		"g0 starts g2 at t_test.go:11",
		"g1 locks `from.mu` (lock A) at bank.go:60",
		"g2 locks `from.mu` (lock B) at bank.go:60, preempting g1",
		"g0 waits on `wg` at t_test.go:12",
		"g1 waits to lock `to.mu` (lock B, held by g2) at bank.go:62",
		"g2 waits to lock `to.mu` (lock A, held by g1) at bank.go:62",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("story:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if it.Preemptions != 1 {
		t.Errorf("preemptions = %d, want 1 (g1 could have taken to.mu)", it.Preemptions)
	}
}

func TestPreemptionsAt(t *testing.T) {
	t.Parallel()
	// g0 blocks in Wait: not a preemption. g2 runs while g1 could take a
	// free lock: a preemption.
	got := preemptionsAt(abba, abbaStates)
	want := []int{-1, -1, -1, -1, -1, 1, -1}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("preemptionsAt = %v, want %v", got, want)
	}
	// Without the end states g1 never runs again: nothing to preempt.
	if n := countPreemptions(abba, nil); n != 0 {
		t.Errorf("countPreemptions without states = %d, want 0", n)
	}
}

func TestRunOn(t *testing.T) {
	t.Parallel()
	ds := []rt.Decision{{G: 1}, {G: 2}, {G: 2}, {G: 1}, {G: 1}, {G: 2}}
	got := runOn(ds, 1, 1)
	want := []rt.Decision{{G: 1}, {G: 1}, {G: 1}, {G: 2}, {G: 2}, {G: 2}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("runOn = %v, want %v", got, want)
	}
	if runOn(ds[:3], 1, 1) != nil {
		t.Error("runOn of a goroutine that never runs again should be nil")
	}
}

func TestOperand(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ src, op, want string }{
		{"\tdefer b.accounts[id].mu.Unlock()", "Mutex.Unlock", "b.accounts[id].mu"},
		{"\tl.mu.RLock()", "RWMutex.RLock", "l.mu"},
		{"\tresults <- r", "chan send", "results"},
		{"\tcase v := <-done:", "chan receive", "done"},
		{"\tclose(s.quit)", "close", "s.quit"},
		{"\tdefer wg.Done()", "WaitGroup.Add", "wg"},
		{"}", "Mutex.Unlock", ""},
	} {
		if got := operand(c.src, c.op); got != c.want {
			t.Errorf("operand(%q, %s) = %q, want %q", c.src, c.op, got, c.want)
		}
	}
}

func TestToken(t *testing.T) {
	t.Parallel()
	s := &rt.Schedule{Version: rt.ScheduleVersionTick, Package: "example.com/bank", Dir: ".", Test: "TestX", Seed: 7, Decisions: abba, Original: abba,
		Failure: &rt.Signature{Kind: "deadlock", Site: "bank.go:62"}, NowTick: rt.NowTick}
	tok, err := EncodeToken(s)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Trim(tok, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.") != "" {
		t.Errorf("token %q is not shell-safe", tok)
	}
	got, err := DecodeToken(" " + tok + "\n")
	if err != nil {
		t.Fatal(err)
	}
	want := *s
	want.Original = nil // the token carries what replays
	if !reflect.DeepEqual(got, &want) {
		t.Errorf("round trip:\n%+v\nwant\n%+v", got, &want)
	}
	// A token of an older version replays with the nanosecond per clock
	// read it was recorded with.
	old := *s
	old.Version, old.NowTick = rt.ScheduleVersion, 0
	oldTok, err := EncodeToken(&old)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := DecodeToken(oldTok); err != nil {
		t.Errorf("a version 1 token: %v", err)
	} else if got.NowTick != rt.LegacyNowTick {
		t.Errorf("a version 1 token: nowTick %v, want %v", got.NowTick, rt.LegacyNowTick)
	}
	for _, bad := range []string{"", "s2.abc", "s1.***", tok[:len(tok)/2]} {
		if _, err := DecodeToken(bad); err == nil {
			t.Errorf("DecodeToken(%q) succeeded", bad)
		}
	}
}

// A preempting step tells the callers of its site (rt.Decision.Path), also
// when the story folds a goroutine's start into it; a step that preempts
// nobody does not.
func TestTellCallers(t *testing.T) {
	t.Parallel()
	ds := append([]rt.Decision(nil), abba...)
	ds[4].Path = "bank.go:80"           // g1's lock: a switch, no preemption
	ds[6].Path = "bank.go:81 main.go:9" // g2's lock after its start, preempting g1
	it := tell(ds, abbaStates, checks.Deadlock, func(site string) string { return bankSource[site] })
	var got []string
	for _, st := range it.Steps {
		if st.Callers != "" {
			got = append(got, st.G+" "+st.Site+" < "+st.Callers)
		}
	}
	if want := []string{"g2 bank.go:60 < bank.go:81 main.go:9"}; !reflect.DeepEqual(got, want) {
		t.Errorf("steps with callers %q, want %q", got, want)
	}
}

// TestTellJoin: a goroutine started outside control (a handler's go
// statement, on net/http's goroutine) joins the schedule; the story says
// where, and the join preempts nobody.
func TestTellJoin(t *testing.T) {
	t.Parallel()
	ds := []rt.Decision{
		{G: 0, Op: "start"},
		{G: 1, Site: "h_test.go:33", Op: "join"},
		{G: 0, Site: "h_test.go:25", Op: "Mutex.Lock", Obj: 1},
		{G: 0, Site: "h_test.go:28", Op: "Mutex.Unlock", Obj: 1},
		{G: 1, Op: "start"},
		{G: 1, Site: "h_test.go:19", Op: "Mutex.Lock", Obj: 1},
		{G: 1, Site: "h_test.go:21", Op: "Mutex.Unlock", Obj: 1},
	}
	src := map[string]string{"h_test.go:25": "\ta.mu.Lock()", "h_test.go:28": "\ta.mu.Unlock()", "h_test.go:19": "\ta.mu.Lock()", "h_test.go:21": "\ta.mu.Unlock()"}
	it := tell(ds, nil, checks.TestFailure, func(site string) string { return src[site] })
	if it == nil {
		t.Fatal("nothing told")
	}
	var got []string
	for _, st := range it.Steps {
		got = append(got, st.Sentence(func(s string) string { return "`" + s + "`" }))
	}
	want := []string{
		"g1 is started outside control and joins at h_test.go:33",
		"g0 locks `a.mu` at h_test.go:25",
		"g0 unlocks `a.mu` at h_test.go:28",
		"g1 locks `a.mu` at h_test.go:19",
		"g1 unlocks `a.mu` at h_test.go:21",
	}
	if !reflect.DeepEqual(got, want) || it.Preemptions != 0 {
		t.Errorf("story (%d preemptions):\n%s\nwant (0):\n%s", it.Preemptions, strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestTellChoice: a failure with no preemption, decided by a select that
// sent (case 2) while ctx.Done() (case 1) was ready too (httprc's tests of
// a canceled context), is told by that choice, with its callers outside
// test files; a select that took its first ready case is not a step.
func TestTellChoice(t *testing.T) {
	t.Parallel()
	one, zero, first := 1, 0, 0
	ds := []rt.Decision{
		{G: 0, Op: "start"},
		{G: 0, Site: "c_test.go:5", Op: "go"},
		{G: 0, Site: "ctrl.go:84", Op: "select", Choice: &one, First: &first, Path: "ctrl.go:112"},
		{G: 1, Op: "start"},
		{G: 1, Site: "backend.go:30", Op: "select", Choice: &zero},
		{G: 0, Site: "ctrl.go:89", Op: "select", Choice: &one},
	}
	it := tell(ds, nil, checks.TestFailure, func(string) string { return "" })
	if it == nil {
		t.Fatal("nothing told")
	}
	var got []string
	for _, st := range it.Steps {
		got = append(got, st.Sentence(func(s string) string { return s }))
	}
	want := []string{"g0 selects case 2 (case 1 was ready too) at ctrl.go:84"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("story:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if it.Preemptions != 0 || it.Chosen != 1 || !it.Steps[0].Chose || it.Steps[0].Callers != "ctrl.go:112" {
		t.Errorf("preemptions %d, chosen %d, step %+v; want 0, 1 and the choice with its callers", it.Preemptions, it.Chosen, it.Steps[0])
	}
	if w := window(it); w != "ctrl.go:84" {
		t.Errorf("window %q, want the choice's site (its callers are not its window)", w)
	}
}
