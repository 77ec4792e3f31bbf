package main

import (
	"fmt"
	"strings"

	"github.com/interleave-dev/interleave/internal/machine"
)

// buildFailed says why pkg's build failed, from the go command's output:
// the code's ("pkg does not compile" and what; verb says it otherwise), or
// the machine's (a full disk, no memory, a killed compiler, a toolchain
// that could not be downloaded), which is never told as the code's.
func buildFailed(pkg, verb, output string) string {
	output = strings.TrimRight(output, "\n")
	if f := machine.Fault(output); f != "" {
		return fmt.Sprintf("could not build %s on this machine, which is not the code's doing: %s\n%s", pkg, f, output)
	}
	return fmt.Sprintf("%s %s:\n%s", pkg, verb, output)
}

// ranFailed is err, said to be the machine's when it is (a go command
// that could not load the packages for a full disk, say).
func ranFailed(err error) string {
	if f := machine.Fault(err.Error()); f != "" {
		return fmt.Sprintf("could not run on this machine, which is not the code's doing: %s\n%v", f, err)
	}
	return err.Error()
}
