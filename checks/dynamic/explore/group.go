package explore

import (
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/interleave-dev/interleave/checks"
	"github.com/interleave-dev/interleave/checks/dynamic/rt"
)

// One cause, one finding. The dedupe key (failure.key) keeps one schedule
// per signature of one test; several signatures can still share a cause: a
// write under a read lock races with every reader of the fields it writes,
// each pair a race report of its own, and two tests calling the same code
// fail the same way. Dynamic findings are grouped by cause:
//
//   - the same failure (fingerprint: rule, function, source line) in
//     several tests;
//   - data races that share a function that writes (the unsynchronized
//     write is the bug every pair of the group goes through);
//   - data races between the same pair of functions, closures folded into
//     the functions they are in, whatever variables they touch (funcPair;
//     in test files only, within one test or subtest);
//   - data races of a lazy initialization and of what it makes: when a
//     race reads and writes in one function F outside test files (a
//     look-up, then the insert, without a lock), every race whose
//     writing goroutine was inside a call of F is F's too: what F made
//     (a histogram) was handed out through F's racy map, so its
//     creation races with its use by the goroutine that took it;
//   - data races reached through another race's pair of functions: when
//     a race writes in function W and reads (or writes) in another
//     function R, every race whose writing goroutine is inside W and whose
//     other goroutine is inside R is W's and R's too, whatever lines and
//     variables it touches: a constructor that starts the goroutine
//     reading its fields and only then assigns them races on the field
//     and, through it, on everything the callee building the value wrote
//     (racePairs);
//   - a panic "send on closed channel" and the data race of a send at
//     its line with a close: one send not ordered after the close, seen
//     by the race detector (sent before) or the runtime (sent after);
//   - deadlocks and leaks whose goroutines are stuck at the same set of
//     sites outside test files; leaks of goroutines still running whose
//     goroutines the same functions started, whatever line or callee
//     each was caught in (runningLoops, as SameFailure);
//   - test failures of one package with one message (its places aside)
//     on their unperturbed schedules, not after earlier runs of their
//     process: they fail so in the program's own order, most often in
//     their set-up (setupMessage);
//   - test failures (a test's own check, a generated test's "not
//     linearizable") whose shrunk interleavings preempt at the same set of
//     sites outside test files, each reached through the same callers
//     outside test files: the same window of the code, checked by two
//     tests (a helper two methods call is two windows). The search's
//     schedules seldom tell one: Run groups again once they are shrunk
//     (regroup).
//
// A group is one finding, its representative's, with the others in
// Finding.SameCause. The representative is the member whose own line the
// most members share (for races, the write they all go through), then the
// one whose pair of functions the most members reach (racePairs), then the
// first by position and test; its schedule is the one that replays.

// causeKeys returns the keys that tie a dynamic finding to others of its
// cause: findings sharing a key are one cause.
func causeKeys(f *checks.Finding, lazy, pairs map[string]bool) []string {
	prefix := f.Baseline + "|"
	keys := []string{prefix + "fp|" + f.Fingerprint()}
	switch f.Kind {
	case checks.Panic:
		if strings.Contains(f.Message, closedSendPanic) {
			for _, g := range f.Goroutines {
				if g.State == "panic" {
					keys = append(keys, prefix+"closedsend|"+g.Site)
				}
			}
		}
	case checks.DataRace:
		if site, ok := sendRacingClose(f); ok {
			keys = append(keys, prefix+"closedsend|"+site)
		}
		for _, g := range f.Goroutines {
			if !strings.Contains(g.State, "write") {
				continue
			}
			keys = append(keys, prefix+"write|"+siteFunc(g))
			for _, fr := range g.Stack {
				if fn := checks.OwnFunc(fr.Func); lazy[fn] {
					keys = append(keys, prefix+"lazy|"+fn)
				}
			}
		}
		for _, p := range reachedPairs(f, pairs) {
			keys = append(keys, prefix+"pair|"+p)
		}
		if k, ok := funcPair(f); ok {
			keys = append(keys, prefix+"funcs|"+k)
		}
	case checks.Deadlock, checks.Leak:
		keys = append(keys, stuckKeys(prefix, f, f.Kind)...)
	case checks.TestFailure:
		if w := window(f.Interleaving); w != "" {
			keys = append(keys, prefix+"window|"+w)
		}
		if f.Unperturbed && f.AfterEarlier == nil {
			if m := setupMessage(strings.TrimPrefix(f.Message, f.Test+": ")); m != "" {
				keys = append(keys, prefix+"setup|"+f.Package+"|"+m)
			}
		}
		if strings.Contains(f.Message, rt.AfterReturnMessage) {
			// A test failed after it returned by a goroutine it left
			// is one cause with the leak of what it left.
			keys = append(keys, stuckKeys(prefix, f, checks.Leak)...)
		}
	}
	return keys
}

