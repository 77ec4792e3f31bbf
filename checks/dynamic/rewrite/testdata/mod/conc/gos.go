package conc

import (
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"time"
)

type Acc struct {
	mu  sync.Mutex
	sum int
	wg  sync.WaitGroup
}

func (a *Acc) add(xs ...int) {
	defer a.wg.Done()
	a.mu.Lock()
	defer a.mu.Unlock()
	for _, x := range xs {
		a.sum += x
	}
}

func two() (int, string, chan<- string) { return 2, "two", twoDone }

var twoDone = make(chan string, 1)

func takes(n int, s string, done chan<- string) { done <- fmt.Sprint(n, s) }

type B bool

func fb(b B, done chan<- B) { done <- b }

func fshift(n int64, done chan<- int64) { done <- n }

func apply[T any](f func(T), v T) { f(v) }

func Gos() int {
	a := &Acc{}
	a.wg.Add(4)
	xs := []int{1, 2}
	go a.add(xs...)
	go a.add(3,
		4,
	)
	i := 10
	go a.add(i)
	i = 1000 // the goroutine got 10: arguments are evaluated at the go statement
	go (a.add)(1.0)
	a.wg.Wait()
	return a.sum
}

func Gos2() string {
	done := make(chan string, 4)
	go takes(1, "one", done)
	go takes(two())
	<-twoDone
	go func(s string) { done <- s }("lit")
	f := func(n int, s string, d chan<- string) { d <- s }
	go f(0, "fv", done)
	go apply(func(s string) { done <- s }, "gen")
	got := map[string]bool{}
	for i := 0; i < 4; i++ {
		got[<-done] = true
	}
	var mu sync.Mutex
	mu.Lock()
	go mu.Unlock()
	mu.Lock()
	c := make(chan int)
	go close(c)
	<-c
	go runtime.Gosched()
	go time.Sleep(0)
	var n int32
	var wg sync.WaitGroup
	wg.Add(1)
	go wg.Done()
	wg.Wait()
	go atomic.AddInt32(&n, 1)
	go println()
	bc := make(chan B, 1)
	go fb(len(got) == 4, bc)
	if !<-bc {
		panic("fb")
	}
	sh := make(chan int64, 1)
	go fshift(1<<len(got), sh)
	if <-sh != 16 {
		panic("fshift")
	}
	ran := make(chan bool, 1)
	go func() int { ran <- true; return 1 }()
	<-ran
	return fmt.Sprint(len(got))
}

type Stats struct {
	hits atomic.Int64
	flag atomic.Bool
	ptr  atomic.Pointer[string]
	val  atomic.Value
	raw  int64
	u32  uint32
	atomic.Uint64
}

func Atomics() int64 {
	var s Stats
	s.hits.Add(1)
	if s.hits.Load() == 1 {
		s.flag.Store(true)
	}
	x := "p"
	s.ptr.Store(&x)
	s.val.Store(1)
	atomic.AddInt64(&s.raw, 2)
	n := atomic.LoadInt64(&s.raw) + s.hits.Load()
	// The arguments' loads schedule before the store's point.
	s.hits.Store(s.hits.Load() + 1)
	atomic.StoreInt64(&s.raw, atomic.LoadInt64(&s.raw)-1)
	_ = s.hits.CompareAndSwap(2, s.hits.Load())
	s.hits.Store(n)
	if v := atomic.AddUint32(&s.u32, 1); v != 1 {
		panic("u32")
	}
	for i := 0; i < 2; atomic.AddInt64(&s.raw, 1) {
		i++
	}
	for ; s.flag.Load(); s.flag.Store(false) {
	}
	if atomic.StoreInt64(&s.raw, 5); s.raw != 5 {
		panic("store")
	}
	defer atomic.AddInt64(&s.raw, 1)
	ps := &s
	ps.Add(3)
	defer s.hits.Add(1)
	arr := []int64{0}
	atomic.AddInt64(&arr[len(arr)-1], 1)
	return n + int64(s.Load()) + arr[0]
}

func Yield() {
	runtime.Gosched()
	time.Sleep(0)
}
