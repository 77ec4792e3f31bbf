package explore

import (
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/interleave-dev/interleave/checks"
	"github.com/interleave-dev/interleave/checks/dynamic/rt"
)

// maxStorySteps bounds the told interleaving; earlier steps are counted in
// Interleaving.Omitted.
const maxStorySteps = 14

// tell turns a failing schedule into the steps that matter: operations on
// the objects the failure involves (what the stuck goroutines wait for and
// the locks they hold; without stuck goroutines, the objects that more than
// one goroutine used), the goroutine starts that introduce the goroutines
// named, and every preemption; then where each stuck goroutine waits.
// line returns the source line of a "file.go:12" site, or "".
func tell(ds []rt.Decision, states []rt.GoroutineState, kind checks.FailureKind, line func(site string) string) *checks.Interleaving {
	if len(ds) == 0 {
		return nil
	}
	pre := preemptionsAt(ds, states)
	blocked := map[int]rt.GoroutineState{}
	for _, g := range states {
		if g.ID >= 0 && g.Op != "" && g.Op != "running" && g.Op != "panic" && g.Op != "os.Exit" {
			blocked[g.ID] = g
		}
	}
	// The objects that matter.
	objs := map[int]bool{}
	if kind == checks.Deadlock || kind == checks.Leak {
		for _, g := range blocked {
			if g.Obj != 0 {
				objs[g.Obj] = true
			}
		}
		// The locks the stuck goroutines hold.
		for obj, h := range holders(ds) {
			if _, ok := blocked[h]; ok {
				objs[obj] = true
			}
		}
	}
	if len(objs) == 0 {
		users := map[int]map[int]bool{}
		for _, d := range ds {
			if d.Obj == 0 || strings.HasPrefix(d.Op, "WaitGroup.") {
				continue
			}
			if users[d.Obj] == nil {
				users[d.Obj] = map[int]bool{}
			}
			users[d.Obj][d.G] = true
		}
		for o, us := range users {
			if len(us) > 1 {
				objs[o] = true
			}
		}
	}
	// Goroutine ids of the children started by "go" (ids are creation
	// order; t.Run also creates goroutines, so children are named only
	// without it).
	child := map[int]int{}
	next, named := 1, true
	for i, d := range ds {
		switch d.Op {
		case "go":
			child[i] = next
			next++
		case "join":
			next++ // d.G, started outside control
		case "t.Run", "t.Parallel":
			named = false
		}
	}
	keep := make([]bool, len(ds))
	involved := map[int]bool{}
	for i, d := range ds {
		if objs[d.Obj] && d.Obj != 0 || pre[i] >= 0 || chose(d) {
			keep[i] = true
			involved[d.G] = true
		}
	}
	for g := range blocked {
		involved[g] = true
	}
	if named {
		for i, d := range ds {
			if d.Op == "go" && involved[child[i]] {
				keep[i] = true
			}
		}
	}
	for i, d := range ds {
		if d.Op == "join" && involved[d.G] {
			keep[i] = true // where a goroutine started outside control came in
		}
	}
	labels := objectLabels(ds, keep, blocked, objs)
	it := &checks.Interleaving{End: strings.ReplaceAll(string(kind), "-", " ")}
	held := map[int]int{}
	// The expression each object was last seen as, for operations whose
	// line does not name it (a deferred Unlock runs at the closing brace).
	names := map[int]string{}
	name := func(site, op string, obj int) string {
		n := operand(line(site), op)
		if n == "" && obj != 0 {
			return names[obj]
		}
		if obj != 0 {
			names[obj] = n
		}
		return n
	}
	var steps []checks.Step
	for i, d := range ds {
		applyHold(held, d)
		if d.Early {
			steps = append(steps, checks.Step{G: "clock", Verb: "moves to the next deadline while goroutines could still run: due timers fire first"})
		}
		if !keep[i] {
			if d.Obj != 0 {
				name(d.Site, d.Op, d.Obj)
			}
			continue
		}
		st := checks.Step{G: gName(d.G), Verb: verb(d.Op, false), Site: d.Site, Label: labels[d.Obj], Callers: d.Path}
		if d.Op == "go" && named {
			st.Object = gName(child[i])
		} else {
			st.Object = name(d.Site, d.Op, d.Obj)
		}
		if pre[i] >= 0 {
			st.Preempts = gName(pre[i])
			it.Preemptions++
		}
		if chose(d) {
			st.Verb, st.Label = choseVerb(*d.Choice, *d.First)
			st.Chose = true
			it.Chosen++
		}
		steps = append(steps, st)
	}
	steps = foldStarts(steps)
	for i := range steps {
		if steps[i].Preempts == "" && !steps[i].Chose {
			steps[i].Callers = "" // only a preemption's or a choice's path is told
		}
	}
	if len(steps) > maxStorySteps {
		it.Omitted = len(steps) - maxStorySteps
		steps = steps[len(steps)-maxStorySteps:]
	}
	// Where the stuck goroutines wait, in goroutine order.
	for _, id := range sortedIDs(blocked) {
		g := blocked[id]
		st := checks.Step{G: gName(id), Verb: verb(g.Op, true), Site: shortSite(g.Site), Label: labels[g.Obj], Blocked: true}
		st.Object = name(st.Site, g.Op, g.Obj)
		if h, ok := held[g.Obj]; ok && g.Obj != 0 && h != id {
			st.Holder = gName(h)
		}
		steps = append(steps, st)
	}
	for i := range pre {
		if pre[i] >= 0 && !keep[i] {
			it.Preemptions++ // counted even when the story does not show it
		}
	}
	it.Steps = steps
	if len(it.Steps) == 0 {
		return nil
	}
	return it
}

