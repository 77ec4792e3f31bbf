// Command interleave-vet runs interleave's static passes under go vet:
//
//	go install github.com/interleave-dev/interleave/cmd/interleave-vet@latest
//	go vet -vettool=$(which interleave-vet) ./...
//
// It runs exactly the analyzers interleave check runs (static.Analyzers),
// one package at a time as go vet drives it. interleave check adds what a
// vet tool cannot: //interleave:ignore suppressions, rule IDs, severities and
// the report formats.
package main

import (
	"golang.org/x/tools/go/analysis/unitchecker"

	"github.com/interleave-dev/interleave/checks/static"
)

func main() { unitchecker.Main(static.Analyzers()...) }
