// Package claim reads the doc comments by which a type promises safety for
// concurrent use; the static passes and interleave gen share it.
package claim

import (
	"go/ast"
	"strings"
)

// Directive marks a type as safe for concurrent use without prose.
const Directive = "//interleave:threadsafe"

// claims are the doc phrases, lowercased with single spaces, that promise
// safety for concurrent use.
var claims = []string{
	"safe for concurrent use",
	"safe for use by multiple goroutines",
	"safe to use concurrently",
	"safe for concurrent access",
	"safe for simultaneous use",
	"safe to call concurrently",
	"used by multiple goroutines simultaneously",
	"used concurrently by multiple goroutines",
	"concurrency-safe",
	"concurrency safe",
	"goroutine-safe",
	"goroutine safe",
	"thread-safe",
	"thread safe",
	"threadsafe",
}

// Of returns the phrase of a doc comment that claims safety for
// concurrent use, or "" (also for a negated phrase: "not thread-safe",
// "non-thread safe").
func Of(cg *ast.CommentGroup) string {
	if cg == nil {
		return ""
	}
	for _, c := range cg.List {
		if strings.HasPrefix(c.Text, Directive) {
			return Directive
		}
	}
	text := strings.ToLower(strings.Join(strings.Fields(cg.Text()), " "))
	for _, phrase := range claims {
		for i := 0; ; {
			j := strings.Index(text[i:], phrase)
			if j < 0 {
				break
			}
			at := i + j
			before := text[max(0, at-16):at]
			if !strings.Contains(before, "not ") && !strings.Contains(before, "n't ") && !strings.HasSuffix(before, "un") && !strings.Contains(before, "never ") && !strings.HasSuffix(before, "non-") && !strings.HasSuffix(before, "non ") {
				return phrase
			}
			i = at + len(phrase)
		}
	}
	return ""
}
