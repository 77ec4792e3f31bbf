// Package old is written in Go 1.22: no range-over-func, so a range over a
// channel stays as written (with a warning); everything else is rewritten.
package old

func Sum(ch chan int) int {
	s := 0
	for v := range ch {
		s += v
	}
	return s
}

func Fill(ch chan int, n int) {
	for i := 0; i < n; i++ {
		ch <- i
	}
	close(ch)
}

// Goto jumps to a labeled select: the select stays as written.
func Goto(ch chan int) int {
	n := 0
L:
	select {
	case v := <-ch:
		n += v
		if n < 3 {
			goto L
		}
	}
	return n
}
