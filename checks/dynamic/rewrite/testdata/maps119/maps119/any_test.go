package maps119

import "testing"

func TestAny(t *testing.T) {
	if Any(map[interface{}]int{1: 1, "a": 2}, map[pair]int{{"ab", 1}: 0}) != 5 || Sum(map[string]int{"a": 1}) != 2 {
		t.Error("Any or Sum")
	}
	m := map[interface{}]int{}
	Put(m, new(int))
	if Any(m, nil) != 1 {
		t.Error("Put")
	}
}
