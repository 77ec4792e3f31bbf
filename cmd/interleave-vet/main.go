// Command interleave-vet runs interleave's static passes under go vet:
//
//	go install github.com/interleave-dev/interleave/cmd/interleave-vet@latest
//	go vet -vettool=$(which interleave-vet) ./...
//
// It runs exactly the analyzers interleave check runs (static.Analyzers),
// one package at a time as go vet drives it, plus static.FilesAnalyzer,
// which stays silent unless -files.report is given; so interleave-vet can
// also serve as static.Options.VetTool. interleave check adds what a vet
// tool cannot: //interleave:ignore suppressions, rule IDs, severities and
// the report formats.
package main

import "github.com/interleave-dev/interleave/checks/static"

func main() { static.VetToolMain() }
