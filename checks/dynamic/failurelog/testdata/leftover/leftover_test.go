package leftover

import (
	"testing"
	"time"
)

// fakeClock stands still at noon; its Sleep is never meant to be called.
type fakeClock struct{}

func (fakeClock) Now() time.Time      { return time.Date(1970, 1, 1, 12, 0, 0, 0, time.UTC) }
func (fakeClock) Sleep(time.Duration) { panic("implement me") }

// TestNotYet checks that a job a minute ahead has not run; it never
// stops its scheduler.
func TestNotYet(t *testing.T) {
	c := fakeClock{}
	ran := make(chan bool, 1)
	Start(c, c.Now().Add(time.Minute), func() { ran <- true })
	time.Sleep(10 * time.Millisecond)
	select {
	case <-ran:
		t.Fatal("the job ran before its time")
	default:
	}
}
