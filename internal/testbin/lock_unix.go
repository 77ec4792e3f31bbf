//go:build unix

package testbin

import (
	"errors"
	"os"
	"syscall"
)

const canLock = true

// tryLock takes an exclusive lock on the file path (made if missing), or
// returns errBusy when another holds it.
func tryLock(path string) (func(), error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o666)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, errBusy
		}
		return nil, err
	}
	return func() { f.Close() }, nil // closing releases the lock
}
