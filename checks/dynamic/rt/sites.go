// Sites: file:line of pending operations and decisions, resolved when needed.

package rt

import (
	"runtime"
	"strconv"
	"strings"
)

// siteOf returns file:line (full path) of the first user frame of g's
// pending operation.
//
//go:norace
func (s *sched) siteOf(g *gstate) string {
	for _, pc := range g.req.pcs {
		if pc == 0 {
			break
		}
		if site := s.siteAt(pc); site != "" {
			return site
		}
	}
	return ""
}

// siteAt returns file:line (full path) of pc if it is a user frame, else
// "", remembering the answer.
//
//go:norace
func (s *sched) siteAt(pc uintptr) string {
	site, ok := s.sites[pc]
	if !ok {
		site = userSite(pc)
		s.sites[pc] = site
	}
	return site
}

//go:norace
func (s *sched) shortSiteOf(g *gstate) string { return shortSite(s.siteOf(g)) }

// shortSite reduces "dir/file.go:12" to "file.go:12".
func shortSite(s string) string {
	if i := strings.LastIndexByte(s, '/'); i >= 0 {
		return s[i+1:]
	}
	return s
}

// needSites: does anything read the sites of candidates and decisions as
// they are made (a targeted strategy, a replay, a trace)? Otherwise they
// are resolved when the Result is built: resolving a new call site
// allocates, and a scheduling point must not (tests count allocations).
//
//go:norace
func (s *sched) needSites() bool {
	if s.replay != nil || s.cfg.Trace {
		return true
	}
	_, ok := s.strat.(*Targeted)
	return ok
}

// sitedDecision resolves the Site of decision i and returns it.
//
//go:norace
func (s *sched) sitedDecision(i int) Decision {
	d := &s.decisions[i]
	if d.Site == "" && i < len(s.decPCs) {
		for _, pc := range s.decPCs[i] {
			if pc == 0 {
				break
			}
			if site := s.siteAt(pc); site != "" {
				d.Site = shortSite(site)
				break
			}
		}
	}
	return *d
}

// rtPrefix is this package's import path followed by a dot.
var rtPrefix = func() string {
	pc, _, _, _ := runtime.Caller(0)
	name := runtime.FuncForPC(pc).Name()
	if i := strings.LastIndex(name, "."); i >= 0 {
		name = name[:i]
	}
	// name is "path/rt.glob..func1" style or "path/rt"; cut to the package.
	if i := strings.LastIndex(name, "/"); i >= 0 {
		if j := strings.Index(name[i:], "."); j >= 0 {
			name = name[:i+j]
		}
	}
	return name + "."
}()

// userSite returns "file:line" for a return address outside rt, runtime
// and testing, else "".
func userSite(pc uintptr) string {
	fr, _ := runtime.CallersFrames([]uintptr{pc}).Next()
	if !isUserFrame(fr) {
		return ""
	}
	return fr.File + ":" + strconv.Itoa(fr.Line)
}

// isUserFrame: rt's own test files count as user code (they play the
// program under test in rt's tests).
func isUserFrame(fr runtime.Frame) bool {
	if strings.HasSuffix(fr.File, "_test.go") && strings.HasPrefix(fr.Function, rtPrefix) {
		return true
	}
	return isUserFunc(fr.Function)
}

func isUserFunc(fn string) bool {
	if fn == "" || strings.HasPrefix(fn, rtPrefix) || strings.HasPrefix(fn, "runtime.") ||
		strings.HasPrefix(fn, "testing.") || strings.HasPrefix(fn, "reflect.") {
		return false
	}
	return true
}
