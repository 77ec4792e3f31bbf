package instance

import "sync"

// mountTable: a node's mount is the table it belongs to; for a mount
// point, mount and mountPoint are the same table (graft sets one from
// the other).
type mountTable struct {
	treeLock sync.Mutex
	parent   *node
}

type node struct {
	mount      *mountTable
	mountPoint *mountTable
	children   map[string]*node
}

func (n *node) graft(m *mountTable) {
	n.mountPoint = m
	n.mount = n.mountPoint
}

// Unmount locks the parent's table, then its own through mount, and
// releases and re-takes its own through mountPoint: the same lock, in
// the same order both times.
func Unmount(n *node, name string) {
	parent := n.mountPoint.parent
	parent.mount.treeLock.Lock()
	defer parent.mount.treeLock.Unlock()

	mp := n.mountPoint
	n.mount.treeLock.Lock()
	defer n.mount.treeLock.Unlock()
	delete(parent.children, name)

	mp.treeLock.Unlock()
	parent.mount.treeLock.Unlock()
	notify()
	parent.mount.treeLock.Lock()
	mp.treeLock.Lock()
	n.mountPoint = nil
}

func notify() {}

// Detach releases through another field that nothing assigns from the
// one it locked: not an alias, so it still holds it.home.lockA.
type shelf struct {
	lockA sync.Mutex
}

type item struct {
	home  *shelf
	spare *shelf
	owner *item
}

func Detach(it *item) {
	it.owner.home.lockA.Lock()
	it.home.lockA.Lock() // want `it.home.lockA acquired while holding it.owner.home.lockA in Detach, and it.owner.home.lockA while holding it.home.lockA in Detach`
	it.spare.lockA.Unlock()
	it.owner.home.lockA.Unlock()
	it.owner.home.lockA.Lock()
	it.home.lockA.Unlock()
	it.owner.home.lockA.Unlock()
}
