// Package suite stands in for testify's suite package (same module path,
// replaced in go.mod) with its way of running a suite: Run finds the
// suite's Test methods by reflection and runs each as a subtest through
// the runner interface a *testing.T satisfies, as testify's runTests does.
package suite

import (
	"reflect"
	"strings"
	"sync"
	"testing"
)

// Suite is embedded by a suite and holds its current *testing.T.
type Suite struct {
	mu sync.RWMutex
	t  *testing.T
}

// T is the suite's current *testing.T.
func (s *Suite) T() *testing.T {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.t
}

// SetT sets the suite's current *testing.T.
func (s *Suite) SetT(t *testing.T) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.t = t
}

// TestingSuite is what Run takes.
type TestingSuite interface {
	T() *testing.T
	SetT(*testing.T)
}

// SetupTestSuite has a SetupTest run before each test method.
type SetupTestSuite interface{ SetupTest() }

// Run runs every method of s whose name starts with "Test" as a subtest.
func Run(t *testing.T, s TestingSuite) {
	s.SetT(t)
	var tests []testing.InternalTest
	typ := reflect.TypeOf(s)
	for i := 0; i < typ.NumMethod(); i++ {
		method := typ.Method(i)
		if !strings.HasPrefix(method.Name, "Test") {
			continue
		}
		tests = append(tests, testing.InternalTest{
			Name: method.Name,
			F: func(t *testing.T) {
				parent := s.T()
				s.SetT(t)
				defer s.SetT(parent)
				if setup, ok := s.(SetupTestSuite); ok {
					setup.SetupTest()
				}
				method.Func.Call([]reflect.Value{reflect.ValueOf(s)})
			},
		})
	}
	runTests(t, tests)
}

func runTests(t testing.TB, tests []testing.InternalTest) {
	r, ok := t.(runner)
	if !ok {
		t.Fatal("not a runner")
	}
	for _, test := range tests {
		r.Run(test.Name, test.F)
	}
}

type runner interface {
	Run(name string, f func(t *testing.T)) bool
}
