package selflock

import (
	"errors"
	"sync"
)

// Switch is a node of a virtual network: a parent switch wires children
// into itself while it holds its own mutex.
type Switch struct {
	mutex    sync.RWMutex
	uplink   *Switch
	ports    map[string]string
	children []*Switch
}

// port read-locks the switch's own mutex.
func (s *Switch) port(name string) (string, error) {
	s.mutex.RLock()
	defer s.mutex.RUnlock()
	p, ok := s.ports[name]
	if !ok {
		return "", errors.New("no port " + name)
	}
	return p, nil
}

// attach wires s under up; caller must hold the mutex.
// (It means up's mutex: s.port read-locks s's own, so holding s.mutex
// here would deadlock.)
func (s *Switch) attach(up *Switch) error {
	s.uplink = up
	_, err := s.port("uplink")
	return err
}

// Plug adds a child switch under s.
func (s *Switch) Plug(child *Switch) error {
	s.mutex.Lock()
	defer s.mutex.Unlock()
	if err := child.attach(s); err != nil { // ok: attach locks child.mutex itself
		return err
	}
	s.children = append(s.children, child)
	return nil
}

// detach clears the uplink; caller must hold the mutex.
func (s *Switch) detach() {
	s.uplink = nil
}

// Unplug calls detach on the child without the child's mutex: detach
// takes no lock of its own, so the requirement stands.
func (s *Switch) Unplug(child *Switch) {
	s.mutex.Lock()
	defer s.mutex.Unlock()
	child.detach() // want `call to child\.detach without holding child\.mutex`
}

// rewire drops the lock around a slow step and takes it back; caller
// must hold the mutex. It releases before it locks: it does expect the
// receiver's mutex held.
func (s *Switch) rewire(up *Switch) {
	s.mutex.Unlock()
	_, _ = up.port("uplink")
	s.mutex.Lock()
	s.uplink = up
}

func (s *Switch) Rewire(up *Switch) {
	s.rewire(up) // want `call to s\.rewire without holding s\.mutex`
}

// relink locks the uplink's mutex, another instance; caller must hold
// the mutex.
func (s *Switch) relink(up *Switch) {
	_, _ = up.port("uplink")
	s.uplink = up
}

func (s *Switch) Relink(up *Switch) {
	s.relink(up) // want `call to s\.relink without holding s\.mutex`
}
