package failurelog

import (
	"regexp"
	"strconv"
	"strings"
)

// The numbers of a test's failure message. "count = 29999, want 30001"
// and "count = 29998, want 30001" are the same failure to a developer:
// the same assertion at the same line, where the count measured varies
// from run to run. "count = 30002, want 30001" (too many, not too few)
// or "want 30000" (another expectation) are not, and neither is "case 4:"
// for "case 3:" (another row of a table). So each number of the log's
// message plays a role, read from the word before it:
//
//   - observed: after got, have, actual, is, ... or "name = " (Go's
//     "f(x) = y, want z"): the value measured, which may differ as long
//     as it stays on the same side of each expected number as the log's;
//   - expected: after want, expected, should be, ...: must agree;
//   - any other (an index, a size, a case): must agree.
//
// testify's expected and actual values follow the same rule (sameSide).
type numRole int

const (
	numFixed numRole = iota
	numObserved
	numExpected
)

// msgNumber is one number of a message and its role.
type msgNumber struct {
	text string
	val  float64
	role numRole
}

var (
	// numRE is a number of a message: digits, a fraction, and a sign
	// when it stands alone ("-1", not the "-" of "5-3").
	numRE  = regexp.MustCompile(`(?:^|[^0-9A-Za-z_.])(-?\d+(?:\.\d+)?)`)
	wordRE = regexp.MustCompile(`[A-Za-z_]+`)
	// assignRE ends the text before an observed number in Go's style
	// "len(x) = 3": an "=" after a space.
	assignRE = regexp.MustCompile(`\s[:!<>]?=\s*$`)
	// plainNumRE is a value that is one number (a testify value).
	plainNumRE = regexp.MustCompile(`^-?\d+(?:\.\d+)?$`)
)

var (
	observedWords = map[string]bool{"got": true, "gotten": true, "have": true, "has": true, "had": true,
		"actual": true, "actually": true, "is": true, "was": true, "are": true, "were": true,
		"returned": true, "returns": true, "get": true, "gets": true, "saw": true, "seen": true,
		"found": true, "observed": true, "took": true, "received": true, "counted": true}
	expectedWords = map[string]bool{"want": true, "wants": true, "wanted": true, "expected": true,
		"expect": true, "expects": true, "expecting": true, "exp": true, "be": true, "should": true,
		"must": true, "need": true, "needs": true, "needed": true, "required": true}
)

// messageNumbers returns the numbers of a message (addresses excluded) in
// order, each with its role, and the message with each number replaced by
// a mark (\x01), so that two messages' numbers can be paired.
func messageNumbers(msg string) (skeleton string, nums []msgNumber) {
	msg = hexRE.ReplaceAllString(msg, "\x02")
	var b strings.Builder
	last := 0
	for _, m := range numRE.FindAllStringSubmatchIndex(msg, -1) {
		start, end := m[2], m[3]
		text := msg[start:end]
		v, _ := strconv.ParseFloat(text, 64)
		nums = append(nums, msgNumber{text: text, val: v, role: numberRole(msg[last:start])})
		b.WriteString(msg[last:start])
		b.WriteByte(1)
		last = end
	}
	b.WriteString(msg[last:])
	return b.String(), nums
}

// numberRole reads a number's role from the text between it and the
// number before it.
func numberRole(before string) numRole {
	words := wordRE.FindAllStringIndex(before, -1)
	tail := before
	if len(words) > 0 {
		w := words[len(words)-1]
		word := strings.ToLower(before[w[0]:w[1]])
		switch {
		case expectedWords[word]:
			return numExpected
		case observedWords[word]:
			return numObserved
		}
		tail = before[w[1]:]
	}
	if assignRE.MatchString(tail) {
		return numObserved
	}
	return numFixed
}

// sameSide reports whether an observed value got is where the log's was
// with respect to each expected value: below, equal or above.
func sameSide(log, got float64, expected []float64) bool {
	for _, e := range expected {
		if cmpFloat(log, e) != cmpFloat(got, e) {
			return false
		}
	}
	return true
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// numbersAgree reports whether a finding's message shows the log's
// message text with the numbers it must: the expected and other numbers
// as the log's, the observed ones on the same side of the expected ones.
// text is the log's message (its first line); where the finding's first
// line holds it (after the test's name and site), its numbers are paired
// with the log's in order.
func numbersAgree(text, finding string) bool {
	sk, nums := messageNumbers(strings.TrimSpace(firstLine(text)))
	if len(nums) == 0 {
		return true
	}
	var expected []float64
	for _, n := range nums {
		if n.role == numExpected {
			expected = append(expected, n.val)
		}
	}
	fsk, fnums := messageNumbers(firstLine(finding))
	sk, fsk = strings.Join(strings.Fields(sk), " "), strings.Join(strings.Fields(fsk), " ")
	for from := 0; ; {
		i := strings.Index(fsk[from:], sk)
		if i < 0 {
			return false
		}
		i += from
		k := strings.Count(fsk[:i], "\x01")
		ok := k+len(nums) <= len(fnums)
		for j := 0; ok && j < len(nums); j++ {
			n, f := nums[j], fnums[k+j]
			if n.role == numObserved {
				ok = sameSide(n.val, f.val, expected)
			} else {
				ok = n.text == f.text
			}
		}
		if ok {
			return true
		}
		from = i + 1
	}
}

// hasNumbers reports whether a message has numbers a match compares.
func hasNumbers(text string) bool {
	_, nums := messageNumbers(firstLine(text))
	return len(nums) > 0
}

// describeNumbers says which numbers of a message may differ in a match:
// "29999 may differ, on the same side of 30001"; "" when none may.
func describeNumbers(text string) string {
	_, nums := messageNumbers(firstLine(text))
	var obs, exp []string
	for _, n := range nums {
		switch n.role {
		case numObserved:
			obs = append(obs, n.text)
		case numExpected:
			exp = append(exp, n.text)
		}
	}
	if len(obs) == 0 {
		return ""
	}
	d := strings.Join(obs, ", ") + " may differ"
	if len(exp) > 0 {
		d += ", on the same side of " + strings.Join(exp, " and ")
	}
	return d
}
