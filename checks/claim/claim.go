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
	phrase, _ := scan(cg)
	return phrase
}

// Disclaims reports whether a doc comment says the type is not safe for
// concurrent use ("It is NOT thread-safe.") and claims nothing else.
func Disclaims(cg *ast.CommentGroup) bool {
	if cg == nil || Of(cg) != "" {
		return false
	}
	_, negated := scan(cg)
	return negated
}

// scan returns the first phrase of cg that claims safety for concurrent
// use, and whether some phrase appears negated.
func scan(cg *ast.CommentGroup) (string, bool) {
	negated := false
	text := strings.ToLower(strings.Join(strings.Fields(cg.Text()), " "))
	for _, phrase := range claims {
		for i := 0; ; {
			j := strings.Index(text[i:], phrase)
			if j < 0 {
				break
			}
			at := i + j
			before := text[max(0, at-16):at]
			if partOfWord(text, at+len(phrase)) || conditional(text, at) {
				i = at + len(phrase)
				continue
			}
			if !strings.Contains(before, "not ") && !strings.Contains(before, "n't ") && !strings.HasSuffix(before, "un") && !strings.Contains(before, "never ") && !strings.HasSuffix(before, "non-") && !strings.HasSuffix(before, "non ") {
				return phrase, negated
			}
			negated = true
			i = at + len(phrase)
		}
	}
	return "", negated
}

// partOfWord reports whether the phrase ending at end goes on as a longer
// word: "goroutine safety: do not mutate …" names a topic, it does not
// claim safety.
func partOfWord(text string, end int) bool {
	if end >= len(text) {
		return false
	}
	c := text[end]
	return 'a' <= c && c <= 'z' || c == '-' || c == '_'
}

// conditions are the words by which a sentence makes its safety claim
// depend on how the value is used ("As long as they are unmodified, they
// are safe for concurrent use"): the claim says nothing of concurrent
// modification, which is what the passes check.
var conditions = []string{"as long as ", "so long as ", "provided ", "only if ", "unless ", "if "}

// conditional reports whether the sentence of text around at states a
// condition.
func conditional(text string, at int) bool {
	start := strings.LastIndex(text[:at], ". ") + 1
	end := len(text)
	if k := strings.Index(text[at:], ". "); k >= 0 {
		end = at + k
	}
	sentence := " " + text[start:end]
	for _, c := range conditions {
		if strings.Contains(sentence, " "+c) {
			return true
		}
	}
	return false
}
