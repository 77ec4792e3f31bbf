package conc

import (
	"errors"
	"io"
	"strings"
	"time"
)

type IntChan chan int
type RecvOnly <-chan int

func Pipeline(n int) int {
	src := make(chan int)
	out := make(IntChan, n)
	go func() {
		for i := 1; i <= n; i++ {
			src <- i
		}
		close(src)
	}()
	go forward(src, out)
	sum := 0
	var ro RecvOnly = (chan int)(out)
	for v := range ro {
		sum += v
	}
	return sum
}

func forward(in <-chan int, out chan<- int) {
	defer close(out)
	for v := range in {
		out <- v * 2
	}
}

func CommaOK() (int, bool) {
	ch := make(chan int, 1)
	ch <- 7
	v, ok := <-ch
	close(ch)
	var w int
	w, ok = <-ch
	if x, ok2 := <-ch; !ok2 {
		w += x
	}
	var y, ok3 = <-ch
	_ = ok3
	for range ch {
	}
	return v + w + y, !ok
}

func Interfaces() string {
	rc := make(chan io.Reader, 1)
	rc <- strings.NewReader("abc")
	ac := make(chan any, 2)
	n := 3
	ac <- n
	ac <- nil
	ec := make(chan error, 1)
	ec <- errors.New("e")
	type local struct{ s string }
	lc := make(chan interface{}, 1)
	lc <- local{"l"}
	b, _ := io.ReadAll(<-rc)
	return string(b) + (<-ec).Error() + (<-lc).(local).s
}

func Generic[T any, C ~chan T](c C, v T) T {
	go func() { c <- v }()
	x := <-c
	c <- x
	close(c)
	for y := range c {
		x = y
	}
	return x
}

func Selects(quit chan struct{}) int {
	a := make(chan int, 1)
	b := make(chan int, 4) // never full: at most 3 select sends and 1 plain send
	a <- 1
	total := 0
loop:
	for i := 0; i < 3; i++ {
		select {
		case v, ok := <-a:
			if ok {
				total += v
			}
			b <- 2
		case b <- 5:
			total += 100
		case v := <-b:
			total += v
		case <-time.After(time.Hour):
			break loop
		case <-quit:
			return -1
		}
	}
	select {
	case x := <-pick(
		a, // a comment inside a moved operand
		b,
	):
		total += x
	default:
	}
	select {
	default:
	}
label:
	select {
	case <-quit:
		break label
	default:
		total += 1000
	}
	return total
}

func pick(a, b chan int) chan int {
	if a == nil {
		panic("pick: nil channel")
	}
	return b
}

func Times() int {
	time.Sleep(time.Millisecond)
	t := time.NewTimer(time.Hour)
	if !t.Stop() {
		<-t.C
	}
	t.Reset(time.Millisecond)
	<-t.C
	tk := time.NewTicker(time.Millisecond)
	<-tk.C
	tk.Reset(2 * time.Millisecond)
	tk.Stop()
	done := make(chan int, 1)
	af := time.AfterFunc(time.Millisecond, func() { done <- 4 })
	defer af.Stop()
	<-time.After(time.Millisecond)
	_ = time.Tick
	return <-done
}

// Nested operations inside rewritten operands, and ranges whose operand is
// itself a receive.
func Nested() int {
	chch := make(chan chan int, 1)
	c := make(chan int, 2)
	chch <- c
	c <- 4
	other := make(chan int, 1)
	other <- 5
	c <- <-other
	close(c)
	s := 0
	for v := range <-chch {
		s += v
	}
	res := make(chan int, 1)
	go func(v int) { res <- v }(<-func() chan int { r := make(chan int, 1); r <- s; return r }())
	return <-res
}

type callback func()
type callbackCh chan func()

// DefinedFunc sends a value of a defined func type on a chan func().
func DefinedFunc() int {
	ch := make(callbackCh, 1)
	var f callback = func() {}
	ch <- f
	(<-ch)()
	return 1
}

type flag bool

// SendValues: a select evaluates every send's value on entry, in source
// order, before it chooses a case (the chosen one or default).
func SendValues() (string, flag) {
	order := ""
	note := func(s string) int { order += s; return len(order) }
	a := make(chan int, 1)
	b := make(chan int) // never ready
	f := make(chan flag, 1)
	x, y := 1, 1
	select {
	case b <- note("b"):
	case a <- note("a"):
	}
	select {
	case f <- x == y:
	}
	select {
	case a <- func() int {
		return note("l")
	}():
	default:
	}
	return order, <-f
}

// Lens: len of a channel, of any direction or named type, is a
// scheduling point; len of a slice or of a type parameter's channel, and
// cap, are left as written.
func Lens[C ~chan int](c C) int {
	ch := make(chan int, 3)
	ch <- 1
	var ro RecvOnly = ch
	var so chan<- int = ch
	var ic IntChan = ch
	s := []int{1}
	return len(ch) + len(ro) + len(so) + len(ic) + len(s) + len(c) + cap(ch)
}
