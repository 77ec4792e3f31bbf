package rt

import "testing"

func TestCutBlock(t *testing.T) {
	dump := []byte("goroutine 1 [running]:\nmain.f()\n\ngoroutine 2 [chan receive]:\nmain.g()\n\ngoroutine 3 [sleep]:\nmain.h()\n")
	var got []string
	for len(dump) > 0 {
		var block []byte
		block, dump = cutBlock(dump)
		got = append(got, string(block))
	}
	want := []string{"goroutine 1 [running]:\nmain.f()", "goroutine 2 [chan receive]:\nmain.g()", "goroutine 3 [sleep]:\nmain.h()\n"}
	if len(got) != len(want) {
		t.Fatalf("got %d blocks %q, want %q", len(got), got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("block %d = %q, want %q", i, got[i], want[i])
		}
	}
}

func TestBlockHeader(t *testing.T) {
	for _, c := range []struct {
		block string
		id    uint64
		state string
		ok    bool
	}{
		{"goroutine 7 [chan receive, 2 minutes]:\nmain.f()", 7, "chan receive", true},
		{"goroutine 12 [syscall, locked to thread]:", 12, "syscall", true},
		{"goroutine 3 [running]:", 3, "running", true},
		{"goroutine x [running]:", 0, "", false},
		{"goroutine  [running]:", 0, "", false},
		{"goroutine 3:", 0, "", false},
		{"main.f()\n\t/x.go:1", 0, "", false},
	} {
		id, state, ok := blockHeader([]byte(c.block))
		if id != c.id || string(state) != c.state || ok != c.ok {
			t.Errorf("blockHeader(%q) = %d, %q, %t; want %d, %q, %t", c.block, id, state, ok, c.id, c.state, c.ok)
		}
	}
	if got := firstFrame([]byte("goroutine 3 [chan send]:\nruntime.gopark(...)\n\t/r.go:1\nio.(*pipe).write(0x1)\n\t/p.go:2")); string(got) != "io.(*pipe).write(0x1)" {
		t.Errorf("firstFrame = %q, want the first frame outside the runtime", got)
	}
}
