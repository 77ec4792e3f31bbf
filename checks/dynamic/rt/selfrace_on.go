//go:build interleave_selfrace

package rt

// selfRace, on only in a test build (-tags interleave_selfrace), makes
// timerOf read a context's timer without the context's lock, as it once
// did: a data race of the runtime's own, which explore must tell as the
// tool's (a note), never as the code's finding.
const selfRace = true
