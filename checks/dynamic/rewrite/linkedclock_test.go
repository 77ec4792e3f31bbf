package rewrite

import (
	"go/parser"
	"go/token"
	"strings"
	"testing"
)

// TestLinkedClock: a declaration without a body linked by name to the
// runtime's time.now or nanotime (go-limiter's fasttime) reads the
// scheduler's clock instead, its //go:linkname and //go:noescape lines
// kept only as comments, in a module package and in a dependency (time
// operations only); one linked to another function, or with another
// signature, stays as written.
func TestLinkedClock(t *testing.T) {
	const src = `package p

import (
	_ "unsafe"
)

//go:noescape
//go:linkname now time.now
func now() (sec int64, nsec int32, mono int64)

//go:linkname nanotime runtime.nanotime
func nanotime() int64

//go:linkname fastrand runtime.fastrand
func fastrand() uint32

//go:linkname walltime time.now
func walltime() (sec int64, nsec int32)

func Now() uint64 { sec, nsec, _ := now(); return uint64(sec)*1e9 + uint64(nsec) + uint64(nanotime()) + uint64(fastrand()) }
`
	for _, timeOnly := range []bool{false, true} {
		p, f := checkedFile(t, "p.go", src)
		out, _, changed, err := rewriteFileMode(p, f, []byte(src), "example.com/rt", timeOnly)
		if err != nil || !changed {
			t.Fatalf("time only %v: changed %v, err %v", timeOnly, changed, err)
		}
		got := string(out)
		for _, want := range []string{
			"func now() (sec int64, nsec int32, mono int64) { return " + rtp + "LinkedTimeNow() }",
			"func nanotime() int64 { return " + rtp + "LinkedNanotime() }",
			"//go:linkname fastrand runtime.fastrand\nfunc fastrand() uint32\n",
			"//go:linkname walltime time.now\nfunc walltime() (sec int64, nsec int32)\n",
		} {
			if !strings.Contains(got, want) {
				t.Errorf("time only %v: no %q in\n%s", timeOnly, want, got)
			}
		}
		for _, gone := range []string{"//go:linkname now time.now", "//go:noescape", "//go:linkname nanotime runtime.nanotime"} {
			if strings.Contains(got, gone) {
				t.Errorf("time only %v: %q left in\n%s", timeOnly, gone, got)
			}
		}
		if _, err := parser.ParseFile(token.NewFileSet(), "p.go", out, 0); err != nil {
			t.Errorf("%v\n%s", err, got)
		}
	}
}