// chose reports whether d is a select that took another ready case than
// its first (rt.Decision.First).
func chose(d rt.Decision) bool {
	return d.Op == "select" && d.First != nil && d.Choice != nil
}

// choseVerb tells a select that took case k (-1: default) while case
// first, before it, was ready too: "selects case 2", "case 1 was ready
// too"; cases are counted from 1 as written.
func choseVerb(k, first int) (verb, label string) {
	verb = "selects default"
	if k >= 0 {
		verb = "selects case " + strconv.Itoa(k+1)
	}
	return verb, fmt.Sprintf("case %d was ready too", first+1)
}

// foldStarts drops a goroutine's "starts running" step when its next step
// follows at once, moving the preemption onto that step.
func foldStarts(steps []checks.Step) []checks.Step {
	var out []checks.Step
	for i := 0; i < len(steps); i++ {
		st := steps[i]
		if st.Verb == verb("start", false) && i+1 < len(steps) && steps[i+1].G == st.G && steps[i+1].Preempts == "" {
			steps[i+1].Preempts = st.Preempts
			continue
		}
		out = append(out, st)
	}
	return out
}

func sortedIDs(m map[int]rt.GoroutineState) []int {
	ids := make([]int, 0, len(m))
	for id := range m {
		ids = append(ids, id)
	}
	sort.Ints(ids)
	return ids
}

func gName(id int) string { return "g" + strconv.Itoa(id) }

// preemptionsAt returns, for each decision, the goroutine it preempted, or
// -1: a decision preempts the goroutine of the decision before it when that
// goroutine runs again later and its next operation could not block at this
// point (a lock that was free, an unlock, a go statement...). Operations
// that may block (a receive, a Wait) never count: conservative.
func preemptionsAt(ds []rt.Decision, states []rt.GoroutineState) []int {
	out := make([]int, len(ds))
	held := map[int]int{}
	for i := range ds {
		out[i] = -1
		// A join is not a choice of who runs: the goroutine that joins
		// was started outside control and only comes in here.
		if i > 0 && ds[i].G != ds[i-1].G && ds[i].Op != "join" {
			prev := ds[i-1].G
			next, found := rt.Decision{}, false
			for j := i + 1; j < len(ds) && !found; j++ {
				if ds[j].G == prev {
					next, found = ds[j], true
				}
			}
			// A goroutine that never runs again may be stuck at the end:
			// its operation then is its next one.
			for _, g := range states {
				if !found && g.ID == prev && g.Op != "" {
					next, found = rt.Decision{G: prev, Op: g.Op, Obj: g.Obj}, true
				}
			}
			if found && couldRun(next, held, prev) {
				out[i] = prev
			}
		}
		applyHold(held, ds[i])
	}
	return out
}

