package rt

import (
	"errors"
	"net"
	"sync/atomic"
	"syscall"
)

// Listen is net.Listen (rewritten). A listen that fails because the
// address is in use is told in the schedule's Result (AddrInUse), even
// when the program drops the error (EventBus's Start returns it, its test
// ignores it and serves a nil listener): a fixed port another process of
// the same test holds, as the driver's parallel workers do, is the tool's
// doing, not the test's.
func Listen(network, address string) (net.Listener, error) {
	l, err := net.Listen(network, address)
	if err != nil && errors.Is(err, syscall.EADDRINUSE) {
		addrInUse.Store(&address)
	}
	return l, err
}

// addrInUse is the address of the last listen of the schedule running
// that found it in use (nil: none); beginSchedule clears it.
var addrInUse atomic.Pointer[string]

// lastAddrInUse is addrInUse's address, "" when none.
func lastAddrInUse() string {
	if p := addrInUse.Load(); p != nil {
		return *p
	}
	return ""
}
