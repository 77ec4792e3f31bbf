package rt

import "sync"

// A sync.Pool keeps what earlier schedules put in it, and a fresh process
// starts with it empty: a schedule recorded in a search process that had
// run others (its Get hit) and replayed alone (its Get misses and calls
// New, which may be a scheduling point: time.NewTimer) would leave the
// recorded schedule at that Get. The real pool is no more predictable
// within one run (per-P caches, emptied by the collector, and under -race
// Put drops an item at random). So the rewriter routes the Get and Put of
// instrumented code here: while a schedule runs, each pool is a stack of
// the items put in it during that schedule, emptied when the next
// schedule first uses any pool, as every schedule started in a fresh
// process. Outside a schedule the real pool is used.

// poolSet holds the pools' contents under the schedule that filled them.
// It is guarded by poolSema, a runtime semaphore the race detector does
// not see (a sync.Mutex would order every two goroutines that touch any
// pool, hiding their races); it is touched only in //go:norace code.
var (
	poolSema  uint32 = 1
	poolOwner *sched
	poolSet   []poolStack
)

// poolStack is the contents of one pool during a schedule.
type poolStack struct {
	p     *sync.Pool
	items []any
}

// PoolGet is (*sync.Pool).Get (rewritten).
func PoolGet(p *sync.Pool) any {
	s := activeSched()
	if s == nil {
		return p.Get()
	}
	if x, ok := poolPop(s, p); ok {
		poolAcquire(x)
		return x
	}
	if p.New != nil {
		return p.New()
	}
	return nil
}

// PoolPut is (*sync.Pool).Put (rewritten).
func PoolPut(p *sync.Pool, x any) {
	if x == nil {
		return
	}
	s := activeSched()
	if s == nil {
		p.Put(x)
		return
	}
	// As sync.Pool does: what the putter did before Put happens before
	// what the getter of x does after Get.
	poolRelease(x)
	poolPush(s, p, x)
}

//go:norace
func activeSched() *sched { return active }

// poolOf returns the stack of p under schedule s, emptying every pool
// first when s is not the schedule that filled them. The caller holds
// poolSema.
//
//go:norace
func poolOf(s *sched, p *sync.Pool) *poolStack {
	if poolOwner != s {
		for i := range poolSet {
			st := &poolSet[i]
			for j := range st.items {
				st.items[j] = nil
			}
			st.items = st.items[:0]
		}
		poolOwner = s
	}
	for i := range poolSet {
		if poolSet[i].p == p {
			return &poolSet[i]
		}
	}
	// A new pool: grown by hand (append and copy would show the race
	// detector their reads and writes, which poolSema orders unseen).
	if len(poolSet) == cap(poolSet) {
		grown := make([]poolStack, len(poolSet), 2*len(poolSet)+4)
		//lint:ignore S1001 copy would show the race detector the copy
		for i := range poolSet {
			grown[i] = poolSet[i]
		}
		poolSet = grown
	}
	poolSet = poolSet[:len(poolSet)+1]
	st := &poolSet[len(poolSet)-1]
	st.p, st.items = p, st.items[:0]
	return st
}

//go:norace
func poolPop(s *sched, p *sync.Pool) (any, bool) {
	semacquire(&poolSema)
	st := poolOf(s, p)
	n := len(st.items)
	if n == 0 {
		semrelease(&poolSema, false, 0)
		return nil, false
	}
	x := st.items[n-1]
	st.items[n-1] = nil
	st.items = st.items[:n-1]
	semrelease(&poolSema, false, 0)
	return x, true
}

//go:norace
func poolPush(s *sched, p *sync.Pool, x any) {
	semacquire(&poolSema)
	st := poolOf(s, p)
	if len(st.items) == cap(st.items) {
		grown := make([]any, len(st.items), 2*len(st.items)+4)
		//lint:ignore S1001 copy would show the race detector the copy
		for i := range st.items {
			grown[i] = st.items[i]
		}
		st.items = grown
	}
	st.items = st.items[:len(st.items)+1]
	st.items[len(st.items)-1] = x
	semrelease(&poolSema, false, 0)
}
