// Package suite runs a suite's Test methods as subtests, as testify's
// suite does: through an interface that *testing.T satisfies, from a
// dependency that starts no goroutine of its own.
package suite

import (
	"reflect"
	"strings"
	"testing"
)

// TestingSuite is a suite: it holds the test of the method running.
type TestingSuite interface {
	T() *testing.T
	SetT(*testing.T)
}

type runner interface {
	Run(name string, f func(t *testing.T)) bool
}

// Run runs each Test method of s as a subtest of t.
func Run(t *testing.T, s TestingSuite) {
	s.SetT(t)
	var tests []testing.InternalTest
	typ := reflect.TypeOf(s)
	for i := 0; i < typ.NumMethod(); i++ {
		m := typ.Method(i)
		if !strings.HasPrefix(m.Name, "Test") {
			continue
		}
		tests = append(tests, testing.InternalTest{Name: m.Name, F: func(t *testing.T) {
			parent := s.T()
			s.SetT(t)
			defer s.SetT(parent)
			m.Func.Call([]reflect.Value{reflect.ValueOf(s)})
		}})
	}
	runTests(t, tests)
}

func runTests(tb testing.TB, tests []testing.InternalTest) {
	r, ok := tb.(runner)
	if !ok {
		tb.Fatal("not a runner")
	}
	for _, test := range tests {
		r.Run(test.Name, test.F)
	}
}
