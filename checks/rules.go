package checks

// The rule IDs of dynamic failures, one per failure kind.

// Dynamic rule IDs (IL9xxx), one per failure kind, numbered in
// FailureKinds order.
const (
	RulePanic       = "IL9001"
	RuleTestFailure = "IL9002"
	RuleDeadlock    = "IL9003"
	RuleLeak        = "IL9004"
	RuleDataRace    = "IL9005"
	RuleFatal       = "IL9006"
	// ruleUnknownFailure is the ID of a kind not in FailureKinds.
	ruleUnknownFailure = "IL9000"
)

// dynamicRuleIDs holds the rule ID of FailureKinds[i] at index i.
var dynamicRuleIDs = [...]string{RulePanic, RuleTestFailure, RuleDeadlock, RuleLeak, RuleDataRace, RuleFatal}
