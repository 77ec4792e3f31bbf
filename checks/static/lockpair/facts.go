package lockpair

import (
	"strings"
)

// lockFact is exported for a function that acquires, keeps or releases
// locks its caller can name (through a parameter, the receiver or a
// package variable), so callers in other packages see through the call.
type lockFact struct {
	Acquires   []AbsLock // locked (and, unless in Holds, released) on every returning path
	Holds      []AbsLock // still held at every return
	Releases   []AbsLock // released from the caller's state on every return
	MayRelease []AbsLock // released on some path
}

// AFact implements analysis.Fact.AFact.
func (*lockFact) AFact() {}

func (f *lockFact) String() string {
	var parts []string
	add := func(verb string, ls []AbsLock) {
		if len(ls) == 0 {
			return
		}
		var names []string
		for _, l := range ls {
			n := l.Name
			if l.Mode == Read {
				n += " (read)"
			}
			names = append(names, n)
		}
		parts = append(parts, verb+" "+strings.Join(names, ", "))
	}
	add("acquires", f.Acquires)
	add("holds", f.Holds)
	add("releases", f.Releases)
	return strings.Join(parts, "; ")
}

func (s *summary) empty() bool {
	return len(s.acquires) == 0 && len(s.holds) == 0 && len(s.releases) == 0
}

func (s *summary) fact() *lockFact {
	return &lockFact{Acquires: s.acquires, Holds: s.holds, Releases: s.releases, MayRelease: s.mayRelease}
}

func (f *lockFact) summary() *summary {
	return &summary{acquires: f.Acquires, holds: f.Holds, releases: f.Releases, mayRelease: f.MayRelease}
}
