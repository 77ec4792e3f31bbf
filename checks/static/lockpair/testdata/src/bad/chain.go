package bad

import "sync"

type node struct {
	sync.Mutex
	parent *node
	open   int
	ended  bool
}

// sendUntil walks up the chain hand over hand; stopping at stop forgets
// to unlock the current node.
func (n *node) sendUntil(stop *node) {
	cur := n
	cur.Lock()
	for {
		if cur.open == 0 && cur.ended {
			cur.Unlock()
			return
		}
		if cur == stop {
			return // want `cur.Mutex locked at line 16 is still held at this return, but released before 1 other return\(s\)`
		}
		next := cur.parent
		cur.Unlock()
		cur = next
		cur.Lock()
		cur.open--
	}
}
