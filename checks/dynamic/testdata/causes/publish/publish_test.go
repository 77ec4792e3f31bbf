package publish

import "testing"

func TestNewReader(t *testing.T) {
	r := NewReader("direct")
	r.Wait()
}

func TestOpenAndReset(t *testing.T) {
	r := Open()
	r.Reset()
	r.Wait()
}
