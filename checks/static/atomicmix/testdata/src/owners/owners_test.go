package owners

import "testing"

func TestReset(t *testing.T) {
	c := &Conn{}
	c.Send()
	reset(c)
}

// A test helper resetting between cases: IL3001 only.
func reset(c *Conn) {
	c.stats.sent = 0 // want `plain write of c\.stats\.sent races`
}
