package failurelog

import (
	"regexp"
	"strconv"
	"strings"
)

// A testify assertion prints the values it compared in one of two
// formats, by testify's version: before v1.2
//
//	Error:	Not equal: 1 (expected)
//		!= 0 (actual)
//
// and since
//
//	Error:	Not equal:
//		expected: 1
//		actual  : 0
//
// (a Diff: block may follow, after an empty line). Both sides of repro
// keep them: the log's failure and the search's finding (explore's
// message of a test failure holds the Error: field's lines).
var (
	tfOldValuesRE = regexp.MustCompile(`^(.*?:) (.*?) \(expected\) != (.*?) \(actual\)`)
	tfNewValuesRE = regexp.MustCompile(`^(.*?) ?expected: (.*?) actual ?: (.*?)(?: Diff: .*)?$`)
	// tfLabelRE is a line of testify's block that starts a field.
	tfLabelRE = regexp.MustCompile(`^(?:Error Trace|Error|Test|Messages):`)
)

// AssertionValues reads the expected and actual values of a testify
// assertion's Error: text (its lines, in either format); head is the text
// before them ("Not equal:"). Addresses are normalized and runs of white
// space are one space; numbers are kept, since they tell the failure.
func AssertionValues(text string) (head, expected, actual string, ok bool) {
	s := spaces(text)
	if m := tfOldValuesRE.FindStringSubmatch(s); m != nil {
		return m[1], m[2], m[3], true
	}
	if m := tfNewValuesRE.FindStringSubmatch(s); m != nil {
		return m[1], m[2], m[3], true
	}
	return "", "", "", false
}

// ErrorField returns the text of the Error: field of a testify block
// whose Error: line is lines[0], with the lines that continue it (none
// of testify's labels, up to an empty line or a Diff: block), trimmed and
// joined by newlines. more tells a line that may continue it.
func ErrorField(lines []string, more func(string) bool) string {
	first, _ := strings.CutPrefix(strings.TrimSpace(lines[0]), "Error:")
	out := []string{strings.TrimSpace(first)}
	for _, l := range lines[1:] {
		t := strings.TrimSpace(l)
		if t == "" || t == "Diff:" || tfLabelRE.MatchString(t) || !more(l) {
			break
		}
		out = append(out, t)
	}
	return strings.Join(out, "\n")
}

// valuesShown reports whether msg (a finding's message) shows expected
// and actual as a testify assertion prints them, in either format. When
// both are numbers, the actual one is a value measured (numbers.go): the
// finding's may differ, on the same side of expected as the log's.
func valuesShown(msg, expected, actual string) bool {
	s := spaces(msg)
	if plainNumRE.MatchString(expected) && plainNumRE.MatchString(actual) {
		e, _ := strconv.ParseFloat(expected, 64)
		a, _ := strconv.ParseFloat(actual, 64)
		q := regexp.QuoteMeta(expected)
		for _, re := range []*regexp.Regexp{
			regexp.MustCompile(`(?:^|[\s:])expected: ` + q + ` actual ?: (-?\d+(?:\.\d+)?)(?:$|: )`),
			regexp.MustCompile(`(?:^|[\s:])` + q + ` \(expected\) != (-?\d+(?:\.\d+)?) \(actual\)`),
		} {
			for _, m := range re.FindAllStringSubmatch(s, -1) {
				if g, err := strconv.ParseFloat(m[1], 64); err == nil && sameSide(a, g, []float64{e}) {
					return true
				}
			}
		}
		return false
	}
	for _, form := range []string{
		"expected: " + expected + " actual : " + actual,
		"expected: " + expected + " actual: " + actual,
		expected + " (expected) != " + actual + " (actual)",
	} {
		for rest := s; ; {
			i := strings.Index(rest, form)
			if i < 0 {
				break
			}
			// The value starts and ends there: the message ends, or
			// explore's ": " before the assertion's Messages, or old
			// testify's diff follows.
			after := rest[i+len(form):]
			starts := i == 0 || rest[i-1] == ' ' || rest[i-1] == ':'
			if starts && (after == "" || strings.HasPrefix(after, ": ") || strings.HasPrefix(after, " ") && strings.HasSuffix(form, "(actual)")) {
				return true
			}
			rest = rest[i+1:]
		}
	}
	return false
}

// spaces normalizes addresses and runs of white space as collapse does,
// keeping numbers.
func spaces(s string) string {
	return strings.Join(strings.Fields(hexRE.ReplaceAllString(s, "0x?")), " ")
}
