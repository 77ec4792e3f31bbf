package atomicmix

import (
	"go/ast"
	"regexp"
	"strings"
)

// stopWorldRe matches a function doc saying that it runs while every
// other goroutine that could touch its data is stopped: "every execution
// but the caller is parked", "all other threads are stopped", "runs with
// the world stopped", "stop-the-world".
var stopWorldRe = regexp.MustCompile(`\b(?:every|all)(?: other)? [a-z-]+(?: [a-z-]+)? (?:but|except) (?:the caller|the current one|this one|ours) (?:is|are) (?:parked|stopped|paused|suspended)\b|\b(?:every|all) other [a-z-]+ (?:is|are) (?:parked|stopped|paused|suspended)\b|\bstop-the-world\b|\bthe world (?:is )?stopped\b`)

// stopsWorld reports whether the doc comment says the function runs in a
// stop-the-world phase: its plain writes are the author's exclusive
// phase, not beside the atomics (IL3001, like a test's).
func stopsWorld(cg *ast.CommentGroup) bool {
	if cg == nil {
		return false
	}
	text := strings.ToLower(strings.Join(strings.Fields(cg.Text()), " "))
	return stopWorldRe.MatchString(text)
}
