package static

import "strings"

// Measured is a rule's precision on a held-out sample: of Of findings an
// independent reader judged, True were true.
type Measured struct {
	True, Of int
}

// Held-out precision of the default rules: every default finding on
// untuned real modules, judged by a reader who did not write the rules
// (issue 24: 32 of 52 true). This table is the only place these figures
// live; the README's rule table repeats them and a test keeps the two the
// same.
var Precision = map[string]Measured{
	"IL1004": {0, 3},
	"IL1005": {0, 5},
	"IL2001": {8, 11},
	"IL2002": {12, 12},
	"IL2003": {2, 2},
	"IL3002": {6, 11},
	"IL4003": {4, 8},
}

// The bar a rule's measured precision must clear for its findings to be
// posted on a pull request without a schedule confirming them.
const (
	PostPrecision = 0.9
	PostMinSample = 10
)

// PostedUnconfirmed reports whether a static finding of rule is posted as
// a review comment without confirmation: its measured precision is at
// least PostPrecision over at least PostMinSample findings. Rules of the
// tool itself (IL0xxx, suppression directives) are always posted.
func PostedUnconfirmed(rule string) bool {
	if strings.HasPrefix(rule, "IL0") {
		return true
	}
	m, ok := Precision[rule]
	return ok && m.Of >= PostMinSample && float64(m.True) >= PostPrecision*float64(m.Of)
}
