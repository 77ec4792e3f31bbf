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
