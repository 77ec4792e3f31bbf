// go test's -run for subtests: the pattern split and matched level by level as go test does.

package rt

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
)

// RunFilter is a go test -run pattern read as go test reads it: split at
// each | outside brackets and parentheses into alternatives, each split at
// / likewise into elements. A test or subtest named "A/B/C" is selected
// when, for some alternative, each element the alternative has for a level
// of the name matches the name's element there (unanchored); levels beyond
// the alternative's elements are all selected.
type RunFilter struct {
	src   string     // the pattern as given
	alts  [][]string // the elements' source, spaces rewritten as go test does
	match [][]*regexp.Regexp
}

// ParseRun reads pattern as go test's -run; the error names the element
// that does not compile.
func ParseRun(pattern string) (*RunFilter, error) {
	f := &RunFilter{src: pattern}
	for _, alt := range splitRun(pattern) {
		var res []*regexp.Regexp
		for i, el := range alt {
			alt[i] = subtestName(el)
			re, err := regexp.Compile(alt[i])
			if err != nil {
				return nil, fmt.Errorf("element %d of %q (%q): %v", i, pattern, el, err)
			}
			res = append(res, re)
		}
		f.alts = append(f.alts, alt)
		f.match = append(f.match, res)
	}
	return f, nil
}

// splitRun is testing's splitRegexp: the alternatives, each its elements.
func splitRun(s string) [][]string {
	var alts [][]string
	var alt []string
	brackets, parens := 0, 0
	for i := 0; i < len(s); {
		switch s[i] {
		case '[':
			brackets++
		case ']':
			if brackets--; brackets < 0 { // an unmatched ']' is legal
				brackets = 0
			}
		case '(':
			if brackets == 0 {
				parens++
			}
		case ')':
			if brackets == 0 {
				parens--
			}
		case '\\':
			i++
		case '/', '|':
			if brackets == 0 && parens == 0 {
				alt = append(alt, s[:i])
				if s[i] == '|' {
					alts, alt = append(alts, alt), nil
				}
				s, i = s[i+1:], 0
				continue
			}
		}
		i++
	}
	return append(alts, append(alt, s))
}

// MustParseRun is ParseRun of a pattern already checked; it panics on a bad
// one.
func MustParseRun(pattern string) *RunFilter {
	f, err := ParseRun(pattern)
	if err != nil {
		panic("interleave: " + err.Error())
	}
	return f
}

// String is the pattern as given.
func (f *RunFilter) String() string { return f.src }

// Subtests reports whether the pattern selects among subtests: some
// alternative has an element past the test's name.
func (f *RunFilter) Subtests() bool {
	for _, alt := range f.alts {
		if len(alt) > 1 {
			return true
		}
	}
	return false
}

// Matches reports whether the test or subtest whose name's elements are
// name is selected.
func (f *RunFilter) Matches(name ...string) bool {
	for _, alt := range f.match {
		ok := true
		for i, el := range name {
			if i >= len(alt) {
				break
			}
			if !alt[i].MatchString(el) {
				ok = false
				break
			}
		}
		if ok {
			return true
		}
	}
	return false
}

// Alternatives is the pattern's alternatives, each its elements joined by
// "/" (spaces rewritten as go test does).
func (f *RunFilter) Alternatives() []string {
	out := make([]string, len(f.alts))
	for i, alt := range f.alts {
		out[i] = strings.Join(alt, "/")
	}
	return out
}

// Skips reports whether go test's -skip, read as f, leaves out the test or
// subtest whose name's elements are name: the first alternative that
// matches name's elements matches all of its own (one with more elements
// than name only matches partly, and go test then skips none of name but
// looks again at its subtests).
func (f *RunFilter) Skips(name ...string) bool {
	for k, alt := range f.match {
		if (&RunFilter{match: f.match[k : k+1]}).Matches(name...) {
			return len(name) >= len(alt)
		}
	}
	return false
}

// Under is what the pattern selects below the (sub)test whose name's
// elements are prefix: the remaining elements of each alternative that
// selects prefix, joined by "/"; all when one of them selects every
// subtest below it. Neither when no alternative selects prefix.
func (f *RunFilter) Under(prefix ...string) (rest []string, all bool) {
	for k, alt := range f.alts {
		if !(&RunFilter{match: f.match[k : k+1]}).Matches(prefix...) {
			continue
		}
		if len(alt) <= len(prefix) {
			return nil, true
		}
		rest = append(rest, strings.Join(alt[len(prefix):], "/"))
	}
	return rest, false
}

// runSelected reports whether t.Run(name, …) of a controlled goroutine runs
// its subtest under Config.Run and Config.Skip, as go test's t.Run would
// (go test's t.Run of a subtest -run or -skip leaves out returns true
// without running it).
//
//go:norace
func runSelected(t *testing.T, name string) bool {
	s := active
	if s == nil || s.runFilter == nil && s.skipFilter == nil {
		return true
	}
	elems := strings.Split(TestName(t)+"/"+subtestName(name), "/")
	return (s.runFilter == nil || s.runFilter.Matches(elems...)) && (s.skipFilter == nil || !s.skipFilter.Skips(elems...))
}
