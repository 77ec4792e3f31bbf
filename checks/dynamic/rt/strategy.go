package rt

import (
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
)

// Candidate is one enabled goroutine offered to a Strategy.
type Candidate struct {
	G    int    // logical goroutine id
	Op   string // the operation it is parked at
	Site string // file.go:line of that operation
	// Obj identifies the object the operation touches (a mutex, channel,
	// WaitGroup, ...; 0 for none) and Objs the channels of a select. Only
	// compared for equality, within one schedule.
	Obj  uintptr
	Objs []uintptr
	// Read is set for operations that commute with each other on the same
	// object (RLock, RUnlock).
	Read bool
	// Frames are the file.go:line of the callers of Site (user code only,
	// innermost first); filled for targeted strategies only.
	Frames []string
	// at hashes the call stack of the operation: the scheduler fills Site
	// only for strategies that read it (and when replaying), so that a
	// scheduling point allocates nothing; events compare by at then.
	at uint64
}

// Strategy decides schedules. It is only ever called from the scheduler
// goroutine, so it needs no synchronization of its own (and must use none:
// see DESIGN "Keep the race detector's eyes open").
//
// A strategy's decisions depend only on the seed given to Reset and on the
// candidates it is offered, never on earlier schedules, so that one seed
// runs the same schedule in a fresh process (the driver confirms crashes
// that way).
type Strategy interface {
	// Reset starts a new schedule.
	Reset(seed int64)
	// Next returns the index in enabled of the goroutine to run. last is
	// the goroutine that ran at the previous decision (-1 at the start);
	// step counts decisions from 0.
	Next(enabled []Candidate, last int, step int) int
	// Choose picks one of n alternatives (a select case, the waiter that
	// Signal wakes, the partner of an unbuffered channel operation).
	Choose(n int, step int) int
}

// Strategy names. A comma-separated list of them is a portfolio of those.
const (
	StratRandom    = "random"
	StratPCT       = "pct"
	StratPOS       = "pos"
	StratPortfolio = "portfolio"
)

// StrategyNames lists the names NewStrategy accepts, the default first.
var StrategyNames = []string{StratPortfolio, StratRandom, StratPCT, StratPOS}

// DefaultPCTDepth is the bug depth PCT aims at: d-1 priority change points.
const DefaultPCTDepth = 3

// ValidStrategy reports whether name (possibly a comma-separated list)
// names known strategies; "" is the default.
func ValidStrategy(name string) bool {
	if name == "" {
		return true
	}
	for _, n := range strings.Split(name, ",") {
		if !knownStrategy(strings.TrimSpace(n)) {
			return false
		}
	}
	return true
}

func knownStrategy(n string) bool {
	for _, k := range StrategyNames {
		if n == k {
			return true
		}
	}
	return false
}

// NewStrategy returns the strategy named by Config.Strategy: "random",
// "pct", "pos", "portfolio" (the default, also for "" and unknown names:
// the three rotated by seed) or a comma-separated list (a portfolio of
// those). targets are "file.go:line" sites where preemption is favoured;
// with them every strategy becomes targeted (see Targeted). PlainStrategy
// is the driver's unperturbed schedule.
func NewStrategy(name string, targets []string) Strategy {
	if name == PlainStrategy {
		return Plain{} // the unperturbed schedule: never targeted
	}
	var s Strategy
	parts := strings.Split(name, ",")
	if len(parts) > 1 {
		var members []Strategy
		for _, p := range parts {
			if p = strings.TrimSpace(p); knownStrategy(p) && p != StratPortfolio {
				members = append(members, single(p))
			}
		}
		if len(members) == 0 {
			members = portfolioMembers()
		}
		s = &Portfolio{Members: members}
	} else {
		s = single(strings.TrimSpace(name))
	}
	if len(targets) > 0 {
		s = NewTargeted(s, targets)
	}
	return s
}

// StrategyOf names the strategy that runs schedule seed under name: the
// member a portfolio picks for that seed, else name itself. Running that
// strategy alone with the seed makes the same decisions.
func StrategyOf(name string, seed int64) string {
	if name == PlainStrategy {
		return name
	}
	var members []string
	for _, p := range strings.Split(name, ",") {
		if p = strings.TrimSpace(p); knownStrategy(p) && p != StratPortfolio {
			members = append(members, p)
		}
	}
	if len(members) == 1 && !strings.Contains(name, ",") {
		return members[0]
	}
	if len(members) == 0 || !strings.Contains(name, ",") {
		members = []string{StratRandom, StratPCT, StratPOS}
	}
	n := int64(len(members))
	return members[((seed%n)+n)%n]
}