// setupMessage is a test failure's first line without the places it
// names (file.go:line): tests of one package that fail with it on their
// unperturbed schedule fail so in the program's own order, most often in
// their set-up (a server they dial that is not there: asynq's 193 tests,
// each "dial tcp 127.0.0.1:6379: connect: connection refused" at its own
// line), and are one cause.
func setupMessage(msg string) string {
	msg, _, _ = strings.Cut(msg, "\n")
	return strings.TrimSpace(goLineRE.ReplaceAllString(msg, ""))
}

var goLineRE = regexp.MustCompile(`\S+\.go:\d+: `)

// stuckKeys keys the goroutines f left stuck, as a deadlock or leak (kind)
// of them: a goroutine still running by the loop it is in, blocked ones
// by their sites outside the tests.
func stuckKeys(prefix string, f *checks.Finding, kind checks.FailureKind) []string {
	if runningLeak(*f) {
		// A goroutine still running is caught at whichever line of
		// its loop it had reached (a package's cron: its sleep, its
		// lock, its unlock; a callee): the function that started the
		// loop is the cause (sameRunningLeak).
		if loops := runningLoops(*f); len(loops) > 0 {
			return []string{prefix + "running|" + strings.Join(loops, " ")}
		}
		return nil
	}
	var stuck []string
	for _, g := range f.Goroutines {
		if file, _, ok := cutSite(g.Site); ok && !strings.HasSuffix(file, "_test.go") {
			stuck = append(stuck, g.Site)
		}
	}
	if len(stuck) == 0 {
		return nil
	}
	return []string{fmt.Sprintf("%sstuck|%s|%s", prefix, kind, strings.Join(sortedUnique(stuck), " "))}
}

// funcPair keys a two-goroutine race by the functions of its two
// accesses, a closure folded into the function it is in: the races of one
// pair of functions are one cause whatever variables and lines they touch
// (three counters that jobs set and the test reads after one sleep). When
// both accesses are in test files the race is the test's own, so the key
// names the test (or subtest) too; otherwise any test may reach it.
func funcPair(f *checks.Finding) (string, bool) {
	if len(f.Goroutines) != 2 {
		return "", false
	}
	a, b := f.Goroutines[0], f.Goroutines[1]
	if !strings.Contains(a.State, "write") && !strings.Contains(b.State, "write") {
		return "", false
	}
	fa, fb := siteFunc(a), siteFunc(b)
	if fa == a.Site || fb == b.Site {
		return "", false
	}
	fa, fb = outerFunc(fa), outerFunc(fb)
	if fb < fa {
		fa, fb = fb, fa
	}
	scope := ""
	if inTestFile(a.Site) && inTestFile(b.Site) {
		scope = f.Test
		if w, _, ok := strings.Cut(f.Message, ": "); ok && strings.HasPrefix(w, f.Test+"/") {
			scope = w
		}
	}
	return scope + "|" + fa + "|" + fb, true
}

