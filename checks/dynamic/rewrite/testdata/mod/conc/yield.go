package conc

import (
	"runtime"
	"time"
)

// Only calls that get rewritten use these imports: they must be blanked.
func OnlyRewritten() {
	runtime.Gosched()
	time.Sleep(0)
}