func single(name string) Strategy {
	switch name {
	case StratRandom:
		return &RandomWalk{}
	case StratPCT:
		return &PCT{Depth: DefaultPCTDepth}
	case StratPOS:
		return &POS{}
	}
	return &Portfolio{Members: portfolioMembers()}
}

func portfolioMembers() []Strategy {
	return []Strategy{&RandomWalk{}, &PCT{Depth: DefaultPCTDepth}, &POS{}}
}

func newRand(seed int64, salt uint64) *rand.Rand {
	return rand.New(rand.NewPCG(uint64(seed), 0x9e3779b97f4a7c15^salt))
}

// RandomWalk picks uniformly among the enabled goroutines.
type RandomWalk struct {
	r *rand.Rand
}

func (w *RandomWalk) Reset(seed int64) { w.r = newRand(seed, 0) }

//go:norace
func (w *RandomWalk) Next(enabled []Candidate, last int, step int) int {
	if len(enabled) == 1 {
		return 0
	}
	return w.r.IntN(len(enabled))
}

func (w *RandomWalk) Choose(n int, step int) int {
	if n <= 1 {
		return 0
	}
	return w.r.IntN(n)
}

// PCT is probabilistic concurrency testing (Burckhardt et al., ASPLOS
// 2010): every goroutine gets a random priority when it first shows up,
// above Depth; the highest-priority enabled goroutine runs; at Depth-1
// change points, chosen uniformly among the first K steps, the goroutine
// about to run drops to priority i (the i-th change point), below every
// initial priority. A bug of depth d is found with probability at least
// 1/(n·K^(d-1)) per schedule when K is at least the schedule's length.
//
// The length is not known in advance and must not be learned from earlier
// schedules (a seed has to mean the same schedule in a fresh process), so K
// is drawn per schedule from the seed, log-uniformly between 8 and 2048
// steps.
type PCT struct {
	Depth int

	r      *rand.Rand
	k      int
	change map[int]int // step -> change point number (1..Depth-1)
	prio   prios
	run    int // the goroutine that ran the last steps, runLen of them
	runLen int
}

// pctMinSteps and pctMaxLog bound the step estimate K: 8 << [0, pctMaxLog].
const (
	pctMinSteps = 8
	pctMaxLog   = 8
)

// depth is Depth, at least 1. (No min/max builtins in rt: it is compiled
// at the language version of the module under test, maybe before go1.21.)
func (p *PCT) depth() int {
	if p.Depth < 1 {
		return 1
	}
	return p.Depth
}

func (p *PCT) Reset(seed int64) {
	p.r = newRand(seed, 1)
	d := p.depth()
	p.k = pctMinSteps << p.r.IntN(pctMaxLog+1)
	p.change = map[int]int{}
	for i := 1; i < d; i++ {
		// Distinct steps; when K is small the draws may collide, then the
		// later change point wins the step.
		p.change[p.r.IntN(p.k)] = i
	}
	p.prio.reset()
	p.run, p.runLen = -1, 0
}

// prios holds a priority per goroutine id (ids are dense), NaN for none
// yet. Not a map: a scheduling decision must not allocate (tests count
// allocations), and a full small map grows even when a key it has is
// set again.
type prios []float64

// stratRoom is how many goroutines a strategy has room for before it
// grows its per-goroutine slices (at a goroutine's start, not at a
// later decision).
const stratRoom = 64

func (p *prios) reset() {
	if cap(*p) < stratRoom {
		*p = make(prios, 0, stratRoom)
	}
	*p = (*p)[:0]
}

// get returns g's priority and whether it has one.
func (p prios) get(g int) (float64, bool) {
	if g < len(p) && !math.IsNaN(p[g]) {
		return p[g], true
	}
	return 0, false
}

func (p *prios) set(g int, v float64) {
	for len(*p) <= g {
		*p = append(*p, math.NaN())
	}
	(*p)[g] = v
}

func (p prios) clear(g int) {
	if g < len(p) {
		p[g] = math.NaN()
	}
}

// Steps returns the step estimate of the current schedule.
func (p *PCT) Steps() int { return p.k }

// ChangePoints returns the steps at which a priority changes.
func (p *PCT) ChangePoints() []int {
	var out []int
	for s := range p.change {
		out = append(out, s)
	}
	sortInts(out)
	return out
}

//go:norace
func (p *PCT) priority(g int) float64 {
	v, ok := p.prio.get(g)
	if !ok {
		v = float64(p.depth()) + p.r.Float64()
		p.prio.set(g, v)
	}
	return v
}

