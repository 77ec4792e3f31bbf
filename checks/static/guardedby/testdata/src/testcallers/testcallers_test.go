package testcallers

import "testing"

// Tests own their tables: they call the helper without the lock.
func TestReload(t *testing.T) {
	tb := NewTable()
	if err := tb.reload(map[string]int{"a": 1}); err != nil {
		t.Fatal(err)
	}
}
