package rt

import "testing"

func TestGoroutineAt(t *testing.T) {
	dump := "goroutine 7 [running]:\n" +
		"example.com/p.spin(...)\n\t/src/p/p_test.go:9 +0x1d\n" +
		"testing.tRunner(0xc0001, 0x5)\n\t" + stdSrc + "testing/testing.go:1934 +0x93\n\n" +
		"goroutine 12 [IO wait, 2 minutes]:\n" +
		"internal/poll.runtime_pollWait(0x7f, 0x72)\n\t" + stdSrc + "runtime/netpoll.go:351 +0x85\n" +
		"os.(*File).Read(0xc000, {0xc00, 0x1, 0x1})\n\t" + stdSrc + "os/file.go:144 +0x4f\n" +
		"example.com/p.TestRead(0xc0002)\n\t/src/p/p_test.go:24 +0x8a\n\n" +
		"goroutine 120 [select]:\n" +
		"example.com/p.other()\n\t/src/p/p.go:3 +0x1\n"
	tests := []struct {
		gid         uint64
		state, site string
	}{
		{7, "running", "/src/p/p_test.go:9"},
		{12, "IO wait", "/src/p/p_test.go:24"},
		{120, "select", "/src/p/p.go:3"},
		{1, "", ""}, // not in the dump; must not match goroutine 12 or 120
	}
	for _, tt := range tests {
		state, site, stack := goroutineAt(dump, tt.gid)
		if state != tt.state || site != tt.site {
			t.Errorf("goroutine %d: got %q at %q, want %q at %q (stack %q)", tt.gid, state, site, tt.state, tt.site, stack)
		}
	}
	if stdSrc == "" {
		t.Error("stdSrc is empty: standard library frames cannot be told from user frames")
	}
	if got := stuckWhy("IO wait"); got != "IO wait: blocked outside the scheduler's control" {
		t.Errorf("stuckWhy(IO wait) = %q", got)
	}
}