// best is the enabled candidate of highest priority. POS.Next has the same
// loop: shared through a func value, the call per candidate costs several
// times the loop under -race.
//
//go:norace
func (p *PCT) best(enabled []Candidate) int {
	best, top := 0, p.priority(enabled[0].G)
	for i := 1; i < len(enabled); i++ {
		if v := p.priority(enabled[i].G); v > top {
			best, top = i, v
		}
	}
	return best
}

//go:norace
func (p *PCT) Next(enabled []Candidate, last int, step int) int {
	// Priorities are assigned to every candidate in order of appearance,
	// even when only one can run, so that a goroutine's priority does not
	// depend on when it first competed.
	i := p.best(enabled)
	if c, ok := p.change[step]; ok {
		p.prio.set(enabled[i].G, float64(c))
		i = p.best(enabled)
	}
	// Strict priorities starve the others forever when the goroutine on
	// top waits for them in a loop (runtime.Gosched, an atomic flag, a
	// TryLock): a Gosched, or pctStarve steps in a row while others could
	// run, drops it below every enabled goroutine.
	if len(enabled) > 1 {
		if enabled[i].G == p.run {
			p.runLen++
		} else {
			p.run, p.runLen = enabled[i].G, 1
		}
		if enabled[i].Op == "Gosched" || p.runLen > pctStarve {
			low := p.priority(enabled[i].G)
			for _, c := range enabled {
				if q := p.priority(c.G); q < low {
					low = q
				}
			}
			p.prio.set(enabled[i].G, low-1)
			i = p.best(enabled)
			p.run, p.runLen = enabled[i].G, 1
		}
	}
	return i
}

// pctStarve is how many steps in a row PCT lets one goroutine run while
// others are enabled.
const pctStarve = 64

func (p *PCT) Choose(n int, step int) int {
	if n <= 1 {
		return 0
	}
	return p.r.IntN(n)
}

// POS is partial-order sampling (Yuan et al., CAV 2018): every pending
// operation (event) gets a random priority when it first shows up; the
// enabled event with the highest priority runs; after it ran, every known
// pending event that races with it (same object, not both reads) gets a
// fresh priority, and so does the next event of every goroutine that
// moved. Events that do not race keep theirs, which samples partial orders
// far more evenly than a random walk does.
//
// Its state is kept in slices by goroutine id, not maps: a decision must
// not allocate (see prios).
type POS struct {
	r       *rand.Rand
	prio    prios        // goroutine -> priority of its pending event
	pending []Candidate  // goroutine -> its pending event, as last seen
	has     []bool       // goroutine -> pending holds its event
	objs    [][]uintptr  // goroutine -> its pending event's Objs (a copy)
	arr     [][4]uintptr // room for the first copies
	ran     int          // the goroutine picked at the previous decision
}

func (p *POS) Reset(seed int64) {
	p.r = newRand(seed, 2)
	p.prio.reset()
	if cap(p.pending) < stratRoom {
		p.pending, p.has, p.objs = make([]Candidate, 0, stratRoom), make([]bool, 0, stratRoom), make([][]uintptr, 0, stratRoom)
		p.arr = make([][4]uintptr, stratRoom)
	}
	p.pending, p.has, p.objs = p.pending[:0], p.has[:0], p.objs[:0]
	p.ran = -1
}

//go:norace
func (p *POS) Next(enabled []Candidate, last int, step int) int {
	if p.ran >= 0 {
		if p.ran < len(p.has) && p.has[p.ran] {
			e := &p.pending[p.ran]
			for g := range p.pending {
				if p.has[g] && g != p.ran && races(e, &p.pending[g]) {
					p.prio.clear(g)
				}
			}
			p.has[p.ran] = false
		}
		p.prio.clear(p.ran)
	}
	for i := range enabled {
		c := &enabled[i]
		for len(p.pending) <= c.G {
			var room []uintptr
			if i := len(p.pending); i < len(p.arr) {
				room = p.arr[i][:0]
			}
			p.pending, p.has, p.objs = append(p.pending, Candidate{}), append(p.has, false), append(p.objs, room)
		}
		if p.has[c.G] && !sameEvent(&p.pending[c.G], c) {
			p.prio.clear(c.G) // it moved (released as a partner, say)
		}
		// The scheduler reuses the candidate's Objs: keep a copy.
		p.objs[c.G] = append(p.objs[c.G][:0], c.Objs...)
		p.pending[c.G], p.has[c.G] = *c, true
		p.pending[c.G].Objs = p.objs[c.G]
	}
	best, top := 0, p.priority(enabled[0].G)
	for i := 1; i < len(enabled); i++ {
		if v := p.priority(enabled[i].G); v > top {
			best, top = i, v
		}
	}
	p.ran = enabled[best].G
	return best
}