// closedSendPanic is the runtime's panic for a send on a closed channel.
const closedSendPanic = "panic: send on closed channel"

// sendRacingClose returns the site of the send when f is a data race of a
// channel send with the channel's close.
func sendRacingClose(f *checks.Finding) (string, bool) {
	in := func(g checks.Goroutine, fn string) bool {
		return len(g.Stack) > 0 && g.Stack[0].Func == fn
	}
	if len(f.Goroutines) != 2 {
		return "", false
	}
	a, b := f.Goroutines[0], f.Goroutines[1]
	switch {
	case in(a, "runtime.chansend") && in(b, "runtime.closechan"):
		return a.Site, true
	case in(b, "runtime.chansend") && in(a, "runtime.closechan"):
		return b.Site, true
	}
	return "", false
}

// lazyInits returns the functions that race with themselves in fs as a
// lazy initialization does: a data race of two goroutines, one reading
// and one writing, both at lines of one function outside test files.
func lazyInits(fs []checks.Finding) map[string]bool {
	out := map[string]bool{}
	for i := range fs {
		f := &fs[i]
		if !groupable(f) || f.Kind != checks.DataRace || len(f.Goroutines) != 2 {
			continue
		}
		a, b := f.Goroutines[0], f.Goroutines[1]
		if strings.Contains(a.State, "write") == strings.Contains(b.State, "write") {
			continue
		}
		fa, fb := siteFunc(a), siteFunc(b)
		file, _, ok := cutSite(a.Site)
		if ok && fa == fb && fa != a.Site && !strings.HasSuffix(file, "_test.go") {
			out[fa] = true
		}
	}
	return out
}

// racePairs returns the pairs of functions ("W|R") of the data races in
// fs between a write in a function W and an access in another function R,
// both outside test files. A race of one function with itself is a lazy
// initialization's shape (lazyInits), not a pair.
func racePairs(fs []checks.Finding) map[string]bool {
	out := map[string]bool{}
	for i := range fs {
		f := &fs[i]
		if !groupable(f) || f.Kind != checks.DataRace {
			continue
		}
		for _, p := range ownPairs(f) {
			out[p] = true
		}
	}
	return out
}

// ownPairs returns a two-goroutine race's pairs of functions at its two
// sites, the writing one first (both ways when both write).
func ownPairs(f *checks.Finding) []string {
	if len(f.Goroutines) != 2 {
		return nil
	}
	var out []string
	for k := range 2 {
		w, o := f.Goroutines[k], f.Goroutines[1-k]
		if !strings.Contains(w.State, "write") || inTestFile(w.Site) || inTestFile(o.Site) {
			continue
		}
		fw, fo := pairFunc(w), pairFunc(o)
		if fw != fo && fw != w.Site && fo != o.Site {
			out = append(out, fw+"|"+fo)
		}
	}
	return out
}

// reachedPairs returns the pairs (racePairs) that f's two goroutines are
// inside: its writing goroutine has a frame in the pair's first function,
// the other one in its second. A race's own pairs are among them; a race
// of two accesses in test files is the test's, inside no pair.
func reachedPairs(f *checks.Finding, pairs map[string]bool) []string {
	if len(f.Goroutines) != 2 || len(pairs) == 0 || inTestFile(f.Goroutines[0].Site) && inTestFile(f.Goroutines[1].Site) {
		return nil
	}
	var out []string
	for k := range 2 {
		w, o := f.Goroutines[k], f.Goroutines[1-k]
		if !strings.Contains(w.State, "write") {
			continue
		}
		for _, fw := range stackFuncs(w) {
			for _, fo := range stackFuncs(o) {
				if p := fw + "|" + fo; pairs[p] {
					out = append(out, p)
				}
			}
		}
	}
	return sortedUnique(out)
}

