// Package realsuite holds correct tests, one package per mechanism of the
// runtime model, that pass under plain `go test` (and -race) and that the
// controlled search once reported as failures: cancellation the scheduler
// cannot see (cancel), two clocks (clock, synctestuse; depclock, with the
// module clockdep, whose timers and clock reads the rewriter puts on the
// virtual clock), goroutines waiting in code that is not rewritten
// (outside, with the module dep, whose channel operations the rewriter
// leaves alone; leakcheck, with fakegoleak, a stand-in for
// go.uber.org/goleak, which it leaves alone entirely), long but finite tests (bound), loops that spin
// until a timer fires (spin), loops polling the clock for goroutines they
// just started (pollstart), time.AfterFunc without a happens-before edge
// (afterfunc), sync operations used as values (methodvalue), range over
// a channel in a file older than go1.23 (oldrange), a controlled sender
// whose receiver polls outside control (poller), a receiver blocked for
// real while the test waited outside control, then spun (spinrecall), a
// controlled select replying to a receiver outside control and a timer
// that must fire while the test waits for such a poller (foreignreply), tests counting
// allocations (allocs) or goroutines (numgoroutine), a pool of timers
// that outlive their schedule (timerpool) and a timeout around a round
// trip through a real TCP connection (realio), more goroutines waiting
// for their turn than the program may have OS threads (threads),
// channels serving blocked goroutines first in, first out (chanfifo),
// goroutines a dependency started polling the program's state in a loop,
// more of them than there are processors (foreignspin), 1500 workers each
// waiting on a channel of its own (manywaiters), a select's send case
// ordered after the receive it completes (selectsend), a test reading its
// own stack (ownstack), goroutines sleeping on a dependency's mock clock
// while it naps (mocknap, with the module example.com/mockclock), and
// testify's Eventually waiting for a job on a timer (eventually, with
// faketestify, a stand-in for github.com/stretchr/testify, whose time
// operations the rewriter puts on the virtual clock), a table's stats
// reading every slot of a presized table once (scan), and a server that
// clockdep starts outside control, polled for on the virtual clock while
// it works for real (serverready).
// explore/realsuite_rt_test.go searches each and wants no finding.
package realsuite
