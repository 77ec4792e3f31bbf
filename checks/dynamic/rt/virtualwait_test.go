package rt

import "testing"

// TestVirtualClockBlock: a goroutine blocked on a channel in a dependency
// (whose time operations are rewritten) can only be woken by the program;
// one in the standard library or a kept test framework (goleak) may wait
// for a real timer.
func TestVirtualClockBlock(t *testing.T) {
	for block, want := range map[string]bool{
		"goroutine 9 [chan receive]:\nruntime.gopark(0x0?, 0x0?, 0x0?, 0x0?, 0x0?)\n\t/usr/local/go/src/runtime/proc.go:435 +0xce\nruntime.chanrecv1(0x0?, 0x0?)\n\t/usr/local/go/src/runtime/chan.go:506 +0x12\ngithub.com/benbjohnson/clock.(*Mock).Sleep(0xc000010000, 0x3b9aca00)\n\t/root/go/pkg/mod/github.com/benbjohnson/clock@v1.3.0/clock.go:194 +0x25":                                                                    true,
		"goroutine 7 [select]:\nruntime.gopark(0x0?, 0x0?, 0x0?, 0x0?, 0x0?)\n\t/usr/local/go/src/runtime/proc.go:435 +0xce\nruntime.selectgo(0x0?, 0x0?, 0x0?, 0x0?, 0x0?, 0x0?)\n\t/usr/local/go/src/runtime/select.go:351 +0x837\ngithub.com/stretchr/testify/assert.Eventually({0x0, 0x0}, 0x0, 0x3b9aca00, 0x4c4b40, {0x0, 0x0, 0x0})\n\t/root/go/pkg/mod/github.com/stretchr/testify@v1.11.1/assert/assertions.go:2008 +0x2a5": true, // testify's time is rewritten
		"goroutine 5 [chan receive]:\nruntime.gopark(0x0?, 0x0?, 0x0?, 0x0?, 0x0?)\n\t/usr/local/go/src/runtime/proc.go:435 +0xce\ntesting.(*T).Run(0xc000003340, {0x0, 0x0}, 0x0)\n\t/usr/local/go/src/testing/testing.go:2101 +0x4c5":                                                                                                                                                                                              false,
		"goroutine 6 [chan receive]:\nruntime.gopark(0x0?, 0x0?, 0x0?, 0x0?, 0x0?)\n\t/usr/local/go/src/runtime/proc.go:435 +0xce\ngo.uber.org/goleak.Find({0x0, 0x0, 0x0})\n\t/x/goleak/leaks.go:1 +0x1":                                                                                                                                                                                                                            false,
		"goroutine 8 [chan send]:\nruntime.gopark(0x0?, 0x0?, 0x0?, 0x0?, 0x0?)\n\t/usr/local/go/src/runtime/proc.go:435 +0xce\ngopkg.in/yaml%2ev3.(*parser).parse(0x0)\n\t/x/yaml/parse.go:1 +0x1":                                                                                                                                                                                                                                  true,
		"goroutine 4 [select]:\nruntime.gopark(0x0?, 0x0?, 0x0?, 0x0?, 0x0?)\n\t/usr/local/go/src/runtime/proc.go:435 +0xce\nclockdep.(*Mock).Sleep(0x0)\n\t/x/clockdep/mock.go:1 +0x1":                                                                                                                                                                                                                                              false,
	} {
		if got := virtualClockBlock([]byte(block)); got != want {
			t.Errorf("virtualClockBlock(%.80q…) = %v, want %v", block[20:], got, want)
		}
	}
}