// stackFuncs returns the functions of g's frames outside test files, each
// once, a closure's as the function it is in (outerFunc) but for the
// goroutine's first frame (a go statement's closure runs apart from the
// function that started it).
func stackFuncs(g checks.Goroutine) []string {
	var out []string
	for i, fr := range g.Stack {
		if strings.HasSuffix(fr.File, "_test.go") {
			continue
		}
		if i < len(g.Stack)-1 {
			out = append(out, outerFunc(checks.OwnFunc(fr.Func)))
		} else {
			out = append(out, checks.OwnFunc(fr.Func))
		}
	}
	return sortedUnique(out)
}

// pairFunc is siteFunc as stackFuncs names it.
func pairFunc(g checks.Goroutine) string {
	for i, fr := range g.Stack {
		if fr.File+":"+strconv.Itoa(fr.Line) == g.Site {
			if i < len(g.Stack)-1 {
				return outerFunc(checks.OwnFunc(fr.Func))
			}
			return checks.OwnFunc(fr.Func)
		}
	}
	return g.Site
}

// innerRE matches the part of a function name that names a closure in
// it (".func1", ".func2.3").
var innerRE = regexp.MustCompile(`\.func\d+(\.|$)`)

// outerFunc returns the function a closure is in ("p.(*R).collect" for
// "p.(*R).collect.func1", a deferred call: otel's collect reached its
// instrumentation through one), or fn itself.
func outerFunc(fn string) string {
	slash := strings.LastIndexByte(fn, '/') + 1
	if loc := innerRE.FindStringIndex(fn[slash:]); loc != nil {
		return fn[:slash+loc[0]]
	}
	return fn
}

// insidePair reports whether the race in is inside out's pair of
// functions (reachedPairs) without being a race of that pair itself.
func insidePair(in, out *checks.Finding, pairs map[string]bool) bool {
	if in.Kind != checks.DataRace || out.Kind != checks.DataRace {
		return false
	}
	own := ownPairs(out)
	if len(own) == 0 {
		return false
	}
	for _, p := range ownPairs(in) {
		if slices.Contains(own, p) {
			return false
		}
	}
	for _, p := range reachedPairs(in, pairs) {
		if slices.Contains(own, p) {
			return true
		}
	}
	return false
}

// inTestFile reports whether a "file:line" site is in a test file.
func inTestFile(site string) bool {
	file, _, _ := cutSite(site)
	return strings.HasSuffix(file, "_test.go")
}

// maxWindow bounds the preemptions of an interleaving that tells its
// failure's window, and apart its selects that took another ready case
// than the first (Chosen): a shrunk one, not a search's many.
const maxWindow = 2

// window is the sorted set of sites outside test files at which a shrunk
// interleaving preempts or a select takes another ready case than the
// first, a preemption's with its callers outside test files
// ("get.go:9<bump.go:20"), or "" when it has more than maxWindow of
// either, shows fewer than it has, or does both only in test files. httprc's five tests of a canceled
// context fail at one select's choice (its send, not ctx.Done()), called
// from five methods, most with no preemption at all.
func window(il *checks.Interleaving) string {
	if il == nil || il.Preemptions+il.Chosen == 0 || il.Preemptions > maxWindow || il.Chosen > maxWindow {
		return ""
	}
	var sites []string
	preempts, chosen := 0, 0
	for _, st := range il.Steps {
		if st.Preempts == "" && !st.Chose {
			continue
		}
		if st.Preempts != "" {
			preempts++
		}
		if st.Chose {
			chosen++
		}
		if file, _, ok := cutSite(st.Site); ok && !strings.HasSuffix(file, "_test.go") {
			site := st.Site
			if st.Preempts != "" {
				// A preemption inside a helper is its caller's window;
				// a choice is the select's own, whoever called it.
				for _, c := range strings.Fields(st.Callers) {
					site += "<" + c
				}
			}
			sites = append(sites, site)
		}
	}
	if preempts != il.Preemptions || chosen != il.Chosen || len(sites) == 0 {
		return ""
	}
	return strings.Join(sortedUnique(sites), " ")
}