// couldRun says whether goroutine g could have run decision d while the
// locks in held were held.
func couldRun(d rt.Decision, held map[int]int, g int) bool {
	switch d.Op {
	case "Mutex.Lock", "RWMutex.Lock", "Locker.Lock", "RWMutex.RLock":
		h, ok := held[d.Obj]
		return d.Obj != 0 && (!ok || h == g)
	case "Mutex.Unlock", "RWMutex.Unlock", "RWMutex.RUnlock", "Locker.Unlock", "go", "atomic", "Gosched", "chan len", "runtime.GC",
		"WaitGroup.Add", "close", "Cond.Signal", "Cond.Broadcast", "Mutex.TryLock", "RWMutex.TryLock", "RWMutex.TryRLock":
		return true
	}
	return false
}

// applyHold tracks who holds each lock (the last writer or reader).
func applyHold(held map[int]int, d rt.Decision) {
	if d.Obj == 0 {
		return
	}
	switch d.Op {
	case "Mutex.Lock", "RWMutex.Lock", "Locker.Lock", "RWMutex.RLock":
		held[d.Obj] = d.G
	case "Mutex.Unlock", "RWMutex.Unlock", "Locker.Unlock", "RWMutex.RUnlock":
		delete(held, d.Obj)
	}
}

// holders returns who holds each lock at the end of ds.
func holders(ds []rt.Decision) map[int]int {
	held := map[int]int{}
	for _, d := range ds {
		applyHold(held, d)
	}
	return held
}

// objectLabels names the objects shown ("lock A", "lock B") when more than
// one object of a kind appears, so that the same expression on two
// objects (from.mu in two calls) is told apart.
func objectLabels(ds []rt.Decision, keep []bool, blocked map[int]rt.GoroutineState, objs map[int]bool) map[int]string {
	kindOf := map[int]string{}
	var order []int
	see := func(obj int, op string) {
		if obj == 0 {
			return
		}
		if _, ok := kindOf[obj]; !ok {
			kindOf[obj] = objectKind(op)
			order = append(order, obj)
		}
	}
	for i, d := range ds {
		if keep[i] && d.Op != "go" {
			see(d.Obj, d.Op)
		}
	}
	for _, id := range sortedIDs(blocked) {
		see(blocked[id].Obj, blocked[id].Op)
	}
	count := map[string]int{}
	for _, o := range order {
		count[kindOf[o]]++
	}
	labels := map[int]string{}
	seen := map[string]int{}
	for _, o := range order {
		k := kindOf[o]
		if count[k] < 2 || k == "" {
			continue
		}
		labels[o] = fmt.Sprintf("%s %c", k, 'A'+rune(seen[k]%26))
		seen[k]++
	}
	return labels
}

func objectKind(op string) string {
	switch {
	case strings.HasPrefix(op, "Mutex."), strings.HasPrefix(op, "RWMutex."), strings.HasPrefix(op, "Locker."):
		return "lock"
	case strings.HasPrefix(op, "chan "), op == "close":
		return "channel"
	case strings.HasPrefix(op, "WaitGroup."):
		return "WaitGroup"
	case strings.HasPrefix(op, "Cond."):
		return "Cond"
	case strings.HasPrefix(op, "Once."):
		return "Once"
	}
	return ""
}

