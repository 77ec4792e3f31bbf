// Package corpus holds types that claim to be safe for concurrent use:
// the broken ones (broken.go) each violate the claim in a different way,
// the correct ones (correct.go) keep it; handles.go, pairs.go and
// derived.go hold a broken type and its correct near-miss each,
// guarded.go two that claim nothing but hold a mutex, alias.go one whose
// racy method takes an alias of another package's struct, lazywith.go a
// logger whose lazily tagged journals race on their first uses. interleave gen
// must find every broken one and report nothing on the correct ones.
package corpus
