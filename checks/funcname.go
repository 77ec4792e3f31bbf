package checks

import (
	"regexp"
	"slices"
	"strings"
)

// closureSegRE matches the segments of a function name that name a closure
// ("func1") or a closure in it ("3").
var closureSegRE = regexp.MustCompile(`^(func)?\d+$`)

// OwnFunc returns a closure's name without the functions that the
// function holding it was inlined into, so that one closure of the source
// has one name. Go names a closure compiled into an inlined copy of its
// function after the caller too: zap's lazy core wrote at one line of one
// closure as "zapcore.(*lazyWithCore).With.(*lazyWithCore).initOnce.func1"
// in one race and as "….Check.(*lazyWithCore).initOnce.func1" in another;
// "m.TestX.func3.TestX.func2.1" is TestX.func2's closure; inlined into a
// closure, "m.TestA.func1.(*L).Warm.(*L).init.1" is (*L).init's "func1".
// The closure's own function is the last named segment before its
// trailing closure segments, with its pointer receiver; a value receiver
// cannot be told from a caller, so "m.T.M.func1" is "m.M.func1" (as is
// M's closure inlined anywhere). The result is a key for grouping, not a
// name to show. Functions that are not closures keep their names: an
// inlined call's frame has its own.
func OwnFunc(fn string) string {
	// A symbol escapes the dots of its package path's last element
	// ("yaml%2ev3"): the package ends at the first dot after the last
	// slash.
	slash := strings.LastIndexByte(fn, '/') + 1
	dot := strings.IndexByte(fn[slash:], '.')
	if dot < 0 {
		return fn
	}
	pkg, segs := fn[:slash+dot], splitName(fn[slash+dot+1:])
	// The closure's segments are the trailing run of "funcN" and "N".
	start := len(segs)
	for start > 0 && closureSegRE.MatchString(segs[start-1]) {
		start--
	}
	if start == len(segs) || start < 2 {
		return fn // not a closure, or one of a function not inlined
	}
	own := start - 1
	if own > 0 && strings.HasPrefix(segs[own-1], "(") {
		own--
	}
	out := slices.Clone(segs[own:])
	if first := start - own; !strings.HasPrefix(out[first], "func") {
		// Inlined into a closure, the closure is numbered "N", not "funcN".
		out[first] = "func" + out[first]
	}
	return pkg + "." + strings.Join(out, ".")
}

// splitName splits a function name after its package at the dots outside
// parentheses and brackets ("(*T).M", "F[go.shape.int]").
func splitName(s string) []string {
	var out []string
	depth, from := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(', '[':
			depth++
		case ')', ']':
			depth--
		case '.':
			if depth == 0 {
				out = append(out, s[from:i])
				from = i + 1
			}
		}
	}
	return append(out, s[from:])
}