// siteFunc is the function a goroutine was in at its site (the frame at
// that line, by its own name: checks.OwnFunc), or the site itself when no frame
// says.
func siteFunc(g checks.Goroutine) string {
	for _, fr := range g.Stack {
		if fr.File+":"+strconv.Itoa(fr.Line) == g.Site {
			return checks.OwnFunc(fr.Func)
		}
	}
	return g.Site
}

// cutSite splits "file:line".
func cutSite(site string) (file string, line int, ok bool) {
	i := strings.LastIndexByte(site, ':')
	if i < 0 {
		return "", 0, false
	}
	n, err := strconv.Atoi(site[i+1:])
	return site[:i], n, err == nil && n > 0
}

// groupable reports whether f takes part in grouping: dynamic findings do;
// static and confirmed ones stand for a rule's diagnosis and do not.
func groupable(f *checks.Finding) bool {
	return f.Evidence == checks.Dynamic && f.Kind != ""
}

// causes partitions fs by cause: each group lists indexes into fs, its
// best representative first; groups come in the order of their first
// finding in fs.
func causes(fs []checks.Finding) [][]int {
	parent := make([]int, len(fs))
	for i := range parent {
		parent[i] = i
	}
	var find func(int) int
	find = func(i int) int {
		if parent[i] != i {
			parent[i] = find(parent[i])
		}
		return parent[i]
	}
	owner := map[string]int{}
	lazy, pairs := lazyInits(fs), racePairs(fs)
	for i := range fs {
		if !groupable(&fs[i]) {
			continue
		}
		for _, k := range causeKeys(&fs[i], lazy, pairs) {
			if j, ok := owner[k]; ok {
				a, b := find(i), find(j)
				parent[max(a, b)] = min(a, b)
			} else {
				owner[k] = i
			}
		}
	}
	byRoot := map[int][]int{}
	var roots []int
	for i := range fs {
		r := find(i)
		if _, ok := byRoot[r]; !ok {
			roots = append(roots, r)
		}
		byRoot[r] = append(byRoot[r], i)
	}
	out := make([][]int, 0, len(roots))
	for _, r := range roots {
		g := byRoot[r]
		orderMembers(fs, g, pairs)
		out = append(out, g)
	}
	return out
}

// orderMembers sorts a group best representative first: the member whose
// own line the most members involve (for races, as a write: the cause is
// the write), then the race the most other races of the group are inside
// (reachedPairs: the outermost, which the others follow from), then by
// position, a failure before a data race, then test and message; before
// all, one replayed, then one that needs no early clock jump.
func orderMembers(fs []checks.Finding, g []int, pairs map[string]bool) {
	if len(g) < 2 {
		return
	}
	shared := map[string]int{}
	for _, i := range g {
		for s := range involved(&fs[i]) {
			shared[s]++
		}
	}
	score := func(i int) int { return shared[posKey(fs[i].Pos)] }
	inside := map[int]int{}
	for _, i := range g {
		for _, j := range g {
			if i != j && insidePair(&fs[j], &fs[i], pairs) {
				inside[i]++
			}
		}
	}
	sort.SliceStable(g, func(x, y int) bool {
		a, b := &fs[g[x]], &fs[g[y]]
		if ra, rb := a.NotReplayed == "", b.NotReplayed == ""; ra != rb {
			// The representative's schedule is the one that replays.
			return ra
		}
		if ea, eb := needsEarly(a), needsEarly(b); ea != eb {
			// One reached without an early clock jump tells the cause
			// as go test on any machine meets it (watermill's failure
			// after return on 770 of 772 schedules, not its leak on 2,
			// each after a timer fired early).
			return eb
		}
		if sa, sb := score(g[x]), score(g[y]); sa != sb {
			return sa > sb
		}
		if oa, ob := inside[g[x]], inside[g[y]]; oa != ob {
			return oa > ob
		}
		if a.Pos != b.Pos {
			return a.Pos.Less(b.Pos)
		}
		if ra, rb := a.Kind == checks.DataRace, b.Kind == checks.DataRace; ra != rb {
			return rb // a failure a run without -race shows too
		}
		if a.Test != b.Test {
			return a.Test < b.Test
		}
		return a.Message < b.Message
	})
}