//go:norace
func (p *POS) priority(g int) float64 {
	v, ok := p.prio.get(g)
	if !ok {
		v = p.r.Float64()
		p.prio.set(g, v)
	}
	return v
}

func (p *POS) Choose(n int, step int) int {
	if n <= 1 {
		return 0
	}
	return p.r.IntN(n)
}

func sameEvent(a, b *Candidate) bool {
	return a.Op == b.Op && a.Site == b.Site && a.at == b.at && a.Obj == b.Obj
}

// races reports whether two pending operations conflict: they touch a
// common object and are not both reads. Atomics carry no object and are
// taken to conflict with each other.
func races(a, b *Candidate) bool {
	if a.Read && b.Read {
		return false
	}
	if a.Op == "atomic" && b.Op == "atomic" {
		return true
	}
	if a.Obj != 0 && touches(b, a.Obj) {
		return true
	}
	for _, x := range a.Objs {
		if touches(b, x) {
			return true
		}
	}
	return false
}

// touches: does c's operation touch the object x (not 0)?
func touches(c *Candidate, x uintptr) bool {
	if c.Obj == x {
		return true
	}
	for _, y := range c.Objs {
		if y == x {
			return true
		}
	}
	return false
}

// Portfolio rotates its members by seed: schedule seed s runs member
// s mod len(Members), so one budget is shared among them.
type Portfolio struct {
	Members []Strategy
	cur     Strategy
}

func (p *Portfolio) Reset(seed int64) {
	n := int64(len(p.Members))
	p.cur = p.Members[((seed%n)+n)%n]
	p.cur.Reset(seed)
}

// Current returns the member running the current schedule.
func (p *Portfolio) Current() Strategy { return p.cur }

func (p *Portfolio) Next(enabled []Candidate, last int, step int) int {
	return p.cur.Next(enabled, last, step)
}

func (p *Portfolio) Choose(n int, step int) int { return p.cur.Choose(n, step) }

// Targeted raises the preemption probability at target sites: when the
// goroutine that ran last is about to run an operation at (or within
// TargetNear lines of) a target, another enabled goroutine runs instead with
// probability 9/10, picked by Inner among the others; elsewhere the previous
// goroutine keeps running with probability 3/4 when Inner is a random walk
// (which would otherwise preempt everywhere and drown the targets), and
// Inner decides otherwise.
type Targeted struct {
	Inner   Strategy
	targets map[string][]int // file.go -> lines
	r       *rand.Rand
	// off leaves this schedule to Inner alone: every other schedule is
	// untargeted, so aiming never costs what the plain search finds
	// (preempting at every target can alternate two goroutines strictly).
	off    bool
	others []Candidate // reused by Next
	// keys and preempts count the preemptions per target (targethits.go).
	keys     targetIndex
	preempts map[string]int
	seen     []string // reused by countPreempt
}

// TargetNear is how many lines around a target still count as the target:
// the operation a goroutine is parked at is often the lock or channel
// operation next to the access a static finding names.
const TargetNear = 2

// NewTargeted wraps inner with targets ("dir/file.go:12" or "file.go:12").
func NewTargeted(inner Strategy, targets []string) *Targeted {
	t := &Targeted{Inner: inner, targets: map[string][]int{}, keys: indexTargets(targets)}
	for _, s := range targets {
		if file, line, ok := splitSite(shortSite(s)); ok {
			t.targets[file] = append(t.targets[file], line)
		}
	}
	return t
}

// AtTarget reports whether a "file.go:line" site is at or near a target.
func (t *Targeted) AtTarget(site string) bool {
	file, line, ok := splitSite(site)
	if !ok {
		return false
	}
	for _, l := range t.targets[file] {
		if line >= l-TargetNear && line <= l+TargetNear {
			return true
		}
	}
	return false
}

func (t *Targeted) Reset(seed int64) {
	t.r = newRand(seed, 3)
	t.off = seed%2 != 0
	t.Inner.Reset(seed)
	for k := range t.preempts { // no clear: rt builds with go1.18 modules
		delete(t.preempts, k)
	}
}

func (t *Targeted) inner() Strategy {
	if p, ok := t.Inner.(*Portfolio); ok && p.cur != nil {
		return p.cur
	}
	return t.Inner
}

