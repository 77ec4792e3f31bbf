package atomicmix

import (
	"go/ast"
	"testing"
)

func TestStopsWorld(t *testing.T) {
	for doc, want := range map[string]bool{
		"Store.gc.mu is held and every execution but the caller is parked, so no wasm stack can move.": true,
		"All other threads are stopped while it runs.":                                                 true,
		"It runs in a stop-the-world pause.":                                                           true,
		"sweep runs with the world stopped.":                                                           true,
		"Every worker is parked on the channel until work arrives.":                                    false,
		"reset stops the timer.":                                                                       false,
		"All callers must hold mu.":                                                                    false,
	} {
		cg := &ast.CommentGroup{List: []*ast.Comment{{Text: "// " + doc}}}
		if got := stopsWorld(cg); got != want {
			t.Errorf("stopsWorld(%q) = %v, want %v", doc, got, want)
		}
	}
}
