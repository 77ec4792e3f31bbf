// Sites: file:line of pending operations and decisions, resolved when needed.

package rt

import (
	"path/filepath"
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
	d := s.decisions.at(i)
	if d.Site == "" && i < s.decPCs.len() {
		for _, pc := range s.decPCs.at(i) {
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
// program under test in rt's tests). A closure of a generic rt function
// (OnceValue's) is named after the user function it is instantiated in
// ("pkg.F.OnceValue[...].func2"): its file tells it is rt's.
func isUserFrame(fr runtime.Frame) bool {
	if strings.HasSuffix(fr.File, "_test.go") && strings.HasPrefix(fr.Function, rtPrefix) {
		return true
	}
	if rtDir != "" && !strings.HasSuffix(fr.File, "_test.go") && filepath.Dir(fr.File) == rtDir {
		return false
	}
	return isUserFunc(fr.Function)
}

// rtDir is the directory of this package's files.
var rtDir = func() string {
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		return ""
	}
	return filepath.Dir(file)
}()

func isUserFunc(fn string) bool {
	if fn == "" || strings.HasPrefix(fn, rtPrefix) || strings.HasPrefix(fn, "runtime.") ||
		strings.HasPrefix(fn, "testing.") || strings.HasPrefix(fn, "reflect.") {
		return false
	}
	return true
}

// callFrame is one frame of a decision's stack, for callersOf.
type callFrame struct {
	site       string // short "file.go:12"
	user, test bool   // a user frame; in a _test.go file
}

// framesAt expands pc into its frames (inlined calls included), innermost
// first, remembering the answer.
//
//go:norace
func (s *sched) framesAt(pc uintptr) []callFrame {
	if fs, ok := s.pcFrames[pc]; ok {
		return fs
	}
	var fs []callFrame
	frames := runtime.CallersFrames([]uintptr{pc})
	for {
		fr, more := frames.Next()
		if fr.PC != 0 || fr.Function != "" {
			fs = append(fs, callFrame{site: shortSite(fr.File + ":" + strconv.Itoa(fr.Line)), user: isUserFrame(fr), test: strings.HasSuffix(fr.File, "_test.go")})
		}
		if !more {
			break
		}
	}
	if s.pcFrames == nil {
		s.pcFrames = map[uintptr][]callFrame{}
	}
	s.pcFrames[pc] = fs
	return fs
}

// callersOf returns the user frames that called decision i's Site, the
// innermost first and space-separated, up to the first in a test file
// (left out): the call path that tells two callers of one helper apart.
// It is bounded by the stack the decision recorded.
//
//go:norace
func (s *sched) callersOf(i int) string {
	if i >= s.decPCs.len() {
		return ""
	}
	var b strings.Builder
	sited := false
	for _, pc := range s.decPCs.at(i) {
		if pc == 0 {
			break
		}
		fs := s.framesAt(pc)
		if !sited {
			// The Site is the innermost frame of the first pc whose
			// innermost frame is a user frame (siteOf): its inlined
			// callers follow.
			if len(fs) == 0 || !fs[0].user {
				continue
			}
			sited, fs = true, fs[1:]
		}
		for _, f := range fs {
			if !f.user {
				continue
			}
			if f.test {
				return b.String()
			}
			if b.Len() > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(f.site)
		}
	}
	return b.String()
}

// addPaths sets the Path of the decisions of r where a preemption can be
// told: those that switch goroutines, and a goroutine's first operation
// after its start (the story folds the start into it); and of a select
// that took another case than its first ready one (Decision.First). A
// failure's, for grouping.
//
//go:norace
func (s *sched) addPaths(r *Result) {
	for i := 1; i < len(r.Decisions); i++ {
		if d, prev := r.Decisions[i], r.Decisions[i-1]; d.G != prev.G || prev.Op == "start" || d.First != nil {
			r.Decisions[i].Path = s.callersOf(i)
		}
	}
}