// needsEarly: did f's schedule need an early clock jump (its label says so)?
func needsEarly(f *checks.Finding) bool {
	return f.EarlyTimers != nil && f.EarlyTimers.Jumps > 0
}

// involved returns the lines a finding involves: its position, its
// related ones and its goroutines' sites; for a data race, the lines it
// writes at.
func involved(f *checks.Finding) map[string]bool {
	if f.Kind == checks.DataRace {
		out := map[string]bool{}
		for _, g := range f.Goroutines {
			if file, line, ok := cutSite(g.Site); ok && strings.Contains(g.State, "write") {
				out[posKey(checks.Position{File: file, Line: line})] = true
			}
		}
		return out
	}
	out := map[string]bool{posKey(f.Pos): true}
	for _, r := range f.Related {
		out[posKey(r.Position)] = true
	}
	for _, g := range f.Goroutines {
		if file, line, ok := cutSite(g.Site); ok {
			out[posKey(checks.Position{File: file, Line: line})] = true
		}
	}
	return out
}

func posKey(p checks.Position) string { return p.File + ":" + strconv.Itoa(p.Line) }

// fold makes rep the finding of its cause: the others, and what they had
// folded already, become its SameCause, each once.
func fold(rep checks.Finding, others []checks.Finding) checks.Finding {
	if len(others) == 0 {
		return rep
	}
	type id struct {
		test, msg string
		pos       checks.Position
	}
	seen := map[id]bool{{rep.Test, rep.Message, rep.Pos}: true}
	var list []checks.Occurrence
	add := func(o checks.Occurrence) {
		if k := (id{o.Test, o.Message, o.Pos}); !seen[k] {
			seen[k] = true
			list = append(list, o)
		}
	}
	for _, o := range rep.SameCause {
		add(o)
	}
	for i := range others {
		add(checks.OccurrenceOf(&others[i]))
		for _, o := range others[i].SameCause {
			add(o)
		}
	}
	sort.SliceStable(list, func(i, j int) bool {
		if list[i].Test != list[j].Test {
			return list[i].Test < list[j].Test
		}
		return list[i].Pos.Less(list[j].Pos)
	})
	rep.SameCause = list
	return rep
}

// Group folds the dynamic findings of one cause into one finding each
// (see causes); every other finding is kept as it is. The representative
// of a group is its best member, whose schedule must already replay: the
// search (Run) groups before its replay check and tries the members in
// that order. Group is for findings put together from several results
// (shards, packages).
func Group(fs []checks.Finding) []checks.Finding {
	return foldCauses(fs, nil)
}

// foldCauses folds each cause of fs (causes) into its representative,
// after first (when set) reorders the group's indexes.
func foldCauses(fs []checks.Finding, first func(g []int)) []checks.Finding {
	var out []checks.Finding
	for _, g := range causes(fs) {
		if first != nil {
			first(g)
		}
		others := make([]checks.Finding, 0, len(g)-1)
		for _, i := range g[1:] {
			others = append(others, fs[i])
		}
		out = append(out, fold(fs[g[0]], others))
	}
	return out
}

// untilFirst moves the failure Options.Until accepted to the front of its
// group g (indexes of failures keys): it is the one the caller looks for
// among the findings (repro matches a log's failure), so it must be the
// representative, not an occurrence.
func (s *search) untilFirst(g []int, keys []string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	sort.SliceStable(g, func(a, b int) bool { return s.untilKeys[keys[g[a]]] && !s.untilKeys[keys[g[b]]] })
}
