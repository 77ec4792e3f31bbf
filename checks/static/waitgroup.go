package static

// The rule of go vet's waitgroup pass, which the suite runs.

import "github.com/interleave-dev/interleave/checks"

// RuleWaitGroupAddInGoroutine is the rule of go vet's waitgroup pass.
const RuleWaitGroupAddInGoroutine = "IL6101"

// WaitGroupRules are the rules of go vet's waitgroup pass.
var WaitGroupRules = []checks.Rule{
	{ID: RuleWaitGroupAddInGoroutine, Slug: "waitgroup-add-in-goroutine", Title: "WaitGroup.Add called inside the goroutine it counts", Severity: checks.Error, Level: checks.Default, Since: "0.1",
		Text: "Wait may return before the goroutine runs Add. Call Add before the go statement, or use WaitGroup.Go. (This is go vet's waitgroup pass.)"},
}
