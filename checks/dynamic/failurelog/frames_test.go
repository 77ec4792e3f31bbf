package failurelog

import (
	"reflect"
	"testing"

	"github.com/interleave-dev/interleave/checks"
)

// TestFrames reads the frames of a runtime traceback and of a race
// detector's stack: arguments dropped, "created by" frames skipped.
func TestFrames(t *testing.T) {
	runtimeText := `goroutine 7 [chan send]:
example.com/m/p.(*T).send(0xc000010000, {0x1, 0x2})
	/w/p/p.go:12 +0x1d
example.com/m/p.TestT.func1()
	/w/p/p_test.go:30 +0x25 fp=0xc000 sp=0xc000 pc=0x4
created by example.com/m/p.TestT in goroutine 6
	/w/p/p_test.go:29 +0x4a`
	want := []checks.Frame{
		{Func: "example.com/m/p.(*T).send", File: "/w/p/p.go", Line: 12},
		{Func: "example.com/m/p.TestT.func1", File: "/w/p/p_test.go", Line: 30},
	}
	if got := Frames(runtimeText); !reflect.DeepEqual(got, want) {
		t.Errorf("runtime traceback:\n got %v\nwant %v", got, want)
	}
	raceText := `  example.com/m/p.(*T).inc()
      /w/p/p.go:20 +0x44
  example.com/m/p.TestRace.gowrap1()
      /w/p/p_test.go:41 +0x33`
	want = []checks.Frame{
		{Func: "example.com/m/p.(*T).inc", File: "/w/p/p.go", Line: 20},
		{Func: "example.com/m/p.TestRace.gowrap1", File: "/w/p/p_test.go", Line: 41},
	}
	if got := Frames(raceText); !reflect.DeepEqual(got, want) {
		t.Errorf("race detector stack:\n got %v\nwant %v", got, want)
	}
	// A generic function as the race detector names it: its type
	// arguments whole, package paths and all; kept as a traceback
	// writes them.
	genericText := `  example.com/m/interleavert.MapIter[go.shape.map[string]example.com/m/p.item,go.shape.string,go.shape.struct { example.com/m/p.obj interface {}; example.com/m/p.exp int64 }]()
      /w/interleavert/maprange.go:72 +0xa9
  example.com/m/interleavert.(*MapIt[go.shape.string,go.shape.func(int) string]).Next()
      /w/interleavert/maprange.go:120 +0x1d
  example.com/m/p.(*Store[...]).deleteExpired.func1()
      /w/p/p.go:135 +0x44`
	want = []checks.Frame{
		{Func: "example.com/m/interleavert.MapIter[...]", File: "/w/interleavert/maprange.go", Line: 72},
		{Func: "example.com/m/interleavert.(*MapIt[...]).Next", File: "/w/interleavert/maprange.go", Line: 120},
		{Func: "example.com/m/p.(*Store[...]).deleteExpired.func1", File: "/w/p/p.go", Line: 135},
	}
	if got := Frames(genericText); !reflect.DeepEqual(got, want) {
		t.Errorf("generic functions:\n got %v\nwant %v", got, want)
	}
}
