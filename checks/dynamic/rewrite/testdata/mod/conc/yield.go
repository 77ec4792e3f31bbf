package conc

import (
	"context"
	"runtime"
	"time"
)

// Only calls that get rewritten use these imports: they must be blanked.
func OnlyRewritten() {
	runtime.Gosched()
	time.Sleep(0)
}

// The function joins the schedule (rt's ContextAfterFunc).
func Watch(ctx context.Context, f func()) (stop func() bool) {
	return context.AfterFunc(ctx, f)
}
