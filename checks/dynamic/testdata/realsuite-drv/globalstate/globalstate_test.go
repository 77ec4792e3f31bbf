// Package globalstate registers a driver in database/sql's process-wide
// registry: go test runs it once per process, a search many times in one.
package globalstate

import (
	"database/sql"
	"database/sql/driver"
	"sync"
	"testing"
)

func TestRegisterHandler(t *testing.T) {
	var mu sync.Mutex
	hits := 0
	sql.Register("globalstate/bus", busDriver(func() {
		mu.Lock()
		hits++
		mu.Unlock()
	}))
	done := make(chan struct{})
	go func() {
		mu.Lock()
		hits = 0
		mu.Unlock()
		close(done)
	}()
	<-done
}

// busDriver counts the connections opened through it and opens none.
type busDriver func()

func (f busDriver) Open(string) (driver.Conn, error) {
	f()
	return nil, driver.ErrBadConn
}
