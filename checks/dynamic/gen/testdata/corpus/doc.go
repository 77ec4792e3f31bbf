// Package corpus holds types that claim to be safe for concurrent use:
// the broken ones (broken.go) each violate the claim in a different way,
// the correct ones (correct.go) keep it. interleave gen must find every
// broken one and report nothing on the correct ones.
package corpus
