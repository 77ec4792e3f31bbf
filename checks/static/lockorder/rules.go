package lockorder

import "github.com/interleave-dev/interleave/checks"

// The rule IDs lockorder reports, set as Diagnostic.Category.
const (
	RuleLockOrderInversion           = "IL2101" // by lock class (opt-in)
	RuleLockOrderInversionSameObject = "IL2102" // by instance: the precise form of IL2101 (opt-in)
)

// Rules are the rules lockorder reports, with their texts: what is wrong, why,
// and the fix. The first is the rule of a diagnostic with no category.
var Rules = []checks.Rule{
	{ID: RuleLockOrderInversion, Slug: "lock-order-inversion", Title: "Two locks acquired in opposite orders", Severity: checks.Error, Level: checks.OptIn, Since: "0.1",
		Text: "One path takes A then B, another takes B then A, directly or through calls (func values, interface methods and callbacks through a call graph of the package), in this package or one it imports. Two goroutines on those paths can deadlock. Pick one order. Locks are compared by class (the struct type and field, or the package variable); two instances of one class are not reported. Lock orders taken only in test files are not reported. Opt-in: locks are compared by class, so two instances of one type in different roles (a client being created and a registered one, a raft log store and a stream store) form cycles no run takes; see docs/precision.md for the figures. The same-object case is IL2102."},
	{ID: RuleLockOrderInversionSameObject, Slug: "lock-order-inversion-same-object", Title: "Two locks of one object acquired in opposite orders", Severity: checks.Error, Level: checks.OptIn, Since: "0.2",
		Text: "Two locks reached from the same object (s.mu and s.sessMu, s.mu and s.log.mu) or two package-level mutexes are taken in both orders in this package's non-test code, directly or through static calls on that object (a method that locks s.log.mu, called with s.mu held). Two goroutines running the two paths on the same object deadlock. Unlike IL2101 this compares instances, not classes: locks of two different objects of one type (transfer(from, to)), a connection's lock taken while iterating a server's connections, orders taken while the value is still fresh (constructors) or in tests, read locks on both sides, paths that both hold a third lock of the object (a gate), calls whose callee drops the held lock first, locks a callee takes only under a bool parameter the call passes the other way (needLock=false), and functions that unlock through a closure called more than once are not reported. Pick one order. Opt-in: its precision on real modules is below the bar of a default rule; see docs/precision.md for the figures."},
}