// atTarget reports whether c's operation is at or near a target, or is
// reached through a call at or near one (a lock taken in a callee of the
// line a static finding names).
func (t *Targeted) atTarget(c Candidate) bool {
	if t.AtTarget(c.Site) {
		return true
	}
	for _, f := range c.Frames {
		if t.AtTarget(f) {
			return true
		}
	}
	return false
}

func (t *Targeted) Next(enabled []Candidate, last int, step int) int {
	cur := -1
	for i, c := range enabled {
		if c.G == last {
			cur = i
		}
	}
	if len(enabled) == 1 || cur < 0 || t.off {
		return t.Inner.Next(enabled, last, step)
	}
	if t.atTarget(enabled[cur]) {
		if t.r.IntN(10) < 9 {
			t.countPreempt(enabled[cur])
			others := append(t.others[:0], enabled[:cur]...)
			others = append(others, enabled[cur+1:]...)
			t.others = others[:0]
			k := t.Inner.Next(others, last, step)
			if k >= cur {
				k++
			}
			return k
		}
		return t.Inner.Next(enabled, last, step)
	}
	if _, ok := t.inner().(*RandomWalk); ok && t.r.IntN(4) < 3 {
		// Let the walk see the step (it draws nothing for it).
		return cur
	}
	return t.Inner.Next(enabled, last, step)
}

func (t *Targeted) Choose(n int, step int) int { return t.Inner.Choose(n, step) }

// splitSite splits "file.go:12" (a trailing ":col" is dropped). It does
// not allocate: the targeted strategy calls it at scheduling points.
func splitSite(s string) (string, int, bool) {
	i := strings.LastIndexByte(s, ':')
	if i < 0 {
		return "", 0, false
	}
	if j := strings.LastIndexByte(s[:i], ':'); j >= 0 {
		if _, err := strconv.Atoi(s[i+1:]); err == nil {
			if _, err := strconv.Atoi(s[j+1 : i]); err == nil {
				s, i = s[:i], j // "file.go:12:3"
			}
		}
	}
	n, err := strconv.Atoi(s[i+1:])
	if err != nil || n <= 0 {
		return "", 0, false
	}
	return s[:i], n, true
}

func sortInts(a []int) {
	for i := 1; i < len(a); i++ {
		for j := i; j > 0 && a[j] < a[j-1]; j-- {
			a[j], a[j-1] = a[j-1], a[j]
		}
	}
}

// candidate describes g's pending operation for the strategy.
//
//go:norace
func (s *sched) candidate(g *gstate) Candidate {
	if !g.candOK {
		g.cand, g.candOK = s.makeCandidate(g), true
	}
	return g.cand
}

//go:norace
func (s *sched) makeCandidate(g *gstate) Candidate {
	r := &g.req
	c := Candidate{G: g.id, Op: r.op.String(), at: pcsHash(&r.pcs)}
	if s.needSites() {
		c.Site = s.shortSiteOf(g)
	}
	switch r.op {
	case opLockerLock, opLockerUnlock:
		op, p := lockerKind(r.locker)
		c.Obj = uintptr(p)
		c.Read = op == opRLock
	case opSelect:
		// g's own buffer: no allocation once it has room.
		objs := g.objs[:0]
		for _, cs := range r.cases {
			if cs.ptr != nil {
				objs = append(objs, uintptr(cs.ptr))
			}
		}
		g.objs, c.Objs = objs, objs
	case opRLock, opRUnlock, opTryRLock:
		c.Obj, c.Read = uintptr(r.obj), true
	default:
		c.Obj = uintptr(r.obj)
	}
	if _, ok := s.strat.(*Targeted); ok {
		// g's own buffer: no allocation once it has room (a test may
		// count allocations around the targeted lines).
		g.frames = s.callerSites(g, g.frames[:0])
		c.Frames = g.frames
	}
	return c
}

// pcsHash hashes a call stack (FNV-1a).
func pcsHash(pcs *[10]uintptr) uint64 {
	h := uint64(14695981039346656037)
	for _, pc := range pcs {
		h ^= uint64(pc)
		h *= 1099511628211
	}
	return h
}

// callerSites appends to out file.go:line of the user frames of g's
// pending operation after the first (which is its Site).
//
//go:norace
func (s *sched) callerSites(g *gstate, out []string) []string {
	first := true
	for _, pc := range g.req.pcs {
		if pc == 0 {
			break
		}
		site := s.siteAt(pc)
		if site == "" {
			continue
		}
		if first {
			first = false
			continue
		}
		out = append(out, shortSite(site))
	}
	return out
}
