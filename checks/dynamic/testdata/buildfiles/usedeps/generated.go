//go:generate go run ./gen
// A directive on the first line, as in real modules (fasthttp's
// bytesconv.go): the line directive after a raised version must not land
// in front of it.

package usedeps

import "sync"

var genMu sync.Mutex

// Locked locks and unlocks genMu, so the rewriter instruments this file.
func Locked() {
	genMu.Lock()
	genMu.Unlock()
}