// verb says what an operation does, or what a goroutine stuck at it waits
// for.
func verb(op string, stuck bool) string {
	type pair struct{ done, wait string }
	v, ok := map[string]pair{
		"Mutex.Lock":         {"locks", "waits to lock"},
		"RWMutex.Lock":       {"locks", "waits to lock"},
		"Locker.Lock":        {"locks", "waits to lock"},
		"RWMutex.RLock":      {"read-locks", "waits to read-lock"},
		"Mutex.Unlock":       {"unlocks", "unlocks"},
		"RWMutex.Unlock":     {"unlocks", "unlocks"},
		"Locker.Unlock":      {"unlocks", "unlocks"},
		"RWMutex.RUnlock":    {"read-unlocks", "read-unlocks"},
		"Mutex.TryLock":      {"tries to lock", "tries to lock"},
		"RWMutex.TryLock":    {"tries to lock", "tries to lock"},
		"RWMutex.TryRLock":   {"tries to read-lock", "tries to read-lock"},
		"WaitGroup.Add":      {"adds to", "adds to"},
		"WaitGroup.Wait":     {"waits on", "waits on"},
		"Once.Do":            {"enters", "waits for"},
		"Cond.Wait":          {"waits on", "waits on"},
		"Cond.Wait (parked)": {"waits on", "waits on"},
		"Cond.Signal":        {"signals", "signals"},
		"Cond.Broadcast":     {"broadcasts on", "broadcasts on"},
		"chan send":          {"sends on", "waits to send on"},
		"chan receive":       {"receives from", "waits to receive from"},
		"chan len":           {"reads the length of", "reads the length of"},
		"close":              {"closes", "closes"},
		"select":             {"selects", "waits in a select"},
		"go":                 {"starts", "starts"},
		"join":               {"is started outside control and joins", "waits to join"},
		"start":              {"starts running", "waits to start"},
		"time.Sleep":         {"sleeps", "sleeps"},
		"atomic":             {"does an atomic operation", "does an atomic operation"},
		"Gosched":            {"yields", "yields"},
		"runtime.GC":         {"collects garbage", "collects garbage"},
	}[op]
	if !ok {
		return op
	}
	if stuck {
		return v.wait
	}
	return v.done
}

// operandRE finds "<expr>.<Method>(" in a source line; expr is an
// identifier path with selectors, indexes and derefs.
var operandRE = regexp.MustCompile(`([A-Za-z_][\w]*(?:\.[A-Za-z_]\w*|\[[^\]]*\]|\(\))*)\.(Lock|Unlock|RLock|RUnlock|TryLock|TryRLock|Wait|Add|Done|Do|Signal|Broadcast)\(`)

var (
	sendRE  = regexp.MustCompile(`([A-Za-z_][\w.\[\]]*)\s*<-`)
	recvRE  = regexp.MustCompile(`<-\s*([A-Za-z_][\w.\[\]]*(?:\(\))?)`)
	closeRE = regexp.MustCompile(`\bclose\(([^()]+)\)`)
	lenRE   = regexp.MustCompile(`\blen\(([^()]+)\)`)
)

// operand is the expression the operation applies to, as written on the
// source line, or "".
func operand(src, op string) string {
	if src == "" {
		return ""
	}
	methods := map[string][]string{
		"Mutex.Lock": {"Lock"}, "RWMutex.Lock": {"Lock"}, "Locker.Lock": {"Lock"},
		"Mutex.Unlock": {"Unlock"}, "RWMutex.Unlock": {"Unlock"}, "Locker.Unlock": {"Unlock"},
		"RWMutex.RLock": {"RLock"}, "RWMutex.RUnlock": {"RUnlock"},
		"Mutex.TryLock": {"TryLock"}, "RWMutex.TryLock": {"TryLock"}, "RWMutex.TryRLock": {"TryRLock"},
		"WaitGroup.Add": {"Add", "Done"}, "WaitGroup.Wait": {"Wait"}, "Once.Do": {"Do"},
		"Cond.Wait": {"Wait"}, "Cond.Wait (parked)": {"Wait"}, "Cond.Signal": {"Signal"}, "Cond.Broadcast": {"Broadcast"},
	}
	if ms, ok := methods[op]; ok {
		for _, m := range operandRE.FindAllStringSubmatch(src, -1) {
			for _, want := range ms {
				if m[2] == want {
					return m[1]
				}
			}
		}
		return ""
	}
	var re *regexp.Regexp
	switch op {
	case "chan send":
		re = sendRE
	case "chan receive":
		re = recvRE
	case "close":
		re = closeRE
	case "chan len":
		re = lenRE
	default:
		return ""
	}
	if m := re.FindStringSubmatch(src); m != nil {
		return strings.TrimSpace(m[1])
	}
	return ""
}
