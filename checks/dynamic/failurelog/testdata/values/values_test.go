package values

import (
	"fmt"
	"sync"
	"testing"
)

// equal fails t as testify's assert.Equal (v1.2 and later) does.
func equal(t *testing.T, expected, actual int) {
	t.Helper()
	if expected != actual {
		t.Errorf("\n\tError Trace:\tvalues_test.go:28\n\tError:      \tNot equal: \n\t            \texpected: %s\n\t            \tactual  : %s\n\tTest:       \t%s", fmt.Sprint(expected), fmt.Sprint(actual), t.Name())
	}
}

func TestAddTwice(t *testing.T) {
	var c Counter
	var wg sync.WaitGroup
	for i := 0; i < 2; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c.Add()
		}()
	}
	wg.Wait()
	equal(t, 2, c.Value())
}
