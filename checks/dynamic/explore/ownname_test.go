package explore

import "testing"

// The testing package's own messages name the driver's subtest of the
// schedule; a finding names the test, as go test would.
func TestOwnTestName(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ msg, want string }{
		{"panic: Fail in goroutine after TestInterleaveDriver/schedule-281474976710659/no_option,_defaults_to_10 has completed",
			"panic: Fail in goroutine after TestSlack/no_option,_defaults_to_10 has completed"},
		{"panic: Log in goroutine after TestInterleaveDriver/schedule-0 has completed: done",
			"panic: Log in goroutine after TestSlack has completed: done"},
		{"panic: boom", "panic: boom"},
	} {
		if got := ownTestName(c.msg, "TestSlack"); got != c.want {
			t.Errorf("ownTestName(%q) = %q, want %q", c.msg, got, c.want)
		}
	}
	f := makeFinding(&failure{kind: "panic", message: "panic: Fail in goroutine after TestInterleaveDriver/schedule-3/a has completed"}, "p", "TestX", "")
	if want := "TestX: panic: Fail in goroutine after TestX/a has completed"; f.Message != want {
		t.Errorf("finding message %q, want %q", f.Message, want)
	}
}
