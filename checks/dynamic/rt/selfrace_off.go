//go:build !interleave_selfrace

package rt

// selfRace is off: see selfrace_on.go.
const selfRace = false
