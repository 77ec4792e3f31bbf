package rt

import "time"

// The scheduler's own readings of real time (its waits, the watchdog,
// when a goroutine went outside control). time.Now reads the variable
// time.Local, which a test may set (timberjack's TestLocalTime sets it
// to UTC): the race detector then reports the scheduler's read, which no
// hand-off orders, against the test's write. monoNow reads the monotonic
// clock only: time.Since of a time that has a monotonic reading does not
// touch time.Local, and Add keeps the location of monoBase, read once at
// init, before any test runs.

var monoBase = time.Now()

// monoNow is time.Now for the scheduler's own use: the same monotonic and
// wall readings, without reading time.Local.
func monoNow() time.Time { return monoBase.Add(time.Since(monoBase)) }
